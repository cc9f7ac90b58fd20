/**
 * The workbench layout and the place in the URL (issue 14, items 1 and 2; issue 26): at 1280 px
 * the rail, the conversation and the work pane sit side by side with the question box in reach;
 * at 375 px one column with a bottom tab bar whose tabs never land under a header; a reload,
 * back/forward and a copied link return to the conversation and view the user was in.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { askAndWait, chat, configureEndpoint, useMockLlm } from './support/mockLlm';

const mock = useMockLlm();

const views = (page: Page) => page.getByRole('tablist', { name: 'Views', exact: true });

test('at 1280 px the conversation and the data views are side by side, and the split resizes', async ({ app, page }) => {
  await app.resize(1280, 800);
  await app.loadSample('penguins');
  const question = chat(page).question;
  const sql = app.sqlEditor;
  const [q, s] = [await question.boundingBox(), await page.locator('#data').boundingBox()];
  if (!q || !s) throw new Error('the question box or the data view has no box');
  // The question box is within the first screen, and the data view is to its right.
  expect(q.y + q.height).toBeLessThanOrEqual(800);
  expect(s.x).toBeGreaterThan(q.x + q.width);
  // One work view at a time: the SQL console waits behind its tab.
  await expect(sql).toBeHidden();

  const splitter = page.getByRole('separator', { name: 'Conversation width' });
  const before = Number(await splitter.getAttribute('aria-valuenow'));
  const wide = (await page.locator('#ask').boundingBox())?.width ?? 0;
  await splitter.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(splitter).toHaveAttribute('aria-valuenow', String(before + 10));
  expect((await page.locator('#ask').boundingBox())?.width ?? 0).toBeGreaterThan(wide);
  // The width is the user's: it survives a reload.
  await app.reload();
  await expect(page.getByRole('separator', { name: 'Conversation width' })).toHaveAttribute('aria-valuenow', String(before + 10));
  expect(app.pageErrors).toEqual([]);
});

test('reload, back/forward and a copied link return to the conversation, view and dataset', async ({ app, page, context }) => {
  // Two samples, two answered questions, a reload and a second tab: near the default budget even
  // on one worker, so it gets the 240 s of the suite's other long walks.
  test.setTimeout(240_000);
  await configureEndpoint(page, mock, { key: 'sk-e2e-workbench' });
  await app.loadSample('penguins');
  await app.loadSample('cars');
  await askAndWait(page, 'First conversation?', 'ANSWER-ONE', mock);
  await expect(page).toHaveURL(/#view=[a-z]+&c=[^&]+/);
  const first = new URL(page.url()).hash;

  await page.getByRole('button', { name: 'New conversation', exact: true }).click();
  await askAndWait(page, 'Second conversation?', 'ANSWER-TWO', mock);
  await app.datasets.getByRole('button', { name: /^penguins\b/ }).first().click();
  await views(page).getByRole('tab', { name: 'SQL', exact: true }).click();
  await expect(page).toHaveURL(/view=sql/);
  await expect(page).toHaveURL(/d=penguins/);
  const second = page.url();

  await app.reload();
  await expect(chat(page).log).toContainText('ANSWER-TWO');
  await expect(chat(page).log).not.toContainText('ANSWER-ONE');
  await expect(views(page).getByRole('tab', { name: 'SQL', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(app.sqlEditor).toBeVisible();

  // Back through the steps: the dataset, the view, then the first conversation (a new
  // conversation getting its id replaces its entry, it does not add one).
  await page.goBack();
  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`${first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  await expect(chat(page).log).toContainText('ANSWER-ONE');
  await expect(chat(page).log).not.toContainText('ANSWER-TWO');
  await page.goForward();
  await page.goForward();
  await page.goForward();
  await expect(chat(page).log).toContainText('ANSWER-TWO');

  // A copied link opens the same place in another tab.
  const other = await context.newPage();
  await other.goto(second);
  await expect(chat(other).log).toContainText('ANSWER-TWO', { timeout: 60_000 });
  await expect(views(other).getByRole('tab', { name: 'SQL', exact: true })).toHaveAttribute('aria-selected', 'true');
  // The dataset came along too: the Data tab shows it.
  await views(other).getByRole('tab', { name: 'Data', exact: true }).click();
  await expect(other.getByRole('heading', { name: 'penguins', exact: true })).toBeVisible();
  await other.close();
  expect(app.pageErrors).toEqual([]);
});

test('a link to a conversation this browser does not have says so and opens a new one', async ({ app, page }) => {
  await page.goto('./#view=ask&c=not-a-saved-conversation');
  await app.waitReady();
  await expect(page.getByRole('status').filter({ hasText: 'That conversation is not saved in this browser' })).toBeVisible({ timeout: 30_000 });
  await expect(page).not.toHaveURL(/c=not-a-saved-conversation/);
});

test('at 375 px: one column, a bottom tab bar, and a view a tab opens is not under a header', async ({ app, page }) => {
  await app.resize(375, 740);
  await app.loadSample('penguins');
  const bar = views(page);
  const box = await bar.boundingBox();
  if (!box) throw new Error('no tab bar');
  expect(box.y + box.height).toBeGreaterThanOrEqual(739);
  for (const [link, heading] of [['Python', 'Python'], ['SQL', 'SQL'], ['Evaluate', 'Evaluate'], ['Ask', 'Ask']] as const) {
    await bar.getByRole('tab', { name: link, exact: true }).click();
    const h = page.getByRole('heading', { name: heading, exact: true });
    await expect(h).toBeInViewport();
    const top = await h.boundingBox();
    if (!top) throw new Error(`no ${heading} heading`);
    // What is at the heading's spot is the heading itself: no header or bar over it.
    const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('h2')?.textContent ?? null, [top.x + 4, top.y + top.height / 2] as const);
    expect(hit).toBe(heading);
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(app.pageErrors).toEqual([]);
});

test("a dataset's columns open from the rail, and a column opens its profile", async ({ app, page }) => {
  await app.loadSample('penguins');
  const item = app.datasetItem('penguins');
  await item.getByRole('button', { name: 'Columns of penguins', exact: true }).click();
  const columns = item.getByRole('list', { name: 'Columns of penguins', exact: true });
  await expect(columns.getByRole('listitem')).toHaveCount(7);
  await columns.getByRole('button', { name: /^Flipper Length \(mm\)/ }).click();
  await expect(page.getByRole('tab', { name: 'Profile', exact: true })).toHaveAttribute('aria-selected', 'true');
  const card = page.getByRole('article', { name: 'Profile of Flipper Length (mm)', exact: true });
  await expect(card).toBeInViewport({ timeout: 60_000 });
  await expect(card).toBeFocused();
  expect(app.pageErrors).toEqual([]);
});

test('grids format numbers by type, show a full value on click, sort by a header and copy as TSV', async ({ app, page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const long = 'x'.repeat(280) + 'END';
  await app.runSql(`SELECT 1234567::BIGINT AS big, 2024 AS year, 0.1::FLOAT AS f, 12.5::DECIMAL(10,2) AS d, '${long}' AS long`);
  const grid = app.results;
  for (const text of ['1,234,567', '2024', '0.1', '12.50']) await expect(grid.getByRole('gridcell', { name: text, exact: true })).toBeVisible();
  await grid.getByRole('gridcell', { name: long, exact: true }).click();
  const detail = page.getByRole('group', { name: 'Cell detail', exact: true });
  await expect(detail).toContainText('long, row 1');
  await expect(detail.locator('output')).toHaveText(long);
  await detail.getByRole('button', { name: 'Copy value', exact: true }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(long);

  await app.runSql('SELECT * FROM (VALUES (3, NULL), (1, \'b\'), (2, \'a\')) t(n, s)');
  const cellsOf = () => grid.getByRole('row').evaluateAll((rows) => rows.slice(1).map((r) => r.querySelector('[aria-colindex="2"]')?.textContent?.trim()));
  expect(await cellsOf()).toEqual(['3', '1', '2']);
  // The header's name starts with the column's; its summary follows (type, missing, range).
  const header = grid.getByRole('columnheader', { name: /^n\s*INTEGER/ });
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(cellsOf).toEqual(['1', '2', '3']);
  await header.getByRole('button').click();
  await expect.poll(cellsOf).toEqual(['3', '2', '1']);
  await page.getByRole('button', { name: 'Copy as TSV', exact: true }).first().click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('n\ts\n3\t\n2\ta\n1\tb');
  expect(app.pageErrors).toEqual([]);
});
