/**
 * Issue 37: an operation over a second shows progress and can be cancelled, and a Cancel leaves
 * every other dataset as it was and the cancelled one in a clear state (not half made, with a
 * message). Moderate sizes that take seconds, not the audit's 10M-row/1 GB cells (the bench's).
 * docs/ARCHITECTURE.md "Progress and Cancel" lists every operation and which spec proves it.
 */
import { writeFileSync } from 'node:fs';
import { parseDisplayedNumber } from './support/compare';
import { expect, test, type DataApp } from './support/fixtures';
import { askAndWait, chat, configureEndpoint, useMockLlm } from './support/mockLlm';

const mock = useMockLlm();

/** A query that runs for minutes unless interrupted (20 billion rows counted). */
const ENDLESS = 'SELECT count(*) AS n FROM range(20000000000) t(i) WHERE i % 7 = 3';

/** What a user sees of the other datasets, to compare before and after a Cancel. */
/** A CSV of `rows` rows (~39 bytes each) written to `path`: big enough that its parse takes seconds. */
function writeLongCsv(path: string, rows: number): void {
  const lines = ['id,group,amount,note'];
  for (let i = 0; i < rows; i++) lines.push(`${i},g${i % 40},${(i % 10_000) / 7},note number ${i % 997}`);
  writeFileSync(path, `${lines.join('\n')}\n`);
}

async function othersOf(app: DataApp): Promise<{ names: string[]; penguins: string; scratch: string }> {
  return {
    names: await app.datasetNames(),
    penguins: await app.scalar(`SELECT count(*) || '/' || round(sum("Body Mass (g)")) FROM penguins`),
    scratch: await app.scalar("SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE '__dataseer%'"),
  };
}

test('SQL console on a 10,000,000-row table: Cancel interrupts DuckDB, says so, and the tables are as they were', async ({ app, page }) => {
  test.setTimeout(5 * 60_000);
  await app.loadSample('penguins');
  await app.runSql('CREATE TABLE big AS SELECT i, i % 97 AS k, (i * 7919) % 1000003 AS v FROM range(10000000) t(i)');
  const before = await othersOf(app);
  // Every row of the big table against 2,000 others: far more than anyone waits for.
  await app.submitSql('SELECT count(*) AS n FROM big a, range(2000) r WHERE (a.v + r.range) % 13 = 0');
  // DuckDB-WASM reported no progress for this query shape in a probe (nor for a GROUP BY or a
  // DISTINCT over the table): the console says it is running, and "Query progress" shows when it does.
  await expect(page.getByRole('status').filter({ hasText: 'Running…' })).toBeVisible();
  // Running for a while in DuckDB, not still being read: the Cancel must interrupt it.
  await page.waitForTimeout(3_000);
  await expect(app.runButton).toBeDisabled();
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Query cancelled.' })).toBeVisible({ timeout: 30_000 });
  await expect(app.runButton).toBeEnabled();
  // A cancel is not an error.
  await expect(app.alerts).toHaveCount(0);
  expect(await othersOf(app)).toEqual(before);
  expect(parseDisplayedNumber(await app.scalar('SELECT count(*) FROM big'))).toBe(10_000_000);
  expect(app.pageErrors).toEqual([]);
});

test('Cancel during a CSV load mid-file: no half table, the other datasets and the engine as they were', async ({ app, page }, testInfo) => {
  test.setTimeout(5 * 60_000);
  const path = testInfo.outputPath('mid-file.csv');
  // ~45 MB: long enough to be seen parsing for seconds.
  writeLongCsv(path, 1_200_000);
  await app.loadSample('penguins');
  const before = await othersOf(app);
  await app.addFiles(path);
  const bar = app.progress('mid-file.csv');
  // Mid-file: DuckDB is reading it (the bar says how many MB of the file are read).
  await expect(bar).toHaveAttribute('aria-valuetext', /Parsing/, { timeout: 120_000 });
  await page.getByRole('button', { name: 'Cancel loading mid-file.csv', exact: true }).click();
  await expect(bar).toHaveCount(0, { timeout: 60_000 });
  await expect(app.alerts).toHaveCount(0);
  expect(await app.datasetNames()).not.toContain('mid_file');
  expect(parseDisplayedNumber(await app.scalar("SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE 'mid_file%'"))).toBe(0);
  expect(await othersOf(app)).toEqual(before);
  // After a reload nothing of it comes back either.
  await app.reload();
  await app.expectDataset('penguins');
  expect(await app.datasetNames()).not.toContain('mid_file');
  expect(app.pageErrors).toEqual([]);
});

