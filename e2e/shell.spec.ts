/**
 * The app shell (issue 26, items 1, 2, 4 and 8): a window that stays put at 1280, 1440 and 375 px
 * while its panes scroll; one work view at a time, reached by its tab; the answer above "How I
 * got this"; follow-up buttons that ask; the setup card before a model is set; starter questions
 * for a sample. SCREENSHOTS_DIR=… saves a picture of each view.
 */
import type { Page } from '@playwright/test';
import { expect, test, type DataApp, type ViewName } from './support/fixtures';
import { exportAs } from './support/downloads';
import { expectWindowStill, snap } from './support/frame';
import { ask, chat, configureEndpoint, useMockLlm } from './support/mockLlm';

const mock = useMockLlm();
const VALID = { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } } as const;
const SQL = 'SELECT "Species", count(*) AS n FROM penguins GROUP BY 1 ORDER BY 1';
const ANSWER = 'Adelie is the most common species, with 152 penguins.\n\nNext you could ask:\n- Which island has the most penguins?\n- How heavy is each species?';
const WORK: ViewName[] = ['Data', 'Notebook', 'SQL', 'Python', 'Evaluate'];

/** One question answered through a query and a chart, with follow-ups at the end. */
async function askWithChart(page: Page): Promise<void> {
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 's1', name: 'run_sql', arguments: { sql: SQL } }] },
    { type: 'tool_calls', calls: [{ id: 'c1', name: 'create_chart', arguments: { sql: SQL, chart: { type: 'bar', x: 'Species', y: 'n', title: 'Penguins per species' } } }] },
    { type: 'text', content: ANSWER },
    VALID,
  ]);
  await ask(page, 'Which species is most common?');
  await expect(chat(page).answers.first()).toContainText('Adelie is the most common', { timeout: 90_000 });
  await expect(chat(page).stop).toBeHidden({ timeout: 60_000 });
}

/** Exactly one work view is on screen, the one whose tab is selected. */
async function expectOneView(page: Page, name: ViewName): Promise<void> {
  // Visible work views only (a dataset's Schema / Preview / Profile are tab panels of their own).
  const panels = page.locator('[role="tabpanel"][id^="view-panel-"]').filter({ visible: true });
  await expect(panels).toHaveCount(1);
  await expect(panels).toHaveAttribute('aria-labelledby', `view-tab-${name.toLowerCase()}`);
}

async function walkViews(app: DataApp, page: Page, size: string): Promise<void> {
  for (const view of WORK) {
    await app.openView(view);
    await expectOneView(page, view);
    await expectWindowStill(page, `on ${view} at ${size}`);
    await snap(page, `${size}-${view.toLowerCase()}`);
  }
}

