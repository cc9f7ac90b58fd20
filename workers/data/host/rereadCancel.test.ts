/**
 * Issue 37: a load report's fix reports progress and can be cancelled, and a cancelled fix leaves
 * the table, its report and every other dataset as they were (nothing half-swapped, no scratch
 * table left). The real data host on DuckDB-WASM's Node build; the Cancel is pressed the moment
 * the re-read says it has started, or while it still waits for its turn behind another statement.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DataEvent } from '../../../protocol/data';
import type { Readers } from './host';
import { makeReportHost } from '../testing/reportHost';
import { convertJson } from '../loaders/json';
import { convertExcel, listExcelSheets } from '../loaders/excel';

const noReader = async () => {
  throw new Error('reader not used in this test');
};
const readers: Readers = { parquet: noReader, arrow: noReader, excel: convertExcel, json: convertJson, listExcelSheets };

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('\n');
// "19-Jan-18": DuckDB reads it as text, the load report offers a date format.
const STOCKS = `Date,Open,Close\n${lines(300, (i) => `${String((i % 28) + 1).padStart(2, '0')}-${mon[i % 12]}-${i < 150 ? '17' : '18'},${(62 + i * 0.5).toFixed(2)},${(62.4 + i * 0.5).toFixed(2)}`)}\n`;
const OTHER = `id,name\n${lines(50, (i) => `${i},n${i}`)}\n`;
const text = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'bigint' ? v.toString() : String(v));

async function setUp() {
  const h = makeReportHost({ readers });
  await h.call('init', {});
  const other = await h.load('other.csv', OTHER);
  const stocks = await h.load('microsoft.csv', STOCKS);
  const fix = stocks.report!.findings.find((f) => f.kind === 'unparsed_dates')!.fix!;
  const events: DataEvent[] = [];
  h.host.addListener((e) => events.push(e));
  /** Everything a user could see of the two datasets, to compare before and after. */
  const state = async () => ({
    list: (await h.call('list', {})).map((d) => ({ name: d.name, columns: d.columns, rowCount: d.rowCount, findings: d.report?.findings.map((f) => f.kind), readOptions: d.report?.readOptions })),
    stocks: await h.rows(`SELECT "Date"::VARCHAR, typeof("Date") FROM "${stocks.name}" ORDER BY rowid LIMIT 3`, text),
    other: await h.rows(`SELECT count(*), sum(id) FROM "${other.name}"`, text),
    scratch: await h.rows("SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE '__dataseer%'", text),
  });
  return { h, stocks, other, fix, events, state };
}

