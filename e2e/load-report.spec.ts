/**
 * The load report in the Data view: after a load it names what DuckDB's sniffer got wrong, and a
 * fix reads the file again so the table holds what native DuckDB reads with the same options;
 * the first reading stays one click away. Excel sheets and JSON files get the same, their fixes
 * compared with native read_json over the same data written cleanly.
 */
import { LOAD_REPORT_CASES, TABLE_REPORT_CASES } from '../scripts/loadReportCases.mjs';
import { expect, test } from './support/fixtures';
import { expectSameRows } from './support/compare';
import { nativeQuery } from './support/native';
import { bad } from './support/paths';

const sqlString = (s: string): string => `'${s.replace(/'/g, "''")}'`;

test('day/month dates: the report names the unparsed column, the fix reads both as native DuckDB does, and it can be undone', async ({ app }) => {
  const c = LOAD_REPORT_CASES.find((x) => x.kind === 'unparsed_dates')!;
  await app.addFiles(bad(c.file));
  expect(await app.waitForLoad(c.file, 'report_dates')).toEqual({ kind: 'loaded', name: 'report_dates' });
  await app.selectDataset('report_dates');
  const report = app.page.getByRole('region', { name: 'Load report' });
  await expect(report.getByRole('list', { name: 'Findings' })).toContainText('"End Date"');
  await report.getByRole('button', { name: 'Read dates month first (%m/%d/%Y)' }).click();
  await expect(report.getByRole('status')).toContainText('Done', { timeout: 60_000 });

  const sql = 'SELECT id, "Start Date"::VARCHAR AS s, "End Date"::VARCHAR AS e, typeof("End Date") AS t FROM report_dates ORDER BY id';
  const native = await nativeQuery(sql, { report_dates: `read_csv(${sqlString(bad(c.file))}, dateformat = '%m/%d/%Y')` });
  expectSameRows((await app.runSql(sql)).rows, native.rows);
  expect(native.rows[0]?.[3]).toBe('DATE');

  // The SQL view took the pane; the report is in the Data view, one tab away.
  await app.openView('Data');
  await report.getByRole('button', { name: 'Read as first detected' }).click();
  await expect(report.getByRole('button', { name: 'Read as first detected' })).toHaveCount(0, { timeout: 60_000 });
  expect(await app.scalar('SELECT typeof("End Date") FROM report_dates LIMIT 1')).toBe('VARCHAR');
});

test('placeholders: "Read … as missing" makes the column numeric with native DuckDB’s values', async ({ app }) => {
  const c = LOAD_REPORT_CASES.find((x) => x.kind === 'placeholders')!;
  await app.addFiles(bad(c.file));
  expect(await app.waitForLoad(c.file, 'report_placeholders')).toEqual({ kind: 'loaded', name: 'report_placeholders' });
  await app.selectDataset('report_placeholders');
  const report = app.page.getByRole('region', { name: 'Load report' });
  await expect(report).toContainText('"price" is numeric but for placeholder text');
  await report.getByRole('button', { name: /^Read .* as missing$/ }).click();
  await expect(report.getByRole('status')).toContainText('Done', { timeout: 60_000 });
  const sql = 'SELECT id, price, typeof(price) AS t FROM report_placeholders ORDER BY id';
  const nullstr = (c.fix?.nullstr as string[]).map(sqlString).join(', ');
  const native = await nativeQuery(sql, { report_placeholders: `read_csv(${sqlString(bad(c.file))}, null_padding = true, nullstr = [${nullstr}])` });
  const got = (await app.runSql(sql)).rows.map((r) => r.map((v) => (v === 'NULL' ? '' : v)));
  expectSameRows(got, native.rows);
});

