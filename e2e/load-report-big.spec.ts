/**
 * A big CSV's load report: from 8 MiB the load answers with its table first and the report's
 * checks run after it (workers/data/host/laterChecks.ts); the Data view then shows the findings and
 * the fix works as for a small file, and the copy for the next visit keeps them.
 */
import { writeFileSync } from 'node:fs';
import { parseDisplayedNumber } from './support/compare';
import { expect, test } from './support/fixtures';

/** ~9.5 MB: past the 8 MiB from which a load answers before its checks. "N/A" makes price text. */
function bigPlaceholderCsv(path: string): void {
  const lines = ['id,price,city'];
  for (let i = 0; i < 480_000; i++) lines.push(`${i},${i % 100 === 7 ? 'N/A' : ((i % 1000) / 4).toFixed(2)},city${i % 50}`);
  writeFileSync(path, `${lines.join('\n')}\n`);
}

test('a big CSV: the report follows the table, names the placeholders, and its fix makes the column numeric', async ({ app }, testInfo) => {
  test.setTimeout(5 * 60_000);
  const path = testInfo.outputPath('big-placeholders.csv');
  bigPlaceholderCsv(path);
  await app.addFiles(path);
  expect(await app.waitForLoad('big-placeholders.csv', 'big_placeholders', 180_000)).toEqual({ kind: 'loaded', name: 'big_placeholders' });
  expect(await app.scalar('SELECT typeof(price) FROM big_placeholders LIMIT 1')).toBe('VARCHAR');
  await app.openView('Data');
  await app.selectDataset('big_placeholders');
  const report = app.page.getByRole('region', { name: 'Load report' });
  await expect(report).toContainText('"price" is numeric but for placeholder text ("N/A" ×', { timeout: 60_000 });
  await expect(report).not.toContainText('Checking what auto-detection');
  // The copy for the next visit is written after the checks, with their findings.
  await expect(app.datasetItem('big_placeholders')).not.toContainText('Saving for your next visit', { timeout: 120_000 });
  await app.reload();
  await app.openView('Data');
  await app.selectDataset('big_placeholders');
  await expect(report).toContainText('"price" is numeric but for placeholder text ("N/A" ×', { timeout: 60_000 });
  await report.getByRole('button', { name: 'Read "N/A" as missing' }).click();
  await expect(report.getByRole('status')).toContainText('Done', { timeout: 120_000 });
  expect(await app.scalar('SELECT typeof(price) FROM big_placeholders LIMIT 1')).toBe('DOUBLE');
  expect(parseDisplayedNumber(await app.scalar('SELECT count(*) FILTER (WHERE price IS NULL) FROM big_placeholders'))).toBe(4_800);
});
