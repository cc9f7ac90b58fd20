/** The dataset list: names follow the contract's rule, and datasets can be renamed and removed. */
import { expect, test } from './support/fixtures';
import { parseDisplayedNumber } from './support/compare';
import { rowsText, tableNameFor } from './support/names';
import { generated } from './support/paths';

test('table names follow the contract rule, with _2 for a clash', async ({ app }) => {
  const file = 'Seattle-Weather 2024.csv';
  expect(tableNameFor(file)).toBe('seattle_weather_2024');
  await app.addFiles(generated(file));
  await app.expectDataset('seattle_weather_2024');
  await expect(app.datasetItem('seattle_weather_2024')).toContainText(rowsText(1461));

  await app.addFiles(generated('keep-me.csv'));
  await app.expectDataset('keep_me');
  // A second load of the same file is never silent: it asks first.
  await app.addFiles(generated('keep-me.csv'));
  const ask = app.page.getByRole('alertdialog', { name: 'Already loaded' });
  await expect(ask).toContainText('keep-me.csv is already loaded as keep_me');
  await ask.getByRole('button', { name: 'Keep both' }).click();
  await app.expectDataset('keep_me_2');
  expect((await app.datasetNames()).sort()).toEqual(['keep_me', 'keep_me_2', 'seattle_weather_2024']);
  expect(parseDisplayedNumber(await app.scalar('SELECT sum(v) FROM keep_me_2'))).toBe(42);
});

test('loading a file again: Cancel loads nothing, Replace swaps the dataset in place', async ({ app }) => {
  await app.addFiles(generated('keep-me.csv'));
  await app.expectDataset('keep_me');
  const ask = app.page.getByRole('alertdialog', { name: 'Already loaded' });
  await app.addFiles(generated('keep-me.csv'));
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  expect(await app.datasetNames()).toEqual(['keep_me']);
  // Renamed, it is still the dataset that file made: Replace removes it and loads the file afresh.
  await app.rename('keep_me', 'renamed');
  await app.expectDataset('renamed');
  await app.addFiles(generated('keep-me.csv'));
  await expect(ask).toContainText('already loaded as renamed');
  await ask.getByRole('button', { name: 'Replace' }).click();
  await app.expectDataset('keep_me');
  expect(await app.datasetNames()).toEqual(['keep_me']);
  expect(parseDisplayedNumber(await app.scalar('SELECT sum(v) FROM keep_me'))).toBe(42);
});

test('rename a dataset: the new name is listed and queryable, the old one is gone', async ({ app }) => {
  await app.loadSample('penguins');
  await app.rename('penguins', 'birds');
  await app.expectDataset('birds');
  await expect(app.removeButton('penguins')).toHaveCount(0);
  await expect(app.datasetItem('birds')).toContainText(rowsText(344));
  expect(parseDisplayedNumber(await app.scalar('SELECT count(*) FROM birds'))).toBe(344);
  expect(await app.sqlError('SELECT count(*) AS old_name FROM penguins')).toContain('penguins');
});

test('rename to a name that is taken is refused', async ({ app, page }) => {
  await app.loadSample('penguins');
  await app.loadSample('cars');
  await app.rename('cars', 'penguins');
  // Either an inline error or the rename is simply not applied; both tables must survive intact.
  await expect(page.getByRole('alert').first()).toBeVisible();
  await page.keyboard.press('Escape');
  expect(parseDisplayedNumber(await app.scalar('SELECT count(*) FROM cars'))).toBe(406);
  expect(parseDisplayedNumber(await app.scalar('SELECT count(*) AS p FROM penguins'))).toBe(344);
});

test('remove a dataset after confirming', async ({ app }) => {
  await app.loadSample('penguins');
  await app.loadSample('cars');
  await app.remove('penguins');
  await expect(app.removeButton('penguins')).toHaveCount(0);
  expect(await app.datasetNames()).toEqual(['cars']);
  expect(await app.sqlError('SELECT count(*) AS removed FROM penguins')).toContain('penguins');
  expect(parseDisplayedNumber(await app.scalar('SELECT count(*) FROM cars'))).toBe(406);
});

test('cancelling a removal keeps the dataset', async ({ app, page }) => {
  await app.loadSample('cars');
  await app.removeButton('cars').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(app.removeButton('cars')).toBeVisible();
  expect(parseDisplayedNumber(await app.scalar('SELECT count(*) FROM cars'))).toBe(406);
});