test('Excel title rows: "Read with the header at row 4" gives the columns native read_json gives from the clean data, and it can be undone', async ({ app }) => {
  const c = TABLE_REPORT_CASES.find((x) => x.kind === 'title_line')!;
  await app.addFiles(bad(c.file));
  expect(await app.waitForLoad(c.file, 'report_sheet_title')).toEqual({ kind: 'loaded', name: 'report_sheet_title' });
  await app.selectDataset('report_sheet_title');
  const report = app.page.getByRole('region', { name: 'Load report' });
  await expect(report.getByRole('list', { name: 'Findings' })).toContainText('above the header');
  await report.getByRole('button', { name: 'Read with the header at row 4' }).click();
  await expect(report.getByRole('status')).toContainText('Done', { timeout: 60_000 });

  const sql = 'SELECT "Region", "2019", "2020", typeof("2019") AS t19, typeof("2020") AS t20 FROM report_sheet_title ORDER BY "Region"';
  const native = await nativeQuery(sql, { report_sheet_title: `read_json(${sqlString(bad(`${c.file}.clean.json`))})` });
  expectSameRows((await app.runSql(sql)).rows, native.rows);
  expect(native.rows[0]?.slice(3)).toEqual(['BIGINT', 'DOUBLE']);

  await app.openView('Data');
  await report.getByRole('button', { name: 'Read as first detected' }).click();
  await expect(report.getByRole('button', { name: 'Read as first detected' })).toHaveCount(0, { timeout: 60_000 });
  await expect(report.getByRole('button', { name: 'Read with the header at row 4' })).toBeVisible();
  expect(await app.scalar("SELECT count(*) FROM duckdb_columns() WHERE table_name = 'report_sheet_title' AND column_name = '2019'")).toBe('0');
});

test('JSON placeholders: "Read … as missing" makes the field numeric with native read_json’s values for the clean data, and it can be undone', async ({ app }) => {
  const c = TABLE_REPORT_CASES.find((x) => x.kind === 'placeholders' && x.file.endsWith('.json'))!;
  await app.addFiles(bad(c.file));
  expect(await app.waitForLoad(c.file, 'report_json_placeholders')).toEqual({ kind: 'loaded', name: 'report_json_placeholders' });
  await app.selectDataset('report_json_placeholders');
  const report = app.page.getByRole('region', { name: 'Load report' });
  await expect(report).toContainText('"price" is numeric but for placeholder text');
  await report.getByRole('button', { name: /^Read .* in "price" as missing$/ }).click();
  await expect(report.getByRole('status')).toContainText('Done', { timeout: 60_000 });
  const sql = 'SELECT id, price, typeof(price) AS t FROM report_json_placeholders ORDER BY id';
  const native = await nativeQuery(sql, { report_json_placeholders: `read_json(${sqlString(bad(`${c.file}.clean.json`))})` });
  const got = (await app.runSql(sql)).rows.map((r) => r.map((v) => (v === 'NULL' ? '' : v)));
  expectSameRows(got, native.rows);
  expect(native.rows[0]?.[2]).toBe('DOUBLE');

  await app.openView('Data');
  await report.getByRole('button', { name: 'Read as first detected' }).click();
  await expect(report.getByRole('button', { name: 'Read as first detected' })).toHaveCount(0, { timeout: 60_000 });
  expect(await app.scalar('SELECT typeof(price) FROM report_json_placeholders LIMIT 1')).toBe('VARCHAR');
});

test('Apply all: title lines and two columns of placeholders are fixed in one read', async ({ app }) => {
  const c = LOAD_REPORT_CASES.find((x) => x.file === 'report-apply-all.csv')!;
  await app.addFiles(bad(c.file));
  expect(await app.waitForLoad(c.file, 'report_apply_all')).toEqual({ kind: 'loaded', name: 'report_apply_all' });
  await app.selectDataset('report_apply_all');
  const report = app.page.getByRole('region', { name: 'Load report' });
  await expect(report.getByRole('list', { name: 'Findings' })).toContainText('metadata or titles');
  await report.getByRole('button', { name: 'Apply all 3 fixes in one read' }).click();
  await expect(report.getByRole('status')).toContainText('Done', { timeout: 60_000 });
  const sql = 'SELECT region, units, price, typeof(units) AS tu, typeof(price) AS tp FROM report_apply_all ORDER BY region';
  const native = await nativeQuery(sql, { report_apply_all: `read_csv(${sqlString(bad(c.file))}, null_padding = true, skip = 2, header = true, nullstr = ['', '[x]', '[c]'])` });
  expectSameRows((await app.runSql(sql)).rows.map((r) => r.map((v) => (v === 'NULL' ? '' : v))), native.rows);
  expect(native.rows[0]?.slice(3)).toEqual(['BIGINT', 'DOUBLE']);
});
