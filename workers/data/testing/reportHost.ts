/**
 * A data host for the host's tests (load reports, wide and big tables): the real host on the Node
 * build of DuckDB-WASM, with its requests called directly (no worker), the given readers and
 * storage in fake IndexedDB.
 */
import { tableFromIPC } from 'apache-arrow';
import type { DataRequests, DatasetInfo, LoadOutcome, QueryOutcome } from '../../../protocol/data';
import type { Handlers } from '../../../protocol/rpcServer';
import { DataHost, type Readers } from '../host/host';
import type { HostDeps } from '../host/hostContext';
import { DatasetStorage } from '../host/storage';
import { NodeEngine } from './nodeEngine';

const unused = async (): Promise<never> => {
  throw new Error('reader not used in this test');
};
/** Readers for tests that load only CSV (DuckDB's own reader): any other format fails the test. */
export const csvOnlyReaders: Readers = { parquet: unused, arrow: unused, excel: unused, json: unused, listExcelSheets: unused };

export interface ReportHostOptions extends Partial<Omit<HostDeps, 'boot' | 'openStorage' | 'readers'>> {
  /** By default `csvOnlyReaders`. */
  readers?: Readers;
  /** Without storage nothing is saved, so a re-read has only this session's file. */
  storage?: boolean;
  /** DuckDB's memory_limit, set as the browser boot sets it (memoryBudget.ts); by default DuckDB's own. */
  memoryLimitBytes?: number;
}

export function makeReportHost(options: ReportHostOptions = {}) {
  const { readers = csvOnlyReaders, storage = true, memoryLimitBytes, ...deps } = options;
  const host = new DataHost({
    ...deps,
    boot: () => NodeEngine.open(memoryLimitBytes === undefined ? {} : { memoryLimitBytes }),
    openStorage: async () => (storage ? DatasetStorage.open({ useOpfs: false }) : undefined),
    readers,
  });
  const h: Handlers<DataRequests> = host.handlers();
  const call = async <K extends keyof DataRequests & string>(type: K, payload: DataRequests[K]['req']): Promise<DataRequests[K]['res']> => {
    const handler = h[type] as (p: DataRequests[K]['req']) => Promise<{ result: DataRequests[K]['res'] }> | { result: DataRequests[K]['res'] };
    return (await handler(payload)).result;
  };
  const loadAll = async (name: string, bytes: string | Uint8Array): Promise<DatasetInfo[]> => {
    const o: LoadOutcome = await call('load', { source: { kind: 'file', file: new File([bytes as BlobPart], name) }, options: { loadId: name } });
    if (!o.ok) throw new Error(o.message);
    return o.datasets;
  };
  /** A query's rows, each cell as `text` writes it; column by column, so a column named "2019" keeps its place. */
  const rows = async (sql: string, text: (v: unknown) => string): Promise<string[][]> => {
    const o: QueryOutcome = await call('consoleQuery', { sql });
    if (!o.ok) throw new Error(o.message);
    const t = tableFromIPC(o.result.ipc);
    const columns = t.schema.fields.map((_, i) => t.getChildAt(i)!);
    return Array.from({ length: t.numRows }, (_, r) => columns.map((col) => text(col.get(r))));
  };
  return { host, call, loadAll, load: async (name: string, bytes: string | Uint8Array) => (await loadAll(name, bytes))[0]!, rows };
}
