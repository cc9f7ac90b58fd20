import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DatasetInfo } from '../../../protocol/data';
import type { LoadFinding, TableReadOverrides } from '../../../protocol/loadReport';
import type { Readers } from '../host/host';
import { makeReportHost } from '../testing/reportHost';
import { convertJson } from '../loaders/json';
import { convertExcel, listExcelSheets } from '../loaders/excel';
import { DatasetStorage } from '../host/storage';
import { TABLE_REPORT_CASES } from '../../../scripts/loadReportCases.mjs';
import { quoteIdent } from '../../../shared/sql';
import { datasetNotes } from '../../agent/graph/context';

/** The fixture script's workbook writer and fixture data (a script without type declarations: imported by URL). */
interface FixtureScript {
  xlsxBytes(sheets: { name: string; rows: readonly (readonly (string | number | boolean | Date | null)[])[] }[]): Uint8Array;
  ITEMS_SQL: string;
  REGION_ROWS: (string | number)[][];
}
const { xlsxBytes, ITEMS_SQL, REGION_ROWS } = (await import(/* @vite-ignore */ new URL('../../../scripts/make-bad-fixtures.mjs', import.meta.url).href)) as FixtureScript;

const noReader = async () => {
  throw new Error('reader not used in this test');
};
const readers: Readers = { parquet: noReader, arrow: noReader, excel: convertExcel, json: convertJson, listExcelSheets };

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

function makeHost() {
  const h = makeReportHost({ readers });
  return { ...h, rows: (sql: string) => h.rows(sql, cellText) };
}

const dir = mkdtempSync(join(tmpdir(), 'dataseer-table-report-'));

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return String(v.getTime());
  if (typeof v === 'bigint') return v.toString();
  return String(v);
}

/** The correct read: native DuckDB's read_json over the same data written cleanly, columns in `names`' order. */
async function nativeClean(file: string, clean: readonly Record<string, unknown>[], names: readonly string[]): Promise<{ rows: string[][]; types: string[] }> {
  const path = join(dir, `${file}.clean.json`);
  writeFileSync(path, JSON.stringify(clean));
  const instance = await DuckDBInstance.create(':memory:');
  const con = await instance.connect();
  try {
    await con.run(`CREATE TABLE t AS SELECT ${names.map(quoteIdent).join(', ')} FROM read_json('${path}')`);
    const types = (await con.runAndReadAll("SELECT data_type FROM duckdb_columns() WHERE table_name = 't' ORDER BY column_index")).getRowsJS().map((r) => String(r[0]));
    // Dates as the app's Arrow gives them: epoch milliseconds.
    const rows = (await con.runAndReadAll('SELECT * FROM t ORDER BY ALL')).getRowsJS().map((r) => r.map((v) => (v instanceof Date ? String(v.getTime()) : cellText(v))));
    return { rows, types };
  } finally {
    con.closeSync();
    instance.closeSync();
  }
}

const bytesOf = (c: (typeof TABLE_REPORT_CASES)[number]) => (c.rows ? xlsxBytes([{ name: 'data', rows: c.rows }]) : c.json!);
/** Lists in a fix in a fixed order (placeholders come most frequent first). */
function sorted(o: unknown): unknown {
  const t = o as TableReadOverrides | undefined;
  if (!t?.missing) return t;
  return { ...t, missing: Object.fromEntries(Object.entries(t.missing).map(([k, v]) => [k, [...v].sort()])) };
}

async function expectClean(h: ReturnType<typeof makeHost>, info: DatasetInfo, file: string, clean: readonly Record<string, unknown>[]) {
  const names = info.columns.map((c) => c.name);
  const native = await nativeClean(file, clean, names);
  expect(info.columns.map((c) => c.type)).toEqual(native.types);
  expect(await h.rows(`SELECT * FROM ${quoteIdent(info.name)} ORDER BY ALL`)).toEqual(native.rows);
}

