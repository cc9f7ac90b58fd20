/// <reference types="node" />
/**
 * Test-only: loads a real CSV as a new user would (through the data worker's own host, on the
 * Node build of the same DuckDB-WASM) and compares what the app made with native DuckDB's read of
 * the same file: column types and every value (time-zone columns compared in UTC, as the app stores
 * them without ICU), each fix's table against native read_csv with the fix's options, and the date
 * SQL the agent writes on every time-zone column. Used by realCorpus.test.ts (realPatterns.ts)
 * and realCorpus.full.test.ts (the whole manifest, from a local cache).
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { tableFromIPC } from 'apache-arrow';
import { DuckDBInstance } from '@duckdb/node-api';
import type { DataRequests, DatasetInfo, QueryOutcome } from '../../../../../protocol/data';
import type { CsvReadOverrides, FindingKind } from '../../../../../protocol/loadReport';
import type { Handlers } from '../../../../../protocol/rpcServer';
import { DataHost, type Readers } from '../../../host/host';
import { DatasetStorage } from '../../../host/storage';
import { NodeEngine } from '../../nodeEngine';
import { overridesSql } from '../../../engine/csvOptions';
import { transcodeWindows1252 } from '../../../loaders/csvIngest';
import { quoteIdent, quoteLiteral } from '../../../../../shared/sql';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const noReader = async () => {
  throw new Error('reader not used for CSV');
};
const readers: Readers = { parquet: noReader, arrow: noReader, excel: noReader, json: noReader, listExcelSheets: noReader };

export interface AppHost {
  call<K extends keyof DataRequests & string>(type: K, payload: DataRequests[K]['req']): Promise<DataRequests[K]['res']>;
  rows(sql: string): Promise<unknown[][]>;
}

export async function openHost(): Promise<AppHost> {
  globalThis.indexedDB = new IDBFactory();
  const host = new DataHost({ boot: () => NodeEngine.open(), openStorage: () => DatasetStorage.open({ useOpfs: false }), readers });
  const h: Handlers<DataRequests> = host.handlers();
  const call = async <K extends keyof DataRequests & string>(type: K, payload: DataRequests[K]['req']): Promise<DataRequests[K]['res']> => {
    const handler = h[type] as (p: DataRequests[K]['req']) => Promise<{ result: DataRequests[K]['res'] }> | { result: DataRequests[K]['res'] };
    return (await handler(payload)).result;
  };
  const rows = async (sql: string): Promise<unknown[][]> => {
    const o: QueryOutcome = await call('consoleQuery', { sql, maxRows: 100_000 });
    if (!o.ok) throw new Error(o.message);
    return tableFromIPC(o.result.ipc)
      .toArray()
      .map((r: { toArray(): unknown[] }) => r.toArray());
  };
  await call('init', {});
  return { call, rows };
}

const ZONED = 'TIMESTAMP WITH TIME ZONE';

/**
 * One md5 per column over every value as text, in file order: equal fingerprints mean equal
 * values, whichever engine computed them.
 */
function fingerprintSql(source: string, columns: readonly { name: string; type: string }[]): string {
  const parts = columns.map((c) => {
    const v = c.type === ZONED ? `CAST(${quoteIdent(c.name)} AS TIMESTAMP)` : quoteIdent(c.name);
    return `md5(string_agg(coalesce(CAST(${v} AS VARCHAR), '<null>'), chr(31) ORDER BY rowid))`;
  });
  return `SELECT ${parts.length > 0 ? parts.join(', ') : '1'} FROM ${source}`;
}

/** The date SQL an analysis runs on a time column; each must bind and run. */
export const DATE_SQL = [
  (c: string) => `hour(${c})`,
  // DuckDB 1.4 (the app's) gives a DATE here and 1.5 (native) a TIMESTAMP: compared as TIMESTAMP.
  (c: string) => `CAST(date_trunc('day', ${c}) AS TIMESTAMP)`,
  (c: string) => `CAST(${c} AS DATE)`,
  (c: string) => `${c} + INTERVAL 1 HOUR`,
  (c: string) => `strftime(${c}, '%Y-%m-%d %H:%M')`,
  (c: string) => `extract(year FROM ${c})`,
];

