import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CsvReadOverrides } from '../../../protocol/loadReport';
import type { Readers } from '../host/host';
import { makeReportHost } from '../testing/reportHost';
import { convertJson } from '../loaders/json';
import { convertExcel, listExcelSheets } from '../loaders/excel';
import { overridesSql } from '../engine/csvOptions';
import { LOAD_REPORT_CASES, TIMEZONE_CSV } from '../../../scripts/loadReportCases.mjs';

const noReader = async () => {
  throw new Error('reader not used in this test');
};
const readers: Readers = { parquet: noReader, arrow: noReader, excel: convertExcel, json: convertJson, listExcelSheets };

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

function makeHost(storage = true) {
  const h = makeReportHost({ readers, storage });
  return { ...h, rows: (sql: string) => h.rows(sql, cellText) };
}

const dir = mkdtempSync(join(tmpdir(), 'dataseer-report-'));

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'bigint') return v.toString();
  return String(v);
}

/** Native DuckDB's rows for the file read with `options` (the same read_csv the app runs, natively). */
async function nativeRows(file: string, text: string, options: CsvReadOverrides | undefined, select = '*'): Promise<{ rows: string[][]; types: string[] }> {
  const path = join(dir, file);
  writeFileSync(path, text);
  const instance = await DuckDBInstance.create(':memory:');
  const con = await instance.connect();
  try {
    await con.run("SET TimeZone = 'UTC'");
    const args = [`'${path}'`, 'null_padding = true', ...overridesSql(options)];
    await con.run(`CREATE TABLE t AS SELECT * FROM read_csv(${args.join(', ')})`);
    const types = (await con.runAndReadAll("SELECT data_type FROM duckdb_columns() WHERE table_name = 't' ORDER BY column_index")).getRowsJS().map((r) => String(r[0]));
    const reader = await con.runAndReadAll(`SELECT ${select} FROM t ORDER BY ALL`);
    // Dates and timestamps as the app's Arrow gives them: epoch milliseconds.
    const rows = reader.getRowsJS().map((r) => r.map((v) => (v instanceof Date ? String(v.getTime()) : cellText(v))));
    return { rows, types };
  } finally {
    con.closeSync();
    instance.closeSync();
  }
}

const sortedFix = (o: CsvReadOverrides | undefined) => (o?.nullstr ? { ...o, nullstr: [...o.nullstr].sort() } : o);

describe('load report', { timeout: 120_000 }, () => {
  for (const c of LOAD_REPORT_CASES) {
    it(`${c.file}: ${c.kind ?? 'no finding'}${c.fix ? ', and its fix reads as native DuckDB does with the same options' : ''}`, async () => {
      const { call, load, rows } = makeHost();
      await call('init', {});
      const info = await load(c.file, c.text);
      const findings = info.report?.findings ?? [];
      if (c.kind === null) {
        expect(findings).toEqual([]);
        return;
      }
      const finding = findings.find((f) => f.kind === c.kind);
      expect(finding, JSON.stringify(findings)).toBeDefined();
      expect(finding!.columns).toEqual(c.columns);
      // Before any fix the table is what native DuckDB reads with no options.
      expect(await rows(`SELECT * FROM ${info.name} ORDER BY ALL`)).toEqual((await nativeRows(c.file, c.text, undefined)).rows.map((r) => r.map(dateAsEpoch)));
      if (!c.fix) {
        expect(finding!.fix).toBeUndefined();
        return;
      }
      expect(sortedFix(finding!.fix?.options)).toEqual(sortedFix(c.fix as CsvReadOverrides));
      const fixed = await call('reread', { name: info.name, options: finding!.fix!.options });
      if (!fixed.ok) throw new Error(fixed.message);
      const native = await nativeRows(c.file, c.text, c.fix as CsvReadOverrides);
      expect(fixed.dataset.columns.map((col) => col.type)).toEqual(native.types);
      for (const [col, type] of Object.entries(c.fixedTypes ?? {})) expect(fixed.dataset.columns.find((x) => x.name === col)?.type).toBe(type);
      expect(await rows(`SELECT * FROM ${info.name} ORDER BY ALL`)).toEqual(native.rows.map((r) => r.map(dateAsEpoch)));
      // The fixed finding is gone, and the first reading stays available.
      expect(fixed.dataset.report?.findings.some((f) => f.kind === c.kind)).toBe(false);
      expect(fixed.dataset.report?.readOptions).toEqual(finding!.fix!.options);
      expect(fixed.dataset.report?.original?.some((f) => f.kind === c.kind)).toBe(true);
      const undone = await call('reread', { name: info.name, options: {} });
      if (!undone.ok) throw new Error(undone.message);
      expect(undone.dataset.columns).toEqual(info.columns);
      expect(undone.dataset.report?.readOptions).toBeUndefined();
    });
  }

  it('keeps a fix across a restore from the saved source', async () => {
    const c = LOAD_REPORT_CASES.find((x) => x.kind === 'placeholders')!;
    const first = makeHost();
    await first.call('init', {});
    const info = await first.load(c.file, c.text);
    const fixed = await first.call('reread', { name: info.name, options: info.report!.findings[0]!.fix!.options });
    expect(fixed.ok).toBe(true);
    await first.host.snapshotsSettled();
    const second = makeHost();
    const init = await second.call('init', {});
    await second.call('list', {});
    const back = (await second.call('list', {})).find((d) => d.name === info.name) ?? init.datasets.find((d) => d.name === info.name);
    expect(back?.columns.find((x) => x.name === 'price')?.type).toBe('DOUBLE');
    expect(back?.report?.readOptions).toEqual(info.report!.findings[0]!.fix!.options);
  });
});

