/** Datasets survive a reload; removed ones stay removed; renames stick. */
import { expect, test } from './support/fixtures';
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

/** The key of a dataset's saved snapshot, read from the app's manifest in IndexedDB. */
function snapshotKey(page: import('@playwright/test').Page, name: string): Promise<string | null> {
  return page.evaluate(
    (table) =>
      new Promise<string | null>((resolve) => {
        const open = indexedDB.open('dataseer-workspace');
        open.onerror = () => resolve(null);
        open.onsuccess = () => {
          const db = open.result;
          try {
            const get = db.transaction('manifest').objectStore('manifest').get(table);
            get.onsuccess = () => {
              resolve((get.result as { snapshotKey?: string } | undefined)?.snapshotKey ?? null);
              db.close();
            };
            get.onerror = () => resolve(null);
          } catch {
            resolve(null);
          }
        };
      }),
    name,
  );
}

test('an SQL edit to a dataset survives a reload (its snapshot is what comes back)', async ({ app }) => {
  const page = app.page;
  await app.loadSample('penguins');
  await expect.poll(() => snapshotKey(page, 'penguins'), { timeout: 30_000 }).not.toBeNull();
  const first = await snapshotKey(page, 'penguins');
  const confirm = page.getByRole('dialog', { name: 'Confirm destructive query' }).or(page.getByRole('alertdialog', { name: 'Confirm destructive query' }));
  await app.submitSql('DELETE FROM penguins WHERE "Species" = \'Adelie\'');
  await confirm.getByRole('button', { name: 'Run anyway', exact: true }).click();
  await expect(app.datasetItem('penguins')).toContainText(rowsText(192), { timeout: 30_000 });
  // The edited table is saved as a new snapshot.
  await expect.poll(() => snapshotKey(page, 'penguins'), { timeout: 30_000 }).not.toBe(first);

  await app.reload();
  await app.expectDataset('penguins');
  await expect(app.datasetItem('penguins')).toContainText(rowsText(192));
  expect(parseDisplayedNumber(await app.scalar('SELECT count(*) FROM penguins WHERE "Species" = \'Adelie\''))).toBe(0);
});
