/** Markup in column names, cell values and file names is shown as text, never run. */
import { expect, sharedApp, test } from './support/fixtures';
import { collectDialogs } from './support/dialogs';
import { bad } from './support/paths';
import { XSS_FILE_NAME } from '../scripts/make-bad-fixtures.mjs';

const IMG_COLUMN = '<img src=x onerror=alert(1)>';

test.describe('markup is text', () => {
  const shared = sharedApp();

  test('HTML in column names and cells renders as text', async () => {
    const app = shared();
    const page = app.page;
    const dialogs = collectDialogs(page);

    await app.addFiles(bad('odd-names.csv'));
    await app.expectDataset('odd_names');
    await app.selectDataset('odd_names');

    const schema = await app.openTab('Schema');
    await expect(schema.getByText(IMG_COLUMN, { exact: true })).toBeVisible();
    await expect(schema.getByText('say "hi"', { exact: true })).toBeVisible();
    await expect(schema.getByText('naïve 列 ü', { exact: true })).toBeVisible();

    const preview = await app.openTab('Preview');
    const grid = preview.getByRole('grid', { name: 'Preview of odd_names' });
    await expect(grid.getByRole('columnheader', { name: IMG_COLUMN })).toBeVisible();
    await expect(grid.getByRole('gridcell', { name: '<b>bold</b>', exact: true })).toBeVisible();
    await expect(grid.getByRole('gridcell', { name: '<script>window.__pwned=1</script>', exact: true })).toBeVisible();

    const result = await app.runSql(`SELECT "${IMG_COLUMN}", "say ""hi""" FROM odd_names ORDER BY 1`);
    expect(result.columns).toEqual([IMG_COLUMN, 'say "hi"']);
    expect(result.rows).toEqual([
      ['<b>bold</b>', 'hello'],
      ['x', '<script>window.__pwned=1</script>'],
    ]);

    await app.openTab('Profile');
    await expect(page.getByRole('article', { name: `Profile of ${IMG_COLUMN}` })).toBeVisible({ timeout: 60_000 });

    // Nothing was injected: no <img src=x>, no <b> from data, no script ran, no dialog fired.
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    await expect(page.locator('b', { hasText: 'bold' })).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(app.pageErrors).toEqual([]);
  });

  test('HTML in a file name renders as text in the load error', async () => {
    const app = shared();
    const page = app.page;
    const dialogs = collectDialogs(page);
    await app.addFiles(bad(XSS_FILE_NAME));
    const alert = app.loadError(XSS_FILE_NAME);
    await expect(alert).toHaveCount(1, { timeout: 60_000 });
    await expect(alert).toContainText(XSS_FILE_NAME);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    expect(dialogs).toEqual([]);
  });
});
