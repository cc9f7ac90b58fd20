/**
 * Real-size data (issue 37): a 600-column × 5,000-row CSV added as a user adds it is profiled and
 * gets its dictionary drafted with no "Out of Memory" (150 columns used to fail), the draft's
 * request to the model stays bounded and names the columns it left out; and many files added at
 * once wait for one confirmation before any draft is sent.
 */
import type { ScriptedReply } from '../testing/mock-llm/server.mjs';
import { expect, test } from './support/fixtures';
import { wideCsv } from './support/wideCsv';
import { configureEndpoint, useMockLlm } from './support/mockLlm';

const mock = useMockLlm();

const emptyDraft: ScriptedReply = { type: 'structured', when: 'data_dictionary', value: { row_meaning: 'one respondent', grain: '', caveats: [], columns: [], joins: [] } };


test('a 600-column × 5,000-row table is profiled and drafted, with a bounded draft request', async ({ app, page }) => {
  test.setTimeout(300_000);
  await configureEndpoint(page, mock, { key: 'sk-e2e-real-size-1' });
  await mock.script([emptyDraft]);
  await app.fileInput.setInputFiles({ name: 'wide.csv', mimeType: 'text/csv', buffer: Buffer.from(wideCsv(600, 5000)) });
  await app.expectDataset('wide', 180_000);

  const dictionary = page.getByRole('region', { name: 'Data dictionary' });
  await expect(dictionary.getByText('Draft written by the model — review it and accept')).toBeVisible({ timeout: 180_000 });
  const requests = await mock.chatRequests();
  expect(requests).toHaveLength(1);
  const body = requests[0]?.raw_body ?? '';
  expect(body).toContain('data_dictionary');
  expect(body).toMatch(/and \d+ more columns not shown here/);
  expect(body.length).toBeLessThan(40_000);

  const panel = await app.openTab('Profile');
  await expect(panel.getByText(/300 columns profiled over 5,000 rows/)).toBeVisible({ timeout: 180_000 });
  await expect(panel.getByText(/: columns 1–300 of 600\. The other columns are profiled a page at a time/)).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: /Out of Memory/i })).toHaveCount(0);

  // The SQL editor offers the wide table's columns after `table.` (its completion is built from
  // the catalog in a task of its own; the wide bench once saw no popup and blamed the app).
  await app.openView('SQL');
  const editor = page.getByRole('textbox', { name: 'SQL query', exact: true });
  await editor.click();
  await page.keyboard.type('SELECT wide.item_59');
  await expect(page.getByRole('listbox').getByRole('option', { name: /^item_599\b/ })).toBeVisible();
});

test('many files added at once wait for one confirmation before any draft is sent', async ({ app, page }) => {
  test.setTimeout(180_000);
  await configureEndpoint(page, mock, { key: 'sk-e2e-real-size-2' });
  const files = Array.from({ length: 6 }, (_, i) => ({ name: `region_${i}.csv`, mimeType: 'text/csv', buffer: Buffer.from(`code,value_${i}\n1,2\n3,4\n`) }));
  await app.fileInput.setInputFiles(files);
  for (let i = 0; i < 6; i++) await app.expectDataset(`region_${i}`);

  const ask = page.getByRole('region', { name: 'Draft 6 dictionaries?' });
  await expect(ask).toBeVisible({ timeout: 30_000 });
  await expect(ask).toContainText(/6 model calls, about\s+[\d,]+ tokens/);
  expect(await mock.chatRequests()).toHaveLength(0);

  await mock.script(Array.from({ length: 6 }, () => emptyDraft));
  await ask.getByRole('button', { name: 'Draft 6 dictionaries' }).click();
  await expect(ask).toBeHidden();
  await expect.poll(async () => (await mock.chatRequests()).length, { timeout: 120_000 }).toBe(6);
});