describe('cancelling a load report fix', { timeout: 120_000 }, () => {
  it('reports progress under its id; Cancel as it starts leaves both datasets as they were', async () => {
    const { h, stocks, fix, events, state } = await setUp();
    const before = await state();
    h.host.addListener((e) => {
      if (e.type === 'progress' && e.loadId === 'fix-1' && e.phase === 'parsing') void h.call('cancelLoad', { loadId: 'fix-1' });
    });
    const out = await h.call('reread', { name: stocks.name, options: fix.options, loadId: 'fix-1' });
    expect(out).toEqual({ ok: false, message: `Cancelled: ${stocks.name} is as it was before.`, cancelled: true });
    expect(events.some((e) => e.type === 'progress' && e.loadId === 'fix-1' && e.phase === 'parsing' && e.detail?.endsWith('MB'))).toBe(true);
    expect(events.some((e) => e.type === 'progress' && e.loadId === 'fix-1' && e.phase === 'done')).toBe(true);
    expect(await state()).toEqual(before);
    // The table still holds the text it was read with, not the fix's dates.
    expect(before.stocks[0]![1]).toBe('VARCHAR');
  });

  it('Cancel while the fix waits its turn: nothing runs; the same fix applied afterwards works', async () => {
    const { h, stocks, fix, state } = await setUp();
    const before = await state();
    const busy = h.call('consoleQuery', { sql: 'SELECT count(*) FROM range(3000000)' });
    const fixing = h.call('reread', { name: stocks.name, options: fix.options, loadId: 'fix-2' });
    await h.call('cancelLoad', { loadId: 'fix-2' });
    await busy;
    expect(await fixing).toMatchObject({ ok: false, cancelled: true });
    expect(await state()).toEqual(before);

    // The id's cancel is forgotten once answered: the fix itself still works.
    const again = await h.call('reread', { name: stocks.name, options: fix.options, loadId: 'fix-2' });
    if (!again.ok) throw new Error(again.message);
    const after = await state();
    expect(after.stocks[0]![1]).toBe('DATE');
    expect(after.other).toEqual(before.other);
    expect(after.scratch).toEqual([['0']]);
  });

  it('says how far its checks are, and a Cancel during them stops them at once (no further statement) and keeps the table', async () => {
    const { h, stocks, fix, events, state } = await setUp();
    const before = await state();
    const checking = (id: string) => events.filter((e) => e.type === 'progress' && e.loadId === id && e.detail?.startsWith('checking what was read'));
    // Uncancelled, the fix's checks are several statements, each said.
    const applied = await h.call('reread', { name: stocks.name, options: fix.options, loadId: 'fix-4' });
    if (!applied.ok) throw new Error(applied.message);
    expect(checking('fix-4').length).toBeGreaterThan(1);
    expect(checking('fix-4').map((e) => e.type === 'progress' && e.detail)).toContain('checking what was read: 2 statements');
    await h.call('reread', { name: stocks.name, options: {}, loadId: 'undo' });
    expect(await state()).toEqual(before);

    // Cancelled at the first statement of the checks: none runs after it.
    let seenAtCancel = -1;
    h.host.addListener((e) => {
      if (seenAtCancel < 0 && e.type === 'progress' && e.loadId === 'fix-5' && e.detail?.startsWith('checking what was read')) {
        seenAtCancel = checking('fix-5').length;
        void h.call('cancelLoad', { loadId: 'fix-5' });
      }
    });
    const out = await h.call('reread', { name: stocks.name, options: fix.options, loadId: 'fix-5' });
    expect(out).toEqual({ ok: false, message: `Cancelled: ${stocks.name} is as it was before.`, cancelled: true });
    expect(seenAtCancel).toBe(1);
    expect(checking('fix-5')).toHaveLength(1);
    expect(await state()).toEqual(before);
  });

  it('a JSON table re-read cancelled as it starts keeps its table and leaves no scratch table', async () => {
    const h = makeReportHost({ readers });
    await h.call('init', {});
    const info = await h.load('people.json', JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, city: `c${i % 7}` }))));
    h.host.addListener((e) => {
      if (e.type === 'progress' && e.loadId === 'fix-3' && e.phase === 'parsing') void h.call('cancelLoad', { loadId: 'fix-3' });
    });
    const out = await h.call('reread', { name: info.name, options: {}, loadId: 'fix-3' });
    expect(out).toMatchObject({ ok: false, cancelled: true });
    expect(await h.rows(`SELECT count(*), sum(id) FROM "${info.name}"`, text)).toEqual([['200', '19900']]);
    expect(await h.rows("SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE '__dataseer%'", text)).toEqual([['0']]);
  });
});

describe('cancelling a load during its load report checks', { timeout: 120_000 }, () => {
  it('stops the checks at once and leaves no dataset; the other dataset is as it was', async () => {
    const h = makeReportHost({ readers });
    await h.call('init', {});
    const other = await h.load('other.csv', OTHER);
    const events: DataEvent[] = [];
    h.host.addListener((e) => {
      events.push(e);
      if (e.type === 'progress' && e.loadId === 'stocks' && e.detail === 'checking what was read: 1 statement') void h.call('cancelLoad', { loadId: 'stocks' });
    });
    const out = await h.call('load', { source: { kind: 'file', file: new File([STOCKS], 'microsoft.csv') }, options: { loadId: 'stocks' } });
    expect(out).toMatchObject({ ok: false, cancelled: true });
    expect(events.filter((e) => e.type === 'progress' && e.loadId === 'stocks' && e.detail?.startsWith('checking what was read'))).toHaveLength(1);
    expect((await h.call('list', {})).map((d) => d.name)).toEqual([other.name]);
    expect(await h.rows(`SELECT count(*), sum(id) FROM "${other.name}"`, text)).toEqual([['50', '1225']]);
  });
});
