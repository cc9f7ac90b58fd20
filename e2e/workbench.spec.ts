/**
 * The workbench layout and the place in the URL (issue 14, items 1 and 2; issue 26): at 1280 px
 * the rail, the conversation and the work pane sit side by side with the question box in reach;
 * at 375 px one column with a bottom tab bar whose tabs never land under a header; a reload,
 * back/forward and a copied link return to the conversation and view the user was in.
 * Issue 34: an ended run's answer starts at the top of the log with nothing over it, a chart
 * answer gets the room (≥ 640×440 at 1280×800), Settings keeps Save in view, a load's findings
 * are what the Data view shows first, and a reload shows one state.
 */
import type { Locator, Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { expect, test } from './support/fixtures';
import { ask, askAndWait, chat, configureEndpoint, expectIdle, useMockLlm } from './support/mockLlm';

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

const VALID = { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } } as const;
const SPECIES_SQL = 'SELECT "Species", count(*) AS n FROM penguins GROUP BY 1 ORDER BY 1';
/** An answer longer than the log, so where the log is left when the run ends shows. */
const LONG_ANSWER = [
  'ANSWER-FIRST-LINE: Adelie is the most common species, with 152 penguins.',
  ...Array.from({ length: 14 }, (_, i) => `Paragraph ${i + 2}: Gentoo has 124 penguins and Chinstrap 68, which the chart above shows per species.`),
].join('\n\n');

/** Where a locator's top lies relative to the log's visible top, in px. */
async function offsetInLog(page: Page, target: Locator): Promise<number> {
  const [t, l] = [await target.boundingBox(), await chat(page).log.boundingBox()];
  if (!t || !l) throw new Error('no box for the answer or the log');
  return t.y - l.y;
}

test('when a run with a chart ends, its answer starts at the top of the log, nothing covers it, and the chart is at least 640×440 at 1280×800', async ({ app, page }) => {
  test.setTimeout(180_000);
  await app.resize(1280, 800);
  await app.loadSample('penguins');
  await configureEndpoint(page, mock, { key: 'sk-e2e-answer-top' });
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 'c1', name: 'create_chart', arguments: { sql: SPECIES_SQL, chart: { type: 'bar', x: 'Species', y: 'n', title: 'Penguins per species' } } }] },
    { type: 'text', content: LONG_ANSWER },
    VALID,
  ]);
  await ask(page, 'Which species is most common?');
  await expectIdle(page);
  const answer = chat(page).answers.last();
  await expect(answer.getByText('Loading chart…')).toHaveCount(0, { timeout: 60_000 });
  // The answer's first line is at the top of the log's view (not left part-way down it).
  await expect.poll(() => offsetInLog(page, answer)).toBeGreaterThanOrEqual(0);
  expect(await offsetInLog(page, answer)).toBeLessThanOrEqual(12);
  await expect(answer.getByText('ANSWER-FIRST-LINE', { exact: false })).toBeInViewport();
  // Nothing lies over the answer: what is at its first line and at its chart is the answer's own.
  const first = await answer.getByText('ANSWER-FIRST-LINE', { exact: false }).boundingBox();
  const plot = answer.locator('figure .plot').first();
  const [chartBox, logBox] = [await plot.boundingBox(), await chat(page).log.boundingBox()];
  if (!first || !chartBox || !logBox) throw new Error('no first line, chart or log');
  // Points of the chart within the log's view (the chart may run below it).
  const chartY = Math.min(chartBox.y + 40, logBox.y + logBox.height - 4);
  for (const [x, y] of [
    [first.x + 10, first.y + first.height / 2],
    [chartBox.x + chartBox.width / 2, chartY],
    [chartBox.x + chartBox.width / 2, logBox.y + logBox.height - 4],
  ] as const) {
    const inside = await answer.evaluate((el, [px, py]) => el.contains(document.elementFromPoint(px, py)), [x, y] as const);
    expect(inside, `something covers the answer at ${Math.round(x)},${Math.round(y)}`).toBe(true);
  }
  await expect(page.getByRole('button', { name: 'Jump to latest ↓' })).toHaveCount(0);
  // The work pane stepped aside for the chart: drawn at least 640×440 without a click.
  expect(chartBox.width).toBeGreaterThanOrEqual(640);
  expect(chartBox.height).toBeGreaterThanOrEqual(440);
  // A work view brings the pane back.
  await app.openView('SQL');
  await expect(app.sqlEditor).toBeVisible();
  expect(app.pageErrors).toEqual([]);
});

test('the step count and the steps are the same after a reload, and no "Validating" line stays once the check has run', async ({ app, page }) => {
  test.setTimeout(180_000);
  await app.loadSample('penguins');
  await configureEndpoint(page, mock, { key: 'sk-e2e-steps' });
  // run_sql, then an answer without validating: the guard checks it itself (validate_results).
  await mock.script([{ type: 'tool_calls', calls: [{ id: 's1', name: 'run_sql', arguments: { sql: SPECIES_SQL } }] }, { type: 'text', content: 'STEPS-ANSWER: Adelie.' }, VALID]);
  await ask(page, 'Count the species.');
  await expectIdle(page);
  const summary = chat(page).log.locator('details.how > summary').last();
  await expect(summary).toContainText('1 step');
  await expect(chat(page).log).not.toContainText('Validating:');
  const live = (await summary.innerText()).trim();
  await app.reload();
  await expect(chat(page).log).toContainText('STEPS-ANSWER', { timeout: 60_000 });
  await expect(chat(page).log.locator('details.how > summary').last()).toHaveText(live);
});