describe('load report for Excel and JSON', { timeout: 120_000 }, () => {
  for (const c of TABLE_REPORT_CASES) {
    it(`${c.file}: ${c.kind ?? 'no finding'}${c.fix ? ', its fix reads what native read_json reads from the clean data, and it can be undone' : ''}`, async () => {
      const h = makeHost();
      await h.call('init', {});
      const info = await h.load(c.file, bytesOf(c));
      const findings = info.report?.findings ?? [];
      if (c.kind === null) {
        expect(findings).toEqual([]);
        return;
      }
      const finding = findings.find((f) => f.kind === c.kind);
      expect(finding, JSON.stringify(findings)).toBeDefined();
      expect(finding!.columns).toEqual(c.columns);
      if (!c.fix) {
        expect(finding!.fix).toBeUndefined();
        return;
      }
      expect(sorted(finding!.fix?.options)).toEqual(sorted(c.fix));
      const fixed = await h.call('reread', { name: info.name, options: finding!.fix!.options });
      if (!fixed.ok) throw new Error(fixed.message);
      await expectClean(h, fixed.dataset, c.file, c.clean!);
      // The fixed finding is gone, the fix is kept, and the first reading stays available.
      expect(fixed.dataset.report?.findings ?? []).toEqual([]);
      expect(fixed.dataset.report?.readOptions).toEqual(finding!.fix!.options);
      expect(fixed.dataset.report?.original?.some((f) => f.kind === c.kind)).toBe(true);
      if (c.alternative) {
        const alt = finding!.alternatives?.[0];
        expect(sorted(alt?.options)).toEqual(sorted(c.alternative.fix));
        const other = await h.call('reread', { name: info.name, options: alt!.options });
        if (!other.ok) throw new Error(other.message);
        await expectClean(h, other.dataset, c.file, c.alternative.clean);
      }
      const undone = await h.call('reread', { name: info.name, options: {} });
      if (!undone.ok) throw new Error(undone.message);
      expect(undone.dataset.columns).toEqual(info.columns);
      expect(undone.dataset.report?.readOptions).toBeUndefined();
      expect(undone.dataset.report?.findings).toEqual(info.report?.findings);
    });
  }

  it('builds one fix on another: after the header fix, placeholders below it are found and fixed with the header kept', async () => {
    const h = makeHost();
    await h.call('init', {});
    const rows = [['Table 2: rates (per cent)'], [], ['area', 'rate'], ['a', 1.5], ['b', '[c]'], ['c', 2.25], ['d', '..']];
    const info = await h.load('nested.xlsx', xlsxBytes([{ name: 'data', rows }]));
    const title = info.report!.findings[0]!;
    expect(title.kind).toBe('title_line');
    const first = await h.call('reread', { name: info.name, options: title.fix!.options });
    if (!first.ok) throw new Error(first.message);
    const placeholders = first.dataset.report!.findings.find((f) => f.kind === 'placeholders') as LoadFinding;
    expect(placeholders.fix?.options).toMatchObject({ headerRow: 3, types: { rate: 'DOUBLE' } });
    const second = await h.call('reread', { name: info.name, options: placeholders.fix!.options });
    if (!second.ok) throw new Error(second.message);
    await expectClean(h, second.dataset, 'nested', [
      { area: 'a', rate: 1.5 },
      { area: 'b', rate: null },
      { area: 'c', rate: 2.25 },
      { area: 'd', rate: null },
    ]);
    // Undone, the original's findings come back: the title first.
    const undone = await h.call('reread', { name: info.name, options: {} });
    expect(undone.ok && undone.dataset.report?.findings[0]?.kind).toBe('title_line');
  });

  it("puts an Excel sheet's findings, and a fix in force, in what the model is told about the dataset", async () => {
    const h = makeHost();
    await h.call('init', {});
    const c = TABLE_REPORT_CASES.find((x) => x.kind === 'placeholders' && x.rows)!;
    const info = await h.load(c.file, bytesOf(c));
    const finding = info.report!.findings[0]!;
    expect(datasetNotes(info.report)).toContain(`Load report: ${finding.message}`);
    const fixed = await h.call('reread', { name: info.name, options: finding.fix!.options });
    if (!fixed.ok) throw new Error(fixed.message);
    expect(datasetNotes(fixed.dataset.report).join('\n')).toMatch(/Read with a fix the user chose \(.*missing.*\)/);
  });

  it("keeps each sheet's own fix across a restore", async () => {
    const c = TABLE_REPORT_CASES.find((x) => x.kind === 'title_line')!;
    const first = makeHost();
    await first.call('init', {});
    const book = xlsxBytes([
      { name: 'data', rows: c.rows! },
      { name: 'regions', rows: REGION_ROWS },
    ]);
    const infos = await first.loadAll('two-sheets.xlsx', book);
    const data = infos.find((d) => d.sheet === 'data')!;
    const fixed = await first.call('reread', { name: data.name, options: data.report!.findings[0]!.fix!.options });
    expect(fixed.ok).toBe(true);
    await first.host.snapshotsSettled();
    const second = makeHost();
    await second.call('init', {});
    const list = await second.call('list', {});
    expect(list.find((d) => d.name === data.name)?.columns.map((x) => x.type)).toEqual(['VARCHAR', 'BIGINT', 'DOUBLE']);
    expect(list.find((d) => d.name === data.name)?.report?.readOptions).toEqual({ headerRow: 4 });
    const regions = list.find((d) => d.sheet === 'regions');
    expect(regions?.report?.readOptions).toBeUndefined();
    expect(regions?.columns.map((x) => x.name)).toEqual(['region', 'manager', 'target']);
    await second.host.snapshotsSettled();

    // Without snapshots the workbook is read again from its saved bytes, each sheet with its own options.
    const storage = await DatasetStorage.open({ useOpfs: false });
    for (const e of await storage.entries()) {
      const { snapshotKey: _dropped, ...rest } = e;
      await storage.putEntry(rest);
    }
    const third = makeHost();
    await third.call('init', {});
    await third.call('list', {});
    const again = await third.call('list', {});
    expect(again.find((d) => d.name === data.name)?.columns.map((x) => x.type)).toEqual(['VARCHAR', 'BIGINT', 'DOUBLE']);
    expect(again.find((d) => d.name === data.name)?.report?.readOptions).toEqual({ headerRow: 4 });
    expect(again.find((d) => d.sheet === 'regions')?.columns.map((x) => x.name)).toEqual(['region', 'manager', 'target']);
    expect(await third.rows(`SELECT "2020" FROM ${quoteIdent(data.name)} ORDER BY 1`)).toEqual([['1002.25'], ['1150.75'], ['1310.5'], ['1490']]);
  });
});

