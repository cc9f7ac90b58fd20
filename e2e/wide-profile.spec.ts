/**
 * Issue 37, the page side of a 2,000-column table: the rail's column list draws only what is in
 * view yet Tab and a screen reader reach every column (aria-posinset/setsize), and the Profile
 * covers every column a page of 300 at a time — the next page on demand, and a column picked in
 * the rail opens the page that holds it with its card focused.
 */
import { expect, test } from './support/fixtures';
import { wideCsv } from './support/wideCsv';

const COLUMNS = 2000;


test('a 2,000-column table: the rail draws a window of its columns, Tab reaches the last, and every page of columns can be profiled', async ({ app, page }) => {
  test.setTimeout(600_000);
  await app.fileInput.setInputFiles({ name: 'wide2k.csv', mimeType: 'text/csv', buffer: Buffer.from(wideCsv(COLUMNS, 30)) });
  await app.expectDataset('wide2k', 300_000);

  // The rail: a window of rows, each saying its place among all 2,000.
  const item = app.datasetItem('wide2k');
  await item.getByRole('button', { name: 'Columns of wide2k', exact: true }).click();
  const list = item.getByRole('list', { name: 'Columns of wide2k', exact: true });
  const rows = list.getByRole('listitem');
  await expect(rows.first()).toHaveAttribute('aria-setsize', String(COLUMNS));
  expect(await rows.count()).toBeLessThan(60);

  // Tab from the first column walks every one of them to the last.
  await rows.first().getByRole('button').focus();
  const focusedPlace = () => page.evaluate(() => document.activeElement?.closest('li')?.getAttribute('aria-posinset') ?? null);
  for (let i = 1; i < COLUMNS; i++) {
    await page.keyboard.press('Tab');
    // Now and then (each check is a round trip): focus is still in the list, on the next column.
    if (i % 200 === 0) expect(await focusedPlace()).toBe(String(i + 1));
  }
  expect(await focusedPlace()).toBe(String(COLUMNS));
  await expect(page.locator(':focus')).toHaveAccessibleName(/^item_2000/);
  expect(await rows.count()).toBeLessThan(60);
  // Home goes back to the first.
  await page.keyboard.press('Home');
  await expect.poll(focusedPlace).toBe('1');

  // The Profile: the first page, then the next one on demand.
  const panel = await app.openTab('Profile');
  await expect(panel.getByText(/300 columns profiled over 30 rows in [\d,]+ ms: columns 1–300 of 2,000\./)).toBeVisible({ timeout: 300_000 });
  const pages = panel.getByRole('navigation', { name: 'Profile pages', exact: true });
  await expect(pages.getByRole('combobox', { name: /Columns/ }).locator('option')).toHaveCount(7);
  await pages.getByRole('button', { name: 'Profile columns 301–600', exact: true }).click();
  await expect(panel.getByText(/300 columns profiled over 30 rows in [\d,]+ ms: columns 301–600 of 2,000\./)).toBeVisible({ timeout: 300_000 });
  await expect(panel.getByRole('article', { name: 'Profile of item_301', exact: true })).toBeVisible();
  await expect(pages.getByRole('button', { name: 'Profile columns 1–300', exact: true })).toBeVisible();

  // Column 1,500 picked in the rail: its page is profiled and its card focused.
  await list.evaluate((el) => {
    const row = el.querySelector('li[data-index]')?.getBoundingClientRect().height ?? 40;
    el.scrollTop = 1499 * row;
  });
  await list.getByRole('button', { name: /^item_1500\b/ }).click();
  await expect(panel.getByText(/300 columns profiled over 30 rows in [\d,]+ ms: columns 1,201–1,500 of 2,000\./)).toBeVisible({ timeout: 300_000 });
  const card = panel.getByRole('article', { name: 'Profile of item_1500', exact: true });
  await expect(card).toBeFocused({ timeout: 120_000 });
  await expect(card).toBeInViewport();
  await expect(page.getByRole('alert').filter({ hasText: /Out of Memory|Could not profile/i })).toHaveCount(0);
  expect(app.pageErrors).toEqual([]);
});