test('Settings keeps Save and Cancel in view and jumps between its sections, at 1280×800 and on a phone', async ({ app, page }) => {
  for (const [w, h] of [
    [1280, 800],
    [375, 812],
  ] as const) {
    await app.resize(w, h);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = page.getByRole('dialog');
    const save = dialog.getByRole('button', { name: 'Save', exact: true });
    await expect(save).toBeInViewport({ ratio: 1 });
    await expect(dialog.getByRole('button', { name: 'Cancel', exact: true })).toBeInViewport({ ratio: 1 });
    const sections = dialog.getByRole('navigation', { name: 'Settings sections' });
    for (const name of ['Model', 'Privacy', 'Budget', 'Prices', 'Time zone']) await expect(sections.getByRole('button', { name, exact: true })).toBeVisible();
    const zone = dialog.getByRole('combobox', { name: 'Time zone' });
    await sections.getByRole('button', { name: 'Time zone', exact: true }).click();
    await expect(zone).toBeInViewport();
    await expect(save).toBeInViewport({ ratio: 1 });
    await sections.getByRole('button', { name: 'Model', exact: true }).click();
    await expect(dialog.getByRole('textbox', { name: 'Base URL' })).toBeInViewport();
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(dialog).toBeHidden();
  }
  expect(app.pageErrors).toEqual([]);
});

test("a messy CSV's load report is what the Data view shows first, even after another dataset was scrolled down", async ({ app, page }, testInfo) => {
  const path = testInfo.outputPath('sales_report.csv');
  const rows = Array.from({ length: 40 }, (_, i) => `${['North', 'South'][i % 2]},${i + 1},${(i * 37) % 500}`);
  writeFileSync(path, ['Sales report 2024 (source: finance)', 'Region,Month,Units', ...rows].join('\n') + '\n');
  for (const [w, h] of [
    [1280, 800],
    [375, 812],
  ] as const) {
    await app.resize(w, h);
    await app.loadSample('penguins');
    // The reader had scrolled the Data view to its end (the dictionary).
    await page.evaluate(() => {
      for (const el of [document.getElementById('bench'), document.querySelector('.shell')]) if (el) el.scrollTop = el.scrollHeight;
    });
    await app.addFiles(path);
    expect(await app.waitForLoad('sales_report.csv', 'sales_report')).toEqual({ kind: 'loaded', name: 'sales_report' });
    const findings = page.getByRole('region', { name: 'Load report' }).getByRole('list', { name: 'Findings' });
    await expect(findings).toContainText('title', { timeout: 60_000 });
    await expect(findings).toBeInViewport();
    await expect(findings.getByRole('button').first()).toBeInViewport();
    await app.remove('sales_report');
    await app.remove('penguins');
  }
  expect(app.pageErrors).toEqual([]);
});

test('a reload shows one state: saved datasets and conversations are never said to be missing while they come back, and a maximised pane leaves the question box in view', async ({ app, page }) => {
  test.setTimeout(180_000);
  await app.resize(1280, 800);
  await app.loadSample('penguins');
  await configureEndpoint(page, mock, { key: 'sk-e2e-restore' });
  await askAndWait(page, 'Kept question?', 'KEPT-ANSWER', mock);
  await page.getByRole('button', { name: 'Maximise work pane', exact: true }).click();
  await expect(chat(page).question).toBeHidden();
  // Watches every change of the page from its first paint: a contradicting line is recorded.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __contradictions: string[] }).__contradictions = seen;
    const check = () => {
      const text = document.body?.innerText ?? '';
      if (text.includes('No datasets yet.')) seen.push('No datasets yet.');
      if (text.includes('No conversations yet.')) seen.push('No conversations yet.');
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await app.reload();
  await app.expectDataset('penguins');
  await expect(chat(page).threads.getByRole('button', { name: 'Kept question?', exact: true })).toBeVisible({ timeout: 60_000 });
  expect(await page.evaluate(() => [...new Set((window as unknown as { __contradictions: string[] }).__contradictions)])).toEqual([]);
  await expect(chat(page).question).toBeInViewport();
  expect(app.pageErrors).toEqual([]);
});

test('on a phone, Ask reaches Add data and the conversations, every tab is whole, and the engine status shows', async ({ app, page }) => {
  await app.resize(375, 812);
  await app.openView('Ask');
  await expect(page.getByRole('button', { name: 'Add data', exact: true })).toBeInViewport();
  await expect(page.getByRole('status').filter({ hasText: /DuckDB|Starting/ }).first()).toBeVisible();
  const bar = views(page);
  for (const tab of await bar.getByRole('tab').all()) {
    const clipped = await tab.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > window.innerWidth);
    expect(clipped, `the ${await tab.innerText()} tab is clipped`).toBe(false);
  }
  await page.getByRole('button', { name: 'Conversations', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Conversations', exact: true })).toBeInViewport();
  await expect(chat(page).threads).toBeAttached();
  expect(app.pageErrors).toEqual([]);
});
