/**
 * The notebook (issue 14, item 3): SQL, Python and Markdown cells run with Shift+Enter,
 * Ctrl+Enter or their Run button; Python cells share their variables; cells reorder; five cells
 * and their outputs survive a reload; Run all re-runs them in a fresh Python; the notebook
 * exports to a valid .ipynb (the vendored nbformat 4.5 schema) that imports back; an agent's step
 * opens in the notebook as a new cell.
 */
import { readFileSync } from 'node:fs';
import Ajv from 'ajv-draft-04';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { download } from './support/downloads';
import { REPO_ROOT } from './support/paths';
import { ask, chat, configureEndpoint, expectIdle, openSteps, useMockLlm } from './support/mockLlm';

const mock = useMockLlm();
const notebook = (page: Page) => page.getByRole('region', { name: 'Notebook', exact: true });
const editor = (page: Page, name: string) => notebook(page).getByRole('textbox', { name, exact: true });
const output = (page: Page, name: string) => notebook(page).getByRole('group', { name: `Output of ${name}`, exact: true });

async function addCell(page: Page, kind: 'SQL' | 'Python' | 'Markdown', name: string, source: string): Promise<Locator> {
  await notebook(page).getByRole('button', { name: `Add ${kind} cell`, exact: true }).click();
  const box = editor(page, name);
  await expect(box).toBeFocused();
  await box.fill(source);
  return box;
}

test('five cells run, reorder, survive a reload, run all again and export to a valid .ipynb', async ({ app, page }) => {
  // Python starts twice (before and after the reload): the budget of the suite's other two-start tests.
  test.setTimeout(240_000);
  await app.loadSample('penguins');
  await app.openView('Notebook');
  await addCell(page, 'Markdown', 'Markdown cell 1', '# Penguins by species');
  await expect(notebook(page).getByRole('heading', { name: 'Penguins by species' })).toBeVisible();

  const sql = await addCell(page, 'SQL', 'SQL cell 1', 'SELECT "Species", count(*) AS n FROM penguins GROUP BY "Species" ORDER BY "Species"');
  await sql.press('Shift+Enter');
  await expect(output(page, 'SQL cell 1').getByRole('grid', { name: 'Result of SQL cell 1' }).getByRole('gridcell', { name: 'Adelie', exact: true })).toBeVisible({ timeout: 60_000 });

  const define = await addCell(page, 'Python', 'Python cell 1', 'base = 40\nprint("defined")');
  await define.press('Control+Enter');
  await expect(output(page, 'Python cell 1')).toContainText('defined', { timeout: 90_000 });

  await addCell(page, 'Python', 'Python cell 2', 'result = base + 2');
  await notebook(page).getByRole('button', { name: 'Run Python cell 2', exact: true }).click();
  await expect(output(page, 'Python cell 2').getByLabel('Result of Python cell 2')).toHaveText('42', { timeout: 60_000 });

  await addCell(page, 'SQL', 'SQL cell 2', 'SELECT 7 * 6 AS answer');
  // Move the last SQL cell above the Python cells: it becomes the second SQL cell still, third in order.
  await notebook(page).getByRole('button', { name: 'Move SQL cell 2 up', exact: true }).click();
  await notebook(page).getByRole('button', { name: 'Move SQL cell 2 up', exact: true }).click();
  const order = () => notebook(page).getByRole('list', { name: 'Notebook cells' }).locator(':scope > li').evaluateAll((lis) => lis.map((li) => li.getAttribute('aria-label')));
  expect(await order()).toEqual(['Markdown cell 1', 'SQL cell 1', 'SQL cell 2', 'Python cell 1', 'Python cell 2']);
  await notebook(page).getByRole('button', { name: 'Collapse Markdown cell 1', exact: true }).click();
  await expect(editor(page, 'Markdown cell 1')).toHaveCount(0);

  await app.reload();
  // The URL kept the Notebook tab open.
  await expect(app.viewTab('Notebook')).toHaveAttribute('aria-selected', 'true');
  await expect.poll(order, { timeout: 30_000 }).toEqual(['Markdown cell 1', 'SQL cell 1', 'SQL cell 2', 'Python cell 1', 'Python cell 2']);
  await expect(editor(page, 'Markdown cell 1')).toHaveCount(0);
  await expect(output(page, 'Python cell 2').getByLabel('Result of Python cell 2')).toHaveText('42');
  await expect(output(page, 'SQL cell 1').getByRole('gridcell', { name: 'Adelie', exact: true })).toBeVisible();

  // A fresh Python after the reload: Run all defines `base` again before it is used.
  await notebook(page).getByRole('button', { name: 'Run all', exact: true }).click();
  await expect(output(page, 'SQL cell 2').getByRole('gridcell', { name: '42', exact: true })).toBeVisible({ timeout: 90_000 });
  await expect(notebook(page).getByRole('button', { name: 'Run all', exact: true })).toBeEnabled({ timeout: 90_000 });
  await expect(output(page, 'Python cell 2').getByLabel('Result of Python cell 2')).toHaveText('42');
  await expect(output(page, 'Python cell 2').getByRole('alert')).toHaveCount(0);

  const { name, text } = await download(page, () => notebook(page).getByRole('button', { name: 'Export .ipynb', exact: true }).click());
  expect(name).toMatch(/\.ipynb$/);
  const nb = JSON.parse(text) as { cells: { cell_type: string; source: string[] }[] };
  const schema = JSON.parse(readFileSync(`${REPO_ROOT}/src/export/nbformat.v4.5.schema.json`, 'utf8')) as object;
  const validate = new Ajv({ strict: false }).compile(schema);
  expect(validate(nb), JSON.stringify(validate.errors)).toBe(true);
  // The setup cell, then the five cells in their order.
  expect(nb.cells.map((c) => c.cell_type)).toEqual(['code', 'markdown', 'code', 'code', 'code', 'code']);
  expect(nb.cells[2]?.source.join('')).toContain('duckdb.sql(');

  // Importing it back adds the same five cells after the ones there.
  await notebook(page).getByLabel('Import .ipynb').setInputFiles({ name: 'again.ipynb', mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(notebook(page).getByRole('status').filter({ hasText: 'Imported 5 cells from again.ipynb' })).toBeVisible();
  await expect(editor(page, 'SQL cell 4')).toContainText('SELECT 7 * 6 AS answer');
  await expect(editor(page, 'Python cell 4')).toContainText('result = base + 2');
  expect(app.pageErrors).toEqual([]);
});

test("an agent's SQL step opens in the notebook as a new cell", async ({ app, page }) => {
  await app.loadSample('penguins');
  await configureEndpoint(page, mock, { key: 'sk-e2e-notebook' });
  const sql = 'SELECT count(*) AS n FROM penguins';
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 's1', name: 'run_sql', arguments: { sql } }] },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
    { type: 'text', content: 'NOTEBOOK-ANSWER' },
  ]);
  await ask(page, 'How many penguins?');
  await expect(chat(page).answers.filter({ hasText: 'NOTEBOOK-ANSWER' })).toBeVisible({ timeout: 90_000 });
  await expectIdle(page);
  const step = (await openSteps(page)).getByRole('listitem').filter({ hasText: 'run_sql' }).first();
  await step.getByText('run_sql').first().click();
  await step.getByRole('button', { name: 'Open in notebook', exact: true }).click();
  await expect(editor(page, 'SQL cell 1')).toContainText(sql);
  await expect(page).toHaveURL(/view=notebook/);
  await expect(app.viewTab('Notebook')).toHaveAttribute('aria-selected', 'true');
  expect(app.pageErrors).toEqual([]);
});
