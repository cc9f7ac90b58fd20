/**
 * Two tabs of the app (issue 15, item 1): the first tab writes the saved datasets; a second one
 * restores them and says it saves nothing, so neither can delete or overwrite the other's files.
 */
import { DataApp, expect, test } from './support/fixtures';

test('a second tab uses the saved datasets read-only and says so; the first keeps saving', async ({ app, context }) => {
  await app.loadSample('penguins');
  await expect(app.datasetItem('penguins')).not.toContainText('Not saved');

  const second = new DataApp(await context.newPage());
  await second.open();
  await second.expectDataset('penguins');
  await expect(second.page.getByRole('status').filter({ hasText: 'Dataseer is open in another tab' })).toBeVisible({ timeout: 30_000 });
  await second.loadSample('cars');
  await expect(second.datasetItem('cars')).toContainText('Not saved');
  // Removing it here removes it from this tab only.
  await second.datasetItem('penguins').getByRole('button', { name: 'Remove penguins', exact: true }).click();
  await second.page.getByRole('dialog').getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(second.datasetItem('penguins')).toHaveCount(0);
  await second.page.close();

  // The first tab's saved dataset is still there after a reload, and it still saves.
  await app.reload();
  await app.expectDataset('penguins');
  await expect(app.page.getByRole('status').filter({ hasText: 'Dataseer is open in another tab' })).toHaveCount(0);
  await app.loadSample('seattle_weather');
  await expect(app.datasetItem('seattle_weather')).not.toContainText('Not saved');
  expect(app.pageErrors).toEqual([]);
  expect(second.pageErrors).toEqual([]);
});

test('when the tab that saves closes, the other says so and saves after a reload', async ({ app, context }) => {
  await app.loadSample('penguins');
  const second = new DataApp(await context.newPage());
  await second.open();
  await expect(second.page.getByRole('status').filter({ hasText: 'Dataseer is open in another tab' })).toBeVisible({ timeout: 30_000 });

  await app.page.close();
  const freed = second.page.getByRole('status').filter({ hasText: 'The other Dataseer tab has closed' });
  await expect(freed).toBeVisible({ timeout: 30_000 });
  await freed.getByRole('button', { name: 'Reload to save here' }).click();
  await second.waitReady();
  await second.expectDataset('penguins');
  await expect(second.page.getByRole('status').filter({ hasText: /open in another tab|other Dataseer tab/ })).toHaveCount(0);
  await second.loadSample('cars');
  await expect(second.datasetItem('cars')).not.toContainText('Not saved');
  expect(second.pageErrors).toEqual([]);
});