for (const [width, height] of [
  [1280, 800],
  [1440, 900],
] as const) {
  test(`at ${width}×${height} the window never scrolls, one work view shows at a time, and the answer comes first`, async ({ app, page }) => {
    test.setTimeout(240_000);
    await app.resize(width, height);
    const size = `${width}`;
    await snap(page, `${size}-setup`);
    await app.loadSample('penguins');
    await expectWindowStill(page, 'after loading a sample');
    await configureEndpoint(page, mock, { key: 'sk-e2e-shell' });
    await askWithChart(page);
    await expectWindowStill(page, 'after an answer');

    // The answer is above "How I got this", which is collapsed and tells the steps in words.
    const log = chat(page).log;
    const answer = chat(page).answers.first();
    const how = log.locator('details.how').first();
    const [a, h] = [await answer.boundingBox(), await how.boundingBox()];
    expect(a && h && a.y < h.y, 'the answer is above its steps').toBe(true);
    await expect(log.getByRole('list', { name: 'Steps' })).toBeHidden();
    await expect(answer.getByText(/Confidence \d+%/)).toHaveCount(1);
    await snap(page, `${size}-answer`);
    await log.getByText('How I got this').click();
    const steps = log.getByRole('list', { name: 'Steps' });
    await expect(steps).toContainText('Ran a query on penguins');
    await expect(steps).toContainText('Drew a bar chart');
    await snap(page, `${size}-steps`);

    // Open in notebook switches to the Notebook tab; the window stays put.
    await steps.getByRole('listitem').filter({ hasText: 'Ran a query on penguins' }).locator('summary').click();
    await steps.getByRole('button', { name: 'Open in notebook' }).first().click();
    await expect(app.viewTab('Notebook')).toHaveAttribute('aria-selected', 'true');
    await expectOneView(page, 'Notebook');
    await expectWindowStill(page, 'after Open in notebook');

    await walkViews(app, page, size);

    // The follow-ups are buttons that ask.
    await mock.script([{ type: 'text', content: 'Biscoe has the most.' }]);
    await answer.getByRole('group', { name: 'Follow-up questions' }).getByRole('button', { name: 'Which island has the most penguins?' }).click();
    await expect(chat(page).answers.filter({ hasText: 'Biscoe has the most.' })).toBeVisible({ timeout: 60_000 });
    // Asked as the next question (the buttons of the older answer are gone: nothing to ask there now).
    await expect(log.getByText('Which island has the most penguins?', { exact: true })).toHaveCount(1);
    await expect(log.getByRole('listitem').filter({ hasText: 'Which island has the most penguins?' })).toContainText('Biscoe has the most.');
    await expectWindowStill(page, 'after a follow-up');
    expect(app.pageErrors).toEqual([]);
  });
}

test('the work pane maximises and collapses, and a tab brings it back', async ({ app, page }) => {
  await app.resize(1280, 800);
  await app.openView('SQL');
  const conversation = page.locator('#ask');
  await page.getByRole('button', { name: 'Maximise work pane', exact: true }).click();
  await expect(conversation).toBeHidden();
  await expect(app.sqlEditor).toBeVisible();
  await snap(page, '1280-maximised');
  await page.getByRole('button', { name: 'Maximise work pane', exact: true }).click();
  await expect(conversation).toBeVisible();

  await page.getByRole('button', { name: 'Collapse work pane', exact: true }).click();
  await expect(app.sqlEditor).toBeHidden();
  const wide = (await conversation.boundingBox())?.width ?? 0;
  expect(wide).toBeGreaterThan(800);
  await snap(page, '1280-collapsed');
  await app.viewTab('Python').click();
  await expect(page.getByRole('textbox', { name: 'Python code' })).toBeVisible();
  await expectWindowStill(page, 'after the pane came back');
});

test('before a model is set the conversation shows a setup card; a sample brings three starter questions that ask', async ({ app, page }) => {
  const log = chat(page).log;
  const card = log.getByRole('region', { name: 'Connect a model to start' });
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: 'Use Ollama', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('textbox', { name: 'Base URL' })).toHaveValue('http://localhost:11434/v1');
  await page.keyboard.press('Escape');

  await app.loadSample('seattle_weather');
  await configureEndpoint(page, mock, { key: 'sk-e2e-starters' });
  const starters = log.getByRole('group', { name: 'Starter questions' }).getByRole('button');
  await expect(starters).toHaveCount(3);
  await mock.script([{ type: 'text', content: 'STARTER-ANSWERED' }]);
  await starters.first().click();
  await expect(chat(page).answers.filter({ hasText: 'STARTER-ANSWERED' })).toBeVisible({ timeout: 60_000 });
  const asked = JSON.stringify((await mock.chatRequests()).at(0)?.body ?? {});
  expect(asked).toContain('How many sunny days were there each year?');
});