export interface NativeRead {
  types: { name: string; type: string }[];
  fingerprint: string[];
  dateSql?: Record<string, string[]>;
}

/** Native DuckDB's read of the file with the app's read_csv arguments beyond `overrides`. */
export async function nativeRead(path: string, overrides: CsvReadOverrides | undefined, tsv: boolean, zonedCols: readonly string[] = []): Promise<NativeRead> {
  const instance = await DuckDBInstance.create(':memory:');
  const con = await instance.connect();
  try {
    await con.run("SET TimeZone = 'UTC'");
    // The app's own retries (csvIngest.ts), so native reads what the app reads.
    const extra: string[] = [];
    for (let tries = 0; ; tries++) {
      const args = [quoteLiteral(path), 'null_padding = true', ...(tsv ? ["delim = '\\t'"] : []), ...extra, ...overridesSql(overrides)];
      try {
        await con.run(`CREATE TABLE t AS SELECT * FROM read_csv(${args.join(', ')})`);
        break;
      } catch (e) {
        const msg = String(e);
        if (tries >= 3) throw e;
        if (/null_padding/.test(msg) && !extra.includes('parallel = false')) extra.push('parallel = false');
        else if (/not utf-8 encoded|Invalid unicode/i.test(msg) && !extra.some((a) => a.startsWith('encoding'))) extra.push("encoding = 'latin-1'");
        else if (/Could not convert|Conversion Error|CSV Error on Line/i.test(msg) && !extra.includes('sample_size = -1')) extra.push('sample_size = -1');
        else throw e;
      }
    }
    const types = (await con.runAndReadAll("SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = 't' ORDER BY column_index"))
      .getRowsJS()
      .map((r) => ({ name: String(r[0]), type: String(r[1]) }));
    const fingerprint = (await con.runAndReadAll(fingerprintSql('t', types))).getRowsJS()[0]!.map(String);
    const dateSql: Record<string, string[]> = {};
    for (const c of zonedCols) {
      const q = quoteIdent(c);
      const utc = `CAST(${q} AS TIMESTAMP)`;
      dateSql[c] = (await con.runAndReadAll(`SELECT ${DATE_SQL.map((f) => `md5(string_agg(coalesce(CAST(${f(utc)} AS VARCHAR), '<null>'), chr(31) ORDER BY rowid))`).join(', ')} FROM t`)).getRowsJS()[0]!.map(String);
    }
    return { types, fingerprint, dateSql };
  } finally {
    con.closeSync();
    instance.closeSync();
  }
}

export interface FixResult {
  kind: FindingKind;
  columns: string[];
  options: CsvReadOverrides;
  ok: boolean;
  /** Columns whose type or values differ from native DuckDB's read with the same options. */
  differs: string[];
  error?: string;
  /** The finding's columns' types after the fix. */
  typesAfter: Record<string, string>;
}

export interface FileResult {
  file: string;
  rows: number;
  columns: { name: string; type: string }[];
  /** Columns whose type or values differ from a default native read (zoned compared in UTC). */
  differs: string[];
  findings: { kind: FindingKind; columns: string[]; message: string; fix?: CsvReadOverrides }[];
  fixes: FixResult[];
  timeZones: string[];
  /** Per zoned column, the date SQL that failed or gave other values than native in UTC. */
  dateSqlFailures: string[];
  error?: string;
}

async function appFingerprint(app: AppHost, info: DatasetInfo): Promise<string[]> {
  return (await app.rows(fingerprintSql(quoteIdent(info.name), info.columns)))[0]!.map(String);
}

function compare(appCols: readonly { name: string; type: string }[], appFp: readonly string[], native: NativeRead): string[] {
  const differs: string[] = [];
  const n = Math.max(appCols.length, native.types.length);
  for (let i = 0; i < n; i++) {
    const a = appCols[i];
    const b = native.types[i];
    const bType = b?.type === ZONED ? 'TIMESTAMP' : b?.type;
    if (!a || !b || a.name !== b.name || a.type !== bType || appFp[i] !== native.fingerprint[i]) differs.push(a?.name ?? b?.name ?? String(i));
  }
  return differs;
}

