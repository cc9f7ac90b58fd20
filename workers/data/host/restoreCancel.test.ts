/**
 * Issue 37: the restore after a reload can be cancelled source by source. A cancelled source is
 * not brought back (no table, not in the list) and its saved copy is kept for the next start; the
 * other sources are restored as before. The real host on DuckDB-WASM's Node build.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { tableFromIPC } from 'apache-arrow';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DataEvent, DataRequests, QueryOutcome } from '../../../protocol/data';
import type { Handlers } from '../../../protocol/rpcServer';
import { DataHost, type Readers } from './host';
import { DatasetStorage } from './storage';
import { NodeEngine } from '../testing/nodeEngine';

const noReader = async () => {
  throw new Error('reader not used in this test');
};
const readers: Readers = { parquet: noReader, arrow: noReader, excel: noReader, json: noReader, listExcelSheets: async () => [] };

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

function makeHost(onEvent: (e: DataEvent, call: Call) => void = () => {}) {
  const events: DataEvent[] = [];
  const host = new DataHost({ boot: () => NodeEngine.open(), openStorage: () => DatasetStorage.open({ useOpfs: false }), readers });
  const h: Handlers<DataRequests> = host.handlers();
  const call: Call = async (type, payload) => {
    const handler = h[type] as (p: typeof payload) => Promise<{ result: unknown }> | { result: unknown };
    return (await handler(payload)).result as never;
  };
  host.addListener((e) => {
    events.push(e);
    onEvent(e, call);
  });
  return { host, events, call };
}
type Call = <K extends keyof DataRequests & string>(type: K, payload: DataRequests[K]['req']) => Promise<DataRequests[K]['res']>;

const count = (o: QueryOutcome) => {
  if (!o.ok) throw new Error(o.message);
  return Number(tableFromIPC(o.result.ipc).get(0)?.toJSON().n);
};

describe('cancelling the restore of one saved source', { timeout: 60_000 }, () => {
  it('that source is not restored, its saved copy is kept, the others come back; the next start restores it', async () => {
    const first = makeHost();
    await first.call('init', {});
    for (const name of ['alpha', 'beta', 'gamma']) {
      const made = await first.call('load', { source: { kind: 'file', file: new File([`id,v\n1,${name}\n2,${name}\n`], `${name}.csv`) }, options: { loadId: name } });
      if (!made.ok) throw new Error(made.message);
    }
    await first.host.snapshotsSettled();

    // The user's Cancel on beta, as its restore starts (what the page sends: cancelLoad by the announced id).
    let betaId = '';
    const second = makeHost((e, call) => {
      if (e.type === 'restoring') betaId = e.sources.find((s) => s.fileName === 'beta.csv')?.loadId ?? '';
      if (e.type === 'progress' && e.loadId === betaId && e.phase === 'restoring') void call('cancelLoad', { loadId: betaId });
    });
    await second.call('init', {});
    expect(betaId).toMatch(/^restore:/);
    expect((await second.call('list', {})).map((d) => d.name)).toEqual(['alpha', 'gamma']);
    expect(count(await second.call('consoleQuery', { sql: "SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'beta'" }))).toBe(0);
    expect(count(await second.call('consoleQuery', { sql: 'SELECT count(*) AS n FROM gamma' }))).toBe(2);
    // The page hears that beta's restore ended, and that it was cancelled.
    expect(second.events).toContainEqual(expect.objectContaining({ type: 'progress', loadId: betaId, phase: 'done', detail: 'cancelled' }));
    const storage = await DatasetStorage.open({ useOpfs: false });
    expect((await storage.entries()).map((e) => e.name)).toEqual(['alpha', 'beta', 'gamma']);

    const third = makeHost();
    await third.call('init', {});
    expect((await third.call('list', {})).map((d) => d.name)).toEqual(['alpha', 'beta', 'gamma']);
    expect(count(await third.call('consoleQuery', { sql: "SELECT count(*) AS n FROM beta WHERE v = 'beta'" }))).toBe(2);
  });
});
