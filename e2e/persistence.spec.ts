/** Datasets survive a reload; removed ones stay removed; renames stick. */
import { expect, test } from './fixtures';
import { parseDisplayedNumber } from './support/compare';
import { rowsText } from './support/names';
import { generated } from './support/paths';

test('a loaded file and a sample are still listed and queryable after reload', async ({ app }) => {
  await app.addFiles(generated('keep-me.csv'));
  await app.expectDataset('keep_me');
  await app.loadSample('cars');
  await expect(app.datasetItem('keep_me')).not.toContainText('Not saved');

  await app.reload();
  await app.expectDataset('keep_me');
  await app.expectDataset('cars');
  await expect(app.datasetItem('cars')).toContainText(rowsText(406));
  expect(parseDisplayedNumber(await app.scalar('SELECT sum(v) FROM keep_me'))).toBe(42);
  expect(parseDisplayedNumber(await app.scalar('SELECT count(*) FROM cars'))).toBe(406);
});

test('removed stays removed and renamed stays renamed after reload', async ({ app }) => {
  await app.addFiles(generated('keep-me.csv'));
  await app.expectDataset('keep_me');
  await app.loadSample('penguins');
  await app.remove('keep_me');
  await app.rename('penguins', 'birds');
  await app.expectDataset('birds');

  await app.reload();
  await app.expectDataset('birds');
  expect(await app.datasetNames()).toEqual(['birds']);
  expect(parseDisplayedNumber(await app.scalar('SELECT count(*) FROM birds'))).toBe(344);
  expect(await app.sqlError('SELECT * FROM keep_me')).toContain('keep_me');
});