/** Loads one file in the app, checks it against native DuckDB, tries every fix, and removes it. */
export async function checkFile(app: AppHost, path: string, name: string, bytes: Uint8Array): Promise<FileResult> {

  const tsv = /\.tsv$/i.test(name);
  const base: FileResult = { file: name, rows: 0, columns: [], differs: [], findings: [], fixes: [], timeZones: [], dateSqlFailures: [] };
  const o = await app.call('load', { source: { kind: 'file', file: new File([bytes as BlobPart], name) }, options: { loadId: name } });
  if (!o.ok) return { ...base, error: `app: ${o.message}` };
  const info = o.datasets[0]!;
  if (o.warnings.some((w) => w.includes('Windows-1252'))) {
    // Native DuckDB cannot read these at all; it reads the app's UTF-8 transcoding of them.
    path = join(mkdtempSync(join(tmpdir(), 'corpus-')), basename(name));
    // Node's one-shot TextDecoder('windows-1252') decodes as ISO-8859-1; the stream (the app's) does not.
    writeFileSync(path, new Uint8Array(await (await transcodeWindows1252(new Blob([bytes as BlobPart]))).arrayBuffer()));
  }
  try {
    const zoned = (info.report?.timeZones ?? []).map((t) => t.column);
    let native: NativeRead;
    try {
      native = await nativeRead(path, undefined, tsv, zoned);
    } catch (e) {
      return { ...base, rows: info.rowCount, columns: info.columns, error: `native: ${String(e).slice(0, 200)}` };
    }
    const result: FileResult = {
      ...base,
      rows: info.rowCount,
      columns: info.columns,
      differs: compare(info.columns, await appFingerprint(app, info), native),
      findings: (info.report?.findings ?? []).map((f) => ({ kind: f.kind, columns: f.columns, message: f.message, ...(f.fix ? { fix: f.fix.options } : {}) })),
      timeZones: zoned,
    };
    for (const c of zoned) {
      const q = quoteIdent(c);
      try {
        const got = (await app.rows(`SELECT ${DATE_SQL.map((f) => `md5(string_agg(coalesce(CAST(${f(q)} AS VARCHAR), '<null>'), chr(31) ORDER BY rowid))`).join(', ')} FROM ${quoteIdent(info.name)}`))[0]!.map(String);
        got.forEach((g, i) => {
          if (g !== native.dateSql?.[c]?.[i]) result.dateSqlFailures.push(`${c}: ${DATE_SQL[i]!('x')} differs from native`);
        });
      } catch (e) {
        result.dateSqlFailures.push(`${c}: ${String(e).slice(0, 160)}`);
      }
    }
    for (const f of info.report?.findings ?? []) {
      if (!f.fix) continue;
      const fr: FixResult = { kind: f.kind, columns: f.columns, options: f.fix.options, ok: false, differs: [], typesAfter: {} };
      const fixed = await app.call('reread', { name: info.name, options: f.fix.options });
      if (!fixed.ok) {
        fr.error = `app: ${fixed.message}`;
      } else {
        try {
          const n = await nativeRead(path, f.fix.options, tsv);
          fr.differs = compare(fixed.dataset.columns, await appFingerprint(app, fixed.dataset), n);
          fr.ok = fr.differs.length === 0;
        } catch (e) {
          fr.error = `native: ${String(e).slice(0, 200)}`;
        }
        for (const c of f.columns) fr.typesAfter[c] = fixed.dataset.columns.find((x) => x.name === c)?.type ?? '(gone)';
        if (f.kind === 'title_line') fr.typesAfter = Object.fromEntries(fixed.dataset.columns.slice(0, 6).map((x) => [x.name, x.type]));
      }
      result.fixes.push(fr);
      await app.call('reread', { name: info.name, options: {} });
    }
    return result;
  } finally {
    await app.call('remove', { name: info.name });
  }
}
