/**
 * Grids a data person expects (issue 26, item 6): each column header summarises its column, every
 * grid has a `Filter rows` box (a dataset preview filters in DuckDB, a result its held rows), and a
 * console result capped at 10,000 rows sorts whole in DuckDB rather than sorting the rows it holds.
 */
import { expect, test } from './support/fixtures';

test('a preview summarises its columns in the headers and filters every row in DuckDB', async ({ app }) => {
  await app.loadSample('penguins');
  const gentoo = Number(await app.scalar(`SELECT count(*) FROM penguins WHERE "Species" = 'Gentoo'`));
  const total = Number(await app.scalar('SELECT count(*) FROM penguins'));
  await app.selectDataset('penguins');
  const panel = await app.openTab('Preview');
  const grid = panel.getByRole('grid', { name: 'Preview of penguins', exact: true });
  await expect(grid).toBeVisible();
  // From the dataset's profile: the text column's top value, a numeric column's range.
  await expect(grid.getByRole('columnheader', { name: /^Species\s*VARCHAR · .*top Adelie/ })).toBeVisible({ timeout: 60_000 });
  await expect(grid.getByRole('columnheader', { name: /^Body Mass \(g\)\s*\w+ · (none|\d+) missing · [\d,.]+ – [\d,.]+$/ })).toBeVisible();

  const filter = panel.getByRole('searchbox', { name: 'Filter rows', exact: true });
  await filter.fill('gENTOO');
  await expect(panel.getByRole('status').filter({ hasText: 'rows match' })).toHaveText(`${gentoo} of ${total} rows match.`, { timeout: 30_000 });
  await expect(grid).toHaveAttribute('aria-rowcount', String(gentoo + 1));
  await expect(grid.getByRole('gridcell', { name: 'Gentoo', exact: true }).first()).toBeVisible();
  await expect(grid.getByRole('gridcell', { name: 'Adelie', exact: true })).toHaveCount(0);

  // The text is a value, never SQL: a quote matches nothing and breaks nothing.
  await filter.fill("x' OR 1=1 --");
  await expect(panel.getByRole('status').filter({ hasText: 'rows match' })).toHaveText(`0 of ${total} rows match.`, { timeout: 30_000 });
  await expect(panel.getByRole('alert')).toHaveCount(0);
  await filter.press('Escape');
  await expect(grid).toHaveAttribute('aria-rowcount', String(total + 1), { timeout: 30_000 });
  expect(app.pageErrors).toEqual([]);
});

test('a capped console result sorts whole in DuckDB, and its filter searches the rows it holds', async ({ app }) => {
  const shown = await app.runSql('SELECT range AS v, range % 7 AS r FROM range(25000)');
  expect(shown.columns).toEqual(['v', 'r']);
  expect(shown.rows[0]?.[0]).toBe('0');
  const grid = app.results;
  const sortV = grid.getByRole('button', { name: 'v', exact: true });
  await expect(grid.getByRole('columnheader', { name: /^v\s*BIGINT · none missing · 0 – 9999$/ })).toBeVisible();
  await sortV.click(); // ascending
  await sortV.click(); // descending: the whole result's largest, not the held rows' 9,999
  const note = app.page.getByRole('status').filter({ hasText: 'Sorted the whole result in DuckDB' });
  await expect(note).toBeVisible({ timeout: 60_000 });
  await expect(grid.getByRole('row').nth(1).getByRole('gridcell').first()).toHaveText('24,999');
  await expect(grid.getByRole('columnheader', { name: /^v\s*BIGINT/ })).toHaveAttribute('aria-sort', 'descending');

  const filter = app.page.getByRole('searchbox', { name: 'Filter rows', exact: true });
  await filter.fill('2499');
  await expect(app.page.getByRole('status').filter({ hasText: 'rows match' })).toHaveText('11 of the first 10,000 rows match.');
  expect(app.pageErrors).toEqual([]);
});

test('on a phone, grid cells and Markdown table cells keep numbers whole: the tables scroll sideways', async ({ app, page }) => {
  await app.resize(375, 812);
  /** How many lines the element's text takes (one when nothing broke it). */
  const lines = (el: Element) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size;
  };
  await app.runSql(`SELECT '7/3' AS ratio, 12345678.5::DOUBLE AS big, 'a fairly long label that goes on' AS label, 9876543210 AS id_number`);
  const grid = app.results;
  for (const text of ['7/3', '12345678.5', '9876543210']) expect(await grid.getByRole('gridcell', { name: text, exact: true }).evaluate(lines)).toBe(1);
  expect(await grid.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);

  await app.openView('Notebook');
  await page.getByRole('button', { name: 'Add Markdown cell', exact: true }).click();
  await page.getByRole('textbox', { name: 'Markdown cell 1', exact: true }).fill(
    '| ratio | big | label | another |\n|---|---|---|---|\n| 7/3 | 12345678.5 | a fairly long label that goes on | 9876543210 |',
  );
  const table = page.getByRole('table').filter({ hasText: 'ratio' });
  await expect(table).toBeVisible();
  for (const text of ['7/3', '12345678.5', '9876543210']) expect(await table.getByRole('cell', { name: text, exact: true }).evaluate(lines)).toBe(1);
  expect(await table.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(app.pageErrors).toEqual([]);
});

