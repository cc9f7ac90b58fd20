/**
 * Every supported format loads through `Add data files`, and an aggregate over it equals native
 * DuckDB's answer over the same data.
 */
import { expect, sharedApp, test } from './support/fixtures';
import { expectSameRows, parseDisplayedNumber } from './support/compare';
import { rowsText, tableNameFor } from './support/names';
import { nativeQuery, read } from './support/native';
import { generated } from './support/paths';
import { FORMAT_ROWS, REGION_ROWS, XLSX_REGION_ROWS, XLSX_SALES_ROWS } from '../scripts/make-bad-fixtures.mjs';

/** Native DuckDB reads the parquet copy; every format holds the same `items` rows. */
const ITEMS = read.parquet(generated('fmt-parquet.parquet'));

const aggregate = (t: string): string =>
  `SELECT region, count(*) AS n, round(sum(amount), 3) AS total, count(*) FILTER (WHERE flagged) AS flagged_n, ` +
  `min(id) AS lo, max(id) AS hi FROM ${t} GROUP BY region ORDER BY region`;

const dayRange = (t: string): string => `SELECT min(day)::VARCHAR AS first_day, max(day)::VARCHAR AS last_day FROM ${t}`;

const FILES = ['fmt-parquet.parquet', 'fmt-csv.csv', 'fmt-json.json', 'fmt-ndjson.ndjson', 'fmt-arrow.arrow'];

test.describe('formats', () => {
  const shared = sharedApp();

  for (const file of FILES) {
    test(`${file.split('.').pop()} loads and aggregates like native DuckDB`, async () => {
      const app = shared();
      const table = tableNameFor(file);
      await app.addFiles(generated(file));
      const outcome = await app.waitForLoad(file, table);
      expect(outcome, `load of ${file}`).toEqual({ kind: 'loaded', name: table });
      await expect(app.datasetItem(table)).toContainText(rowsText(FORMAT_ROWS));

      const page = await app.runSql(aggregate(table));
      const native = await nativeQuery(aggregate('items'), { items: ITEMS });
      expectSameRows(page.rows, native.rows);

      const days = await app.runSql(dayRange(table));
      const nativeDays = await nativeQuery(dayRange('items'), { items: ITEMS });
      expectSameRows(days.rows, nativeDays.rows);
    });
  }

  test('xlsx with two sheets loads one dataset per sheet', async () => {
    const app = shared();
    const before = await app.datasetNames();
    await app.addFiles(generated('fmt-book.xlsx'));
    await expect.poll(async () => (await app.datasetNames()).length, { timeout: 60_000 }).toBe(before.length + 2);
    await expect(app.loadError('fmt-book.xlsx')).toHaveCount(0);
    const added = (await app.datasetNames()).filter((n) => !before.includes(n));

    const counts = new Map<number, string>();
    for (const name of added) counts.set(parseDisplayedNumber(await app.scalar(`SELECT count(*) FROM "${name}"`)) ?? -1, name);
    const sales = counts.get(XLSX_SALES_ROWS);
    const regions = counts.get(XLSX_REGION_ROWS);
    expect(sales, `a sheet with ${XLSX_SALES_ROWS} rows among ${added.join(', ')}`).toBeTruthy();
    expect(regions, `a sheet with ${XLSX_REGION_ROWS} rows among ${added.join(', ')}`).toBeTruthy();

    const salesSql = (t: string): string =>
      `SELECT region, count(*) AS n, round(sum(amount), 3) AS total, count(*) FILTER (WHERE flagged) AS flagged_n FROM ${t} GROUP BY region ORDER BY region`;
    const page = await app.runSql(salesSql(`"${sales}"`));
    const native = await nativeQuery(salesSql(`(SELECT * FROM items WHERE id <= ${XLSX_SALES_ROWS})`), { items: ITEMS });
    expectSameRows(page.rows, native.rows);

    const regionRows = await app.runSql(`SELECT region, manager, target FROM "${regions}" ORDER BY region`);
    const want = REGION_ROWS.slice(1)
      .map((r) => r.map(String))
      .sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
    expectSameRows(regionRows.rows, want);
  });

  test('several files chosen at once all load (again: clashing names get a suffix)', async () => {
    const app = shared();
    const before = await app.datasetNames();
    await app.addFiles(FILES.map(generated));
    // Files loaded before in this walk are asked about first: keep both.
    const ask = app.page.getByRole('alertdialog', { name: 'Already loaded' });
    const loadedBefore = before.some((n) => FILES.some((f) => n === tableNameFor(f) || n.startsWith(`${tableNameFor(f)}_`)));
    if (loadedBefore) await ask.getByRole('button', { name: 'Keep both' }).click({ timeout: 30_000 });
    await expect.poll(async () => (await app.datasetNames()).length, { timeout: 90_000 }).toBe(before.length + FILES.length);
    const added = (await app.datasetNames()).filter((n) => !before.includes(n));
    for (const file of FILES) {
      const stem = tableNameFor(file);
      // Loaded before in this walk → `<stem>_2`; on a fresh page (after a failure) → `<stem>`.
      const name = added.find((n) => n === stem || new RegExp(`^${stem}_\\d+$`).test(n));
      expect(name, `a dataset for ${file} among ${added.join(', ')}`).toBeTruthy();
      await expect(app.datasetItem(name ?? '')).toContainText(rowsText(FORMAT_ROWS));
    }
    const union = added.map((n) => `SELECT count(*) AS n FROM ${n}`).join(' UNION ALL ');
    expect(parseDisplayedNumber(await app.scalar(`SELECT sum(n)::BIGINT AS total FROM (${union})`))).toBe(FORMAT_ROWS * FILES.length);
  });
});