test('a load report fix shows its progress; Cancel keeps the table as it was and leaves a console query running', async ({ app, page }, testInfo) => {
  test.setTimeout(5 * 60_000);
  const path = testInfo.outputPath('prices.csv');
  const lines = ['id,price,city'];
  for (let i = 0; i < 3_000; i++) lines.push(`${i},${i % 100 === 7 ? 'N/A' : ((i % 1000) / 4).toFixed(2)},city${i % 50}`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  await app.loadSample('penguins');
  await app.addFiles(path);
  expect(await app.waitForLoad('prices.csv', 'prices')).toEqual({ kind: 'loaded', name: 'prices' });
  const before = await othersOf(app);

  // A long console query holds DuckDB: the fix waits its turn, visibly, and is cancelled there.
  await app.submitSql(ENDLESS);
  await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toBeVisible();
  await app.openView('Data');
  await app.selectDataset('prices');
  const report = page.getByRole('region', { name: 'Load report' });
  await report.getByRole('button', { name: 'Read "N/A" as missing' }).click();
  await expect(report.getByRole('status')).toContainText('Reading prices.csv again');
  await expect(report.getByRole('progressbar', { name: 'Reading prices.csv again' })).toBeVisible();
  await report.getByRole('button', { name: 'Cancel the fix of prices', exact: true }).click();
  await expect(report.getByRole('status')).toHaveText('Cancelled: prices is as it was before.', { timeout: 30_000 });
  await expect(report.getByRole('progressbar')).toHaveCount(0);
  await expect(report).toContainText('"price" is numeric but for placeholder text ("N/A" ×');

  // The fix's Cancel was its own: the console query still runs until its own Cancel.
  await app.openView('SQL');
  await expect(app.runButton).toBeDisabled();
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Query cancelled.' })).toBeVisible({ timeout: 30_000 });
  await expect(app.alerts).toHaveCount(0);

  expect(await app.scalar('SELECT typeof(price) FROM prices LIMIT 1')).toBe('VARCHAR');
  expect(await othersOf(app)).toEqual(before);
  // The same fix, not cancelled, does change the table.
  await app.openView('Data');
  await report.getByRole('button', { name: 'Read "N/A" as missing' }).click();
  await expect(report.getByRole('status')).toContainText('Done', { timeout: 120_000 });
  expect(await app.scalar('SELECT typeof(price) FROM prices LIMIT 1')).toBe('DOUBLE');
  expect(app.pageErrors).toEqual([]);
});

test('a dictionary draft can be cancelled: nothing is saved, it says so, and the conversation and other datasets are as they were', async ({ app, page }) => {
  test.setTimeout(4 * 60_000);
  // Loaded before a model is set up: no draft of its own.
  await app.fileInput.setInputFiles({ name: 'other.csv', mimeType: 'text/csv', buffer: Buffer.from('id,v\n1,10\n2,20\n') });
  await app.expectDataset('other');
  await configureEndpoint(page, mock, { key: 'sk-e2e-cancel-123' });
  await app.openView('Ask');
  await askAndWait(page, 'How many rows has other?', 'other has 2 rows.', mock);

  // The model takes a minute to draft: long enough to be cancelled.
  await mock.script([{ type: 'structured', when: 'data_dictionary', delay_ms: 60_000, value: { row_meaning: 'one order', grain: 'order_id', caveats: [], columns: [], joins: [] } }]);
  await app.fileInput.setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from('order_id,amount\n1,1250\n2,4000\n') });
  await app.expectDataset('orders');
  await app.openView('Data');
  await app.selectDataset('orders');
  const dictionary = page.getByRole('region', { name: 'Data dictionary' });
  await expect(dictionary.getByRole('status').filter({ hasText: 'Drafting with the model…' })).toBeVisible({ timeout: 30_000 });
  await expect.poll(async () => (await mock.chatRequests()).filter((r) => r.raw_body.includes('data_dictionary')).length, { timeout: 30_000 }).toBe(1);
  await dictionary.getByRole('button', { name: 'Cancel the dictionary draft of orders', exact: true }).click();
  await expect(dictionary.getByRole('status').filter({ hasText: 'Draft cancelled: the dictionary is as it was.' })).toBeVisible({ timeout: 15_000 });
  await expect(dictionary.getByText('Drafting with the model…')).toHaveCount(0);
  await expect(dictionary.getByText('Draft written by the model')).toHaveCount(0);
  await expect(dictionary.getByRole('alert')).toHaveCount(0);
  expect(await app.scalar('SELECT sum(v) FROM other')).toBe('30');
  await app.openView('Ask');
  await expect(chat(page).answers.filter({ hasText: 'other has 2 rows.' })).toBeVisible();
  expect(app.pageErrors).toEqual([]);
});