describe('a fix after a rename', { timeout: 120_000 }, () => {
  it('re-reads the file the dataset came from under its new name, with no saved copy to fall back on', async () => {
    const c = LOAD_REPORT_CASES.find((x) => x.kind === 'placeholders')!;
    const h = makeHost(false);
    await h.call('init', {});
    const info = await h.load(c.file, c.text);
    await h.call('rename', { from: info.name, to: 'renamed' });
    const fixed = await h.call('reread', { name: 'renamed', options: info.report!.findings[0]!.fix!.options });
    expect(fixed.ok).toBe(true);
    expect((await h.call('list', {})).find((d) => d.name === 'renamed')?.columns.find((x) => x.name === 'price')?.type).toBe('DOUBLE');
  });
});

describe('time zones without ICU', { timeout: 120_000 }, () => {
  it('stores a TIMESTAMPTZ column as UTC TIMESTAMP, says so, and date SQL gives what native DuckDB gives in UTC', async () => {
    const { call, load, rows } = makeHost();
    await call('init', {});
    const info = await load(TIMEZONE_CSV.file, TIMEZONE_CSV.text);
    expect(info.columns.find((c) => c.name === 'event_time')?.type).toBe('TIMESTAMP');
    expect(info.report?.timeZones).toEqual([{ column: 'event_time', stored: 'utc' }]);
    const sql = `SELECT id, hour(event_time) AS h, date_trunc('day', event_time) AS d, dayofweek(event_time) AS w, strftime(event_time, '%Y-%m-%d %H:%M') AS s, event_time::DATE AS day, event_time + INTERVAL 1 HOUR AS later`;
    const app = await rows(`${sql} FROM ${info.name} ORDER BY id`);
    const native = await nativeRows(TIMEZONE_CSV.file, TIMEZONE_CSV.text, undefined, sql.replace(/^SELECT /, '').replace('ORDER BY id', ''));
    expect(app).toEqual(native.rows.map((r) => r.map(dateAsEpoch)));
    expect(app.map((r) => r[1])).toEqual(['1', '21', '13', '13']);
  });

  it('reads JSON timestamps with offsets as native read_json does (UTC TIMESTAMP), and says so', async () => {
    const { call, load, rows } = makeHost();
    await call('init', {});
    const text = JSON.stringify([
      { id: 1, at: '2024-03-10T01:30:00Z', off: '2024-03-10T23:30:00+02:00', mixed: '2024-03-10T01:30:00Z', plain: '2024-03-10 01:30:00' },
      { id: 2, at: '2024-03-11T13:45:00Z', off: '2024-03-11T08:15:00-05:00', mixed: '2024-03-10T23:30:00+02:00', plain: '2024-03-11 02:00:00' },
    ]);
    const info = await load('events.json', text);
    expect(info.columns).toEqual([
      { name: 'id', type: 'BIGINT' },
      { name: 'at', type: 'TIMESTAMP' },
      { name: 'off', type: 'TIMESTAMP' },
      // Read as text by read_json too: it takes one timestamp format per column.
      { name: 'mixed', type: 'VARCHAR' },
      { name: 'plain', type: 'TIMESTAMP' },
    ]);
    expect(info.report?.timeZones).toEqual([
      { column: 'at', stored: 'utc' },
      { column: 'off', stored: 'utc' },
    ]);
    const path = join(dir, 'events.json');
    writeFileSync(path, text);
    const instance = await DuckDBInstance.create(':memory:');
    const con = await instance.connect();
    const native = (await con.runAndReadAll(`SELECT id, "at", off, mixed, plain FROM read_json('${path}') ORDER BY id`)).getRowsJS().map((r) => r.map((v) => (v instanceof Date ? String(v.getTime()) : cellText(v))));
    con.closeSync();
    instance.closeSync();
    expect(await rows(`SELECT id, "at", off, mixed, plain FROM ${info.name} ORDER BY id`)).toEqual(native);
  });

  it('leaves a file without time zones exactly as before (no report conversions)', async () => {
    const { call, load } = makeHost();
    await call('init', {});
    const info = await load('plain.csv', 'id,at\n1,2024-03-10 01:30:00\n');
    expect(info.columns).toEqual([
      { name: 'id', type: 'BIGINT' },
      { name: 'at', type: 'TIMESTAMP' },
    ]);
    expect(info.report?.timeZones).toEqual([]);
  });
});

/** The app's Arrow gives DATE/TIMESTAMP as epoch ms numbers; native's cellText gives ISO strings. */
function dateAsEpoch(v: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(v) ? String(Date.parse(v)) : v;
}
