/**
 * UI behaviour the data workspace promises beyond loading data: progress and dismissible errors,
 * inline rename (Escape cancels), query history restore and persistence, window-wide file drop,
 * the 375 px layout, and the performance measures the benchmark reads.
 */
import { expect, test, type Page } from '@playwright/test';

const datasets = (page: Page) => page.getByRole('list', { name: 'Datasets', exact: true });
const removeButton = (page: Page, name: string) => datasets(page).getByRole('button', { name: `Remove ${name}`, exact: true });
const editor = (page: Page) => page.getByRole('textbox', { name: 'SQL query', exact: true });

/** A view by its tab, as a user reaches it. */
async function openView(page: Page, name: string): Promise<void> {
  const tab = page.getByRole('tablist', { name: 'Views', exact: true }).getByRole('tab', { name, exact: true });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}

/** A sample, from the Add data menu (in the rail, which a phone shows in the Data view). */
async function loadSample(page: Page, name: string): Promise<void> {
  const add = page.getByRole('button', { name: 'Add data', exact: true });
  if (!(await add.isVisible())) await openView(page, 'Data');
  await add.click();
  await page.getByRole('button', { name: `Load sample ${name}`, exact: true }).click();
  await expect(removeButton(page, name)).toBeVisible({ timeout: 60_000 });
}

async function runSql(page: Page, sql: string): Promise<void> {
  await openView(page, 'SQL');
  await editor(page).click();
  await editor(page).fill(sql);
  await page.getByRole('button', { name: 'Run SQL', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Run SQL', exact: true })).toBeEnabled({ timeout: 60_000 });
}

test.beforeEach(async ({ page }) => {
  await page.goto('./');
});

test('a load shows a named progress bar, and a failed load a dismissible alert', async ({ page }) => {
  // Loads of small files can finish between two polls, so record every progress bar that appears.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __progress: string[] }).__progress = seen;
    new MutationObserver(() => {
      for (const el of Array.from(document.querySelectorAll('[role="progressbar"]'))) {
        const label = el.getAttribute('aria-label') ?? '';
        if (!seen.includes(label)) seen.push(label);
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await loadSample(page, 'penguins');
  expect(await page.evaluate(() => (window as unknown as { __progress: string[] }).__progress)).toContain('Loading penguins.json');
  await expect(page.getByRole('progressbar')).toHaveCount(0);

  await page.getByLabel('Add data files').setInputFiles({ name: 'not-really.parquet', mimeType: 'application/octet-stream', buffer: Buffer.from('plain text, no parquet magic') });
  const alert = page.getByRole('alert').filter({ hasText: 'not-really.parquet' });
  await expect(alert).toHaveCount(1, { timeout: 60_000 });
  await alert.getByRole('button', { name: 'Dismiss', exact: true }).click();
  await expect(alert).toHaveCount(0);
  await expect(removeButton(page, 'penguins')).toBeVisible();
});

test('rename inline: Escape cancels, Enter renames, the view follows', async ({ page }) => {
  await loadSample(page, 'cars');
  await datasets(page).getByRole('button', { name: 'Rename cars', exact: true }).click();
  const box = page.getByRole('textbox', { name: 'New name for cars', exact: true });
  await expect(box).toBeFocused();
  await box.fill('autos');
  await box.press('Escape');
  await expect(box).toHaveCount(0);
  await expect(removeButton(page, 'cars')).toBeVisible();
  await expect(datasets(page).getByRole('button', { name: 'Rename cars', exact: true })).toBeFocused();

  await datasets(page).getByRole('button', { name: 'Rename cars', exact: true }).click();
  await box.fill('autos');
  await box.press('Enter');
  await expect(removeButton(page, 'autos')).toBeVisible();
  await expect(page.getByRole('grid', { name: 'Preview of autos', exact: true })).toBeVisible();
});

test('query history restores a query on click and survives a reload', async ({ page }) => {
  await runSql(page, 'SELECT 1 AS first_q');
  await runSql(page, 'SELECT 2 AS second_q');
  // The history is collapsed so results get the width; it opens from its button.
  await page.getByRole('button', { name: /^Query history/ }).click();
  const history = page.getByRole('list', { name: 'Query history', exact: true });
  await expect(history.getByRole('listitem').first()).toContainText('second_q');
  await history.getByRole('button', { name: /first_q/ }).click();
  await expect(editor(page)).toHaveText('SELECT 1 AS first_q');

  await page.reload();
  await expect(page.getByRole('list', { name: 'Query history', exact: true }).getByRole('listitem')).toHaveCount(2);
});

test('files dropped anywhere on the window load, with an overlay while dragging', async ({ page }) => {
  const dt = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['city,pop\nOslo,709000\nBergen,291000\n'], 'dropped-cities.csv', { type: 'text/csv' }));
    return transfer;
  });
  await page.dispatchEvent('body', 'dragenter', { dataTransfer: dt });
  await expect(page.getByText('Drop files to load them')).toBeVisible();
  await page.dispatchEvent('body', 'drop', { dataTransfer: dt });
  await expect(page.getByText('Drop files to load them')).toHaveCount(0);
  await expect(removeButton(page, 'dropped_cities')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('grid', { name: 'Preview of dropped_cities', exact: true }).getByRole('gridcell', { name: 'Bergen', exact: true })).toBeVisible();
});

test('at 375 px the page does not scroll sideways and every control is reachable', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await loadSample(page, 'seattle_weather');
  await runSql(page, 'SELECT * FROM seattle_weather');
  await expect(page.getByRole('grid', { name: 'Query results', exact: true })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: test.info().outputPath('layout-375.png'), fullPage: true });
});

test('performance measures for the benchmark are recorded', async ({ page }) => {
  await loadSample(page, 'penguins');
  await runSql(page, 'SELECT count(*) FROM penguins');
  const measures = await page.evaluate(() =>
    performance.getEntriesByType('measure').map((m) => ({ name: m.name, detail: (m as PerformanceMeasure).detail as unknown })),
  );
  expect(measures.filter((m) => m.name === 'dataseer:duckdb-ready')).toHaveLength(1);
  expect(measures).toContainEqual({ name: 'dataseer:load', detail: { fileName: 'penguins.json', ok: true } });
  const query = measures.find((m) => m.name === 'dataseer:query');
  expect(query?.detail).toMatchObject({ rowCount: 1 });
});