test('preview rows waiting on DuckDB say so after a second; Cancel stops their read and leaves a console query running', async ({ app, page }) => {
  test.setTimeout(4 * 60_000);
  const csv = ['id,label', ...Array.from({ length: 2_000 }, (_, i) => `${i},row-${i}`)].join('\n');
  await app.fileInput.setInputFiles({ name: 'waiting.csv', mimeType: 'text/csv', buffer: Buffer.from(`${csv}\n`) });
  await app.expectDataset('waiting');
  // Shown now instead, so that waiting's preview grid is drawn anew (with no rows yet) below.
  await app.fileInput.setInputFiles({ name: 'shown.csv', mimeType: 'text/csv', buffer: Buffer.from('id\n1\n') });
  await app.expectDataset('shown');
  await app.selectDataset('shown');
  // DuckDB busy for minutes (as a far window of a 1 GB view keeps it): the preview's rows queue behind.
  await app.submitSql(ENDLESS);
  await expect(page.getByRole('status').filter({ hasText: 'Running…' })).toBeVisible();
  await app.selectDataset('waiting');
  const panel = await app.openTab('Preview');
  const loading = panel.getByRole('status').filter({ hasText: /^\s*Loading rows 1–\d+ of waiting…/ });
  await expect(loading).toBeVisible({ timeout: 30_000 });
  await loading.getByRole('button', { name: 'Cancel loading rows', exact: true }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'Loading rows cancelled: scroll to read them again.' })).toBeVisible({ timeout: 15_000 });
  await expect(loading).toHaveCount(0);
  await expect(app.alerts).toHaveCount(0);
  // The console's query was not the one stopped: it still runs until its own Cancel.
  await app.openView('SQL');
  await expect(page.getByRole('status').filter({ hasText: 'Running…' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Query cancelled.' })).toBeVisible({ timeout: 30_000 });
  // Scrolled, the grid reads its rows again.
  const grid = (await app.openTab('Preview')).getByRole('grid', { name: 'Preview of waiting', exact: true });
  await expect
    .poll(
      async () => {
        await grid.evaluate((el) => {
          const scroller = [el, ...Array.from(el.querySelectorAll('*'))].find((c) => c.scrollHeight > c.clientHeight + 4 && /auto|scroll/.test(getComputedStyle(c).overflowY));
          if (scroller) scroller.scrollTop += 40;
          scroller?.dispatchEvent(new Event('scroll'));
        });
        return grid.getByRole('gridcell', { name: /^row-\d+$/ }).count();
      },
      { timeout: 30_000, intervals: [500] },
    )
    .toBeGreaterThan(0);
  expect(app.pageErrors).toEqual([]);
});

test('after a reload, Cancel on one saved dataset leaves it out with its copy kept; the others come back, and it does on the next reload', async ({ app, page }, testInfo) => {
  test.setTimeout(5 * 60_000);
  const path = testInfo.outputPath('restored_big.csv');
  // ~35 MB: its restore takes seconds, so its Cancel (clicked as the page comes back) lands before it ends.
  writeLongCsv(path, 900_000);
  await app.addFiles(path);
  await app.expectDataset('restored_big', 120_000);
  await app.fileInput.setInputFiles({ name: 'kept.csv', mimeType: 'text/csv', buffer: Buffer.from('id,v\n1,10\n2,20\n') });
  await app.expectDataset('kept');
  await expect(page.getByText('Saving for your next visit…')).toHaveCount(0, { timeout: 120_000 });

  await page.reload();
  const restoring = page.getByRole('progressbar', { name: 'Restoring restored_big.csv', exact: true });
  await expect(restoring).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Cancel restoring restored_big.csv', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Not restored: restored_big. Its saved copy is kept and comes back after the next reload.' })).toBeVisible({ timeout: 60_000 });
  await expect(restoring).toHaveCount(0);
  await app.expectDataset('kept');
  expect(await app.datasetNames()).not.toContain('restored_big');
  expect(parseDisplayedNumber(await app.scalar("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'restored_big'"))).toBe(0);
  expect(await app.scalar('SELECT sum(v) FROM kept')).toBe('30');
  await expect(app.alerts).toHaveCount(0);

  await app.reload();
  await app.expectDataset('restored_big', 120_000);
  expect(parseDisplayedNumber(await app.scalar('SELECT count(*) FROM restored_big'))).toBe(900_000);
  await app.expectDataset('kept');
  expect(app.pageErrors).toEqual([]);
});