test('at 375×812: one column, the chat fills the screen, the bottom bar switches views, the window never scrolls', async ({ app, page }) => {
  await app.resize(375, 812);
  const bar = page.getByRole('tablist', { name: 'Views', exact: true });
  const box = await bar.boundingBox();
  expect(box && box.y + box.height >= 811, 'the tab bar is at the bottom').toBe(true);
  await expect(chat(page).log).toBeVisible();
  await expect(app.datasets).toBeHidden();
  await app.loadSample('penguins');
  await configureEndpoint(page, mock, { key: 'sk-e2e-phone' });
  await app.openView('Ask');
  await askWithChart(page);
  const log = await chat(page).log.boundingBox();
  expect(log && log.height > 400, 'the chat takes the screen').toBe(true);
  await expectWindowStill(page, 'after an answer at 375 px');
  await snap(page, '375-ask');
  await walkViews(app, page, '375');
  await app.openView('Ask');
  await expect(chat(page).question).toBeVisible();
  expect(app.pageErrors).toEqual([]);
});

test("a chart's type and title change from its controls, and stay so after a reload, in the export and in the notebook", async ({ app, page }) => {
  test.setTimeout(240_000);
  await app.loadSample('penguins');
  await configureEndpoint(page, mock, { key: 'sk-e2e-chart' });
  await askWithChart(page);
  const answer = chat(page).answers.first();
  await expect(answer.getByRole('figure', { name: 'Penguins per species: bar chart with 1 trace' })).toBeVisible();
  await answer.getByText('Change chart', { exact: true }).click();
  const controls = answer.getByRole('group', { name: 'Chart settings' });
  await controls.getByRole('combobox', { name: 'Type' }).selectOption('line');
  await controls.getByRole('textbox', { name: 'Title' }).fill('Species counts');
  await controls.getByRole('textbox', { name: 'Title' }).press('Enter');
  const changed = answer.getByRole('figure', { name: 'Species counts: scatter chart with 1 trace' });
  await expect(changed).toBeVisible();

  // Expanded to the window, and back.
  await answer.getByRole('button', { name: 'Expand chart', exact: true }).click();
  const big = page.getByRole('dialog', { name: 'Chart' });
  await expect(big.getByRole('figure', { name: 'Species counts: scatter chart with 1 trace' })).toBeVisible();
  await snap(page, '1280-chart-expanded');
  await big.getByRole('button', { name: 'Close', exact: true }).click();

  await app.reload();
  await expect(chat(page).answers.first().getByRole('figure', { name: 'Species counts: scatter chart with 1 trace' })).toBeVisible({ timeout: 60_000 });

  // The export carries the chart as changed: its notebook cell draws a line chart with the new title.
  const nb = (await exportAs(page, 'Notebook (.ipynb)')).text;
  expect(nb).toContain('px.line(');
  expect(nb).toContain('Species counts');
  expect(nb).not.toContain('px.bar(');

  // Open chart in notebook: a Python cell with the chart's SQL and the changed spec.
  await chat(page).answers.first().getByRole('button', { name: 'Open chart in notebook', exact: true }).click();
  await expect(app.viewTab('Notebook')).toHaveAttribute('aria-selected', 'true');
  const cell = page.getByRole('region', { name: 'Notebook', exact: true }).getByRole('textbox', { name: 'Python cell 1', exact: true });
  await expect(cell).toContainText('px.line(');
  await expect(cell).toContainText('Species counts');
  await expectWindowStill(page, 'after Open chart in notebook');
  expect(app.pageErrors).toEqual([]);
});

test('at 1024×768 the rail stays beside one view at a time, Ask among the tabs', async ({ app, page }) => {
  await app.resize(1024, 768);
  await expect(app.datasets.or(page.getByRole('heading', { name: 'Datasets' }))).not.toHaveCount(0);
  await expect(chat(page).log).toBeVisible();
  await app.openView('SQL');
  await expect(chat(page).log).toBeHidden();
  await expect(app.sqlEditor).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Conversations', exact: true })).toBeVisible();
  await expectWindowStill(page, 'at 1024 px on SQL');
  await snap(page, '1024-sql');
  await app.openView('Ask');
  await expect(chat(page).question).toBeVisible();
  await expectWindowStill(page, 'at 1024 px on Ask');
});