describe('real files with numbers and dates as strings', { timeout: 120_000 }, () => {
  const vega = (file: string) => readFileSync(join(process.cwd(), 'node_modules/vega-datasets/data', file), 'utf8');

  it('budget.json: the thousands fix gives the numbers the strings hold', async () => {
    const h = makeHost();
    await h.call('init', {});
    const text = vega('budget.json');
    const info = await h.load('budget.json', text);
    const fixed = await h.call('reread', { name: info.name, options: info.report!.findings[0]!.fix!.options });
    if (!fixed.ok) throw new Error(fixed.message);
    expect(fixed.dataset.columns.find((c) => c.name === '1990')?.type).toBe('BIGINT');
    const want = (JSON.parse(text) as Record<string, string>[]).map((r) => Number(r['1990']!.replace(/,/g, ''))).sort((a, b) => a - b);
    expect((await h.rows(`SELECT "1990" FROM ${quoteIdent(info.name)} ORDER BY 1`)).map((r) => Number(r[0]))).toEqual(want);
  });

  it('political-contributions.json: the date fix reads every "MM/DD/YYYY" as that day', async () => {
    const h = makeHost();
    await h.call('init', {});
    const text = vega('political-contributions.json');
    const info = await h.load('political-contributions.json', text);
    const dates = info.report!.findings.find((f) => f.kind === 'unparsed_dates')!;
    const fixed = await h.call('reread', { name: info.name, options: dates.fix!.options });
    if (!fixed.ok) throw new Error(fixed.message);
    expect(fixed.dataset.columns.find((c) => c.name === 'Coverage_End_Date')?.type).toBe('DATE');
    const want = (JSON.parse(text) as Record<string, string>[]).map((r) => r.Coverage_End_Date!).sort();
    expect((await h.rows(`SELECT strftime(Coverage_End_Date, '%m/%d/%Y') FROM ${quoteIdent(info.name)}`)).map((r) => r[0]).sort()).toEqual(want);
    // The numbers finding is still there, its fix now built on the date fix.
    const numbers = fixed.dataset.report!.findings.find((f) => f.kind === 'numbers_as_text')!;
    expect(numbers.fix?.options).toMatchObject({ types: { Coverage_End_Date: 'DATE', Other_Loans: 'BIGINT' } });
  });
});