test("a preview column's menu shows its distribution and filters by values, range and missing values in DuckDB (issue 34)", async ({ app }) => {
  await app.loadSample('penguins');
  const total = Number(await app.scalar('SELECT count(*) FROM penguins'));
  const gentoo = Number(await app.scalar(`SELECT count(*) FROM penguins WHERE "Species" = 'Gentoo'`));
  const heavyGentoo = Number(await app.scalar(`SELECT count(*) FROM penguins WHERE "Species" = 'Gentoo' AND "Body Mass (g)" >= 5000`));
  const noMass = Number(await app.scalar('SELECT count(*) FROM penguins WHERE "Body Mass (g)" IS NULL'));
  await app.selectDataset('penguins');
  const panel = await app.openTab('Preview');
  const grid = panel.getByRole('grid', { name: 'Preview of penguins', exact: true });
  const status = panel.getByRole('status').filter({ hasText: 'rows match' });
  // The header's stats are whole: two lines, not cut at the type.
  const species = grid.getByRole('columnheader', { name: /^Species\s*VARCHAR · .*top Adelie/ });
  await expect(species).toBeVisible({ timeout: 60_000 });
  const stats = species.getByRole('button', { name: /VARCHAR/ });
  expect(await stats.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);

  await stats.click();
  const menu = app.page.getByRole('dialog', { name: 'Column Species', exact: true });
  await expect(menu.getByRole('checkbox', { name: /^Gentoo/ })).toBeVisible();
  await menu.getByRole('checkbox', { name: /^Gentoo/ }).check();
  await menu.getByRole('button', { name: 'Apply filter', exact: true }).click();
  await expect(status).toHaveText(`${gentoo} of ${total} rows match. Column filters: Species.`, { timeout: 30_000 });
  await expect(grid.getByRole('gridcell', { name: 'Adelie', exact: true })).toHaveCount(0);

  // A range on a number column holds together with the values filter.
  await grid.getByRole('columnheader', { name: /^Body Mass \(g\)/ }).getByRole('button', { name: /missing/ }).click();
  const mass = app.page.getByRole('dialog', { name: 'Column Body Mass (g)', exact: true });
  await expect(mass.getByRole('img', { name: /^Histogram of Body Mass/ })).toBeVisible();
  await mass.getByRole('textbox', { name: 'From' }).fill('5000');
  await mass.getByRole('button', { name: 'Apply filter', exact: true }).click();
  await expect(status).toHaveText(`${heavyGentoo} of ${total} rows match. Column filters: Species, Body Mass (g).`, { timeout: 30_000 });

  // Only missing values, once the other filters are cleared.
  await species.getByRole('button', { name: /VARCHAR/ }).click();
  await menu.getByRole('button', { name: 'Clear filter', exact: true }).click();
  await grid.getByRole('columnheader', { name: /^Body Mass \(g\)/ }).getByRole('button', { name: /missing/ }).click();
  await mass.getByRole('textbox', { name: 'From' }).fill('');
  await mass.getByRole('combobox', { name: 'Missing values' }).selectOption('only');
  await mass.getByRole('button', { name: 'Apply filter', exact: true }).click();
  await expect(status).toHaveText(`${noMass} of ${total} rows match. Column filters: Body Mass (g).`, { timeout: 30_000 });
  expect(app.pageErrors).toEqual([]);
});

test('a 2,000-column result draws only the columns in view; its last column is reachable, its header readable, Tab walks the headers (issue 37)', async ({ app, page }) => {
  test.setTimeout(180_000);
  const select = Array.from({ length: 2000 }, (_, c) => `(i * ${c + 7}) % 97 AS item_${c + 1}`).join(', ');
  await app.runSql(`SELECT ${select} FROM range(60) t(i)`);
  const grid = app.results;
  await expect(grid).toHaveAttribute('aria-colcount', '2001');
  // A few dozen columns in the DOM, not 2,000 per row.
  const drawn = await grid.locator('[role="row"][aria-rowindex="1"] [role="columnheader"]').count();
  expect(drawn).toBeGreaterThan(3);
  expect(drawn).toBeLessThan(60);

  await grid.evaluate((el) => (el.scrollLeft = el.scrollWidth));
  const last = grid.locator('[role="columnheader"][aria-colindex="2001"]');
  await expect(last).toBeVisible();
  await expect(last).toContainText('item_2000');
  await expect(grid.locator('[role="row"][aria-rowindex="2"] [role="gridcell"][aria-colindex="2001"]')).toHaveText(String((0 * 2006) % 97));
  // The header's name and both lines of its stats are whole (not cut to "BIGIN…").
  await expect(last.locator('.summary')).toContainText(/BIGINT · none missing · \d+ – \d+/, { timeout: 30_000 });
  const cut = await last.evaluate((h) =>
    Array.from(h.querySelectorAll<HTMLElement>('[data-column-name], .summary')).some((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1),
  );
  expect(cut).toBe(false);
  await expect(grid.locator('[role="columnheader"][aria-colindex="2"]')).toHaveCount(0);

  // Back to the start, then Tab from the first header: focus walks on past the columns first drawn.
  await grid.evaluate((el) => (el.scrollLeft = 0));
  await grid.getByRole('button', { name: 'item_1', exact: true }).focus();
  for (let k = 0; k < drawn + 5; k++) await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => document.activeElement?.closest('[role="columnheader"]')?.getAttribute('aria-colindex') ?? null);
  expect(Number(focused)).toBe(drawn + 5 + 2);
  expect(await grid.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  expect(app.pageErrors).toEqual([]);
});