describe('no finding on files that load right', { timeout: 300_000 }, () => {
  it('the fixture workbook and every JSON file of vega-datasets (the samples among them)', async () => {
    const h = makeHost();
    await h.call('init', {});
    const report: Record<string, LoadFinding[]> = {};
    const sales: (string | number | boolean)[][] = [['id', 'region', 'amount', 'flagged']];
    for (let i = 1; i <= 120; i++) sales.push([i, ['north', 'south', 'east', 'west'][i % 4]!, Math.round(((i * 37) % 1000) / 7) / 10, i % 3 === 0]);
    for (const d of await h.loadAll('fmt-book.xlsx', xlsxBytes([{ name: 'sales', rows: sales }, { name: 'regions', rows: REGION_ROWS }]))) report[`fmt-book.xlsx/${d.sheet}`] = d.report?.findings ?? [];
    // The fixture JSON as native DuckDB writes it (make-bad-fixtures.mjs: fmt-json.json).
    const instance = await DuckDBInstance.create(':memory:');
    const con = await instance.connect();
    await con.run(ITEMS_SQL);
    const itemsPath = join(dir, 'fmt-json.json');
    await con.run(`COPY items TO '${itemsPath}' (FORMAT json, ARRAY true)`);
    con.closeSync();
    instance.closeSync();
    report['fmt-json.json'] = (await h.load('fmt-json.json', readFileSync(itemsPath, 'utf8'))).report?.findings ?? [];
    const vega = join(process.cwd(), 'node_modules/vega-datasets/data');
    // Geographic and graph files are one nested object, not a table of records.
    const skip = new Set(['us-10m.json', 'world-110m.json', 'londonBoroughs.json', 'londonTubeLines.json', 'miserables.json', 'flare-dependencies.json', 'flights-200k.json']);
    for (const file of readdirSync(vega).filter((f) => f.endsWith('.json') && !skip.has(f))) {
      const text = readFileSync(join(vega, file), 'utf8');
      try {
        report[file] = (await h.load(file, text)).report?.findings ?? [];
      } catch {
        // A file this reader refuses is not a load report's concern.
      }
    }
    const withFindings = Object.fromEntries(Object.entries(report).filter(([, f]) => f.length > 0).map(([k, f]) => [k, f.map((x) => `${x.kind}: ${x.columns.join(', ')}`)]));
    // Three real files do hold numbers and US dates as strings (checked by hand: wheat.json's
    // "year": "1565", budget.json's "1990": "-566,000", political-contributions.json's
    // "Other_Loans": "0" and "Coverage_End_Date": "01/31/2015"); nothing else may be named.
    expect(withFindings).toEqual({
      'budget.json': [`thousands: ${Array.from({ length: 59 }, (_, i) => 1962 + i).join(', ')}, TQ`],
      'political-contributions.json': [
        'unparsed_dates: Coverage_End_Date',
        'numbers_as_text: Transfers_from_Authorized_Committees, Other_Loans, Contributions_from_Other_Political_Committees, Refunds_to_Committees',
      ],
      'wheat.json': ['numbers_as_text: year'],
    });
    expect(Object.keys(report)).toContain('penguins.json');
    expect(Object.keys(report)).toContain('cars.json');
  });
});
