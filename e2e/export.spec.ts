/**
 * Export end to end: a conversation with a run_sql and a create_chart step (scripted endpoint,
 * testing/mock-llm) saved as a notebook (validated against the vendored nbformat 4.5 schema), an
 * HTML report (opened offline: it must make no request) and a Markdown report; a result table
 * saved as CSV and compared with figures computed here from the source file. The key must not
 * be in any file.
 */
import { readFileSync } from 'node:fs';
import Ajv from 'ajv-draft-04';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { download, exportAs } from './support/downloads';
import { ask, configureEndpoint, openSteps, useMockLlm } from './support/mockLlm';
import { REPO_ROOT } from './support/paths';
import { meanMassBySpecies } from './support/penguins';
import { parseCsv } from '../src/export/testing/csv';

const KEY = 'sk-e2e-export-Hq72LmZp';
const SQL = `SELECT "Species", round(avg("Body Mass (g)"), 2) AS mean_mass FROM penguins GROUP BY "Species" ORDER BY "Species"`;

const mock = useMockLlm();
const configure = (page: Page) => configureEndpoint(page, mock, { key: KEY });

interface NbCell {
  id: string;
  cell_type: string;
  source: string[];
  outputs?: { output_type: string; data?: Record<string, unknown> }[];
}

test('a conversation exports to a valid notebook, HTML and Markdown reports, and its table to CSV, without the key', async ({ app, page }) => {
  test.setTimeout(240_000);
  await app.loadSample('penguins');
  const exportButton = page.getByRole('button', { name: 'Export', exact: true });
  await expect(exportButton).toBeDisabled();
  await configure(page);

  const expected = meanMassBySpecies();
  const heaviest = expected.reduce((a, b) => (b[1] > a[1] ? b : a));
  const answer = `${heaviest[0]} penguins are the heaviest, at ${heaviest[1]} g on average.`;
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 'c1', name: 'run_sql', arguments: { sql: SQL } }] },
    { type: 'tool_calls', calls: [{ id: 'c2', name: 'create_chart', arguments: { sql: SQL, chart: { type: 'bar', x: 'Species', y: 'mean_mass', title: 'Mean body mass' } } }] },
    { type: 'text', content: answer },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);
  const question = 'Which penguin species is heaviest?';
  await ask(page, question);
  const log = page.getByRole('log', { name: 'Conversation' });
  await expect(log.getByRole('article', { name: 'Answer' })).toContainText(answer, { timeout: 90_000 });
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeHidden({ timeout: 60_000 });
  await expect(exportButton).toBeEnabled();

  // Notebook: schema-valid, the SQL in a code cell, the chart as a Plotly output, the answer in markdown.
  const nb = await exportAs(page, 'Notebook (.ipynb)');
  expect(nb.name).toBe('Which-penguin-species-is-heaviest.ipynb');
  expect(nb.text).not.toContain(KEY);
  const notebook = JSON.parse(nb.text) as { cells: NbCell[]; nbformat: number; nbformat_minor: number };
  const schema = JSON.parse(readFileSync(`${REPO_ROOT}/src/export/nbformat.v4.5.schema.json`, 'utf8')) as object;
  const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
  expect(validate(notebook), JSON.stringify(validate.errors)).toBe(true);
  const source = (c: NbCell) => c.source.join('');
  const sqlCell = notebook.cells.find((c) => c.cell_type === 'code' && source(c).includes(SQL) && !source(c).includes('px.bar'));
  expect(sqlCell, 'a code cell with the SQL').toBeDefined();
  const html = (sqlCell?.outputs?.[0]?.data?.['text/html'] as string[] | undefined)?.join('') ?? '';
  for (const [species, mass] of expected) expect(html).toContain(`<td>${species}</td><td>${mass}</td>`);
  const chartCell = notebook.cells.find((c) => c.cell_type === 'code' && source(c).includes('px.bar'));
  const plotly = chartCell?.outputs?.[0]?.data?.['application/vnd.plotly.v1+json'] as { data: { x: unknown[] }[] } | undefined;
  expect(plotly?.data[0]?.x).toEqual(expected.map(([s]) => s));
  expect(notebook.cells.some((c) => c.cell_type === 'markdown' && source(c).includes(answer))).toBe(true);
  expect(notebook.cells.some((c) => c.cell_type === 'markdown' && source(c).includes(question))).toBe(true);
  expect(source(notebook.cells[0] as NbCell)).toContain('| penguins | penguins.json | 344 |');

  // HTML report: opened with every request refused, it draws everything from inside the file.
  const report = await exportAs(page, 'HTML report');
  expect(report.name).toBe('Which-penguin-species-is-heaviest.html');
  expect(report.text).not.toContain(KEY);
  expect(report.text).not.toContain(mock.url);
  expect(report.text).toContain(answer);
  expect(report.text).not.toMatch(/<script/i);
  const viewer = await page.context().newPage();
  const requests: string[] = [];
  viewer.on('request', (r) => {
    if (!r.url().startsWith('data:')) requests.push(r.url());
  });
  await viewer.setContent(report.text);
  const chart = viewer.getByRole('img', { name: /Mean body mass/ });
  await expect(chart).toBeVisible();
  expect(await chart.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(100);
  await expect(viewer.getByRole('table').nth(1)).toContainText(expected[0]?.[0] ?? 'missing');
  expect(requests).toEqual([]);
  await viewer.close();

  // Markdown report.
  const md = await exportAs(page, 'Markdown report');
  expect(md.name).toBe('Which-penguin-species-is-heaviest.md');
  expect(md.text).not.toContain(KEY);
  expect(md.text).toContain(`\`\`\`sql\n${SQL}\n\`\`\``);
  expect(md.text).toContain('| Species | mean\\_mass |');
  for (const [species, mass] of expected) expect(md.text).toContain(`| ${species} | ${mass} |`);
  expect(md.text).toContain(answer);

  // CSV of the run_sql step's table, against the figures computed here.
  const step = (await openSteps(page)).getByRole('listitem').filter({ hasText: 'run_sql' });
  await step.getByText('run_sql').first().click();
  const csvDownload = await download(page, () => step.getByRole('button', { name: 'Download CSV' }).click());
  expect(csvDownload.name).toBe('run_sql-output.csv');
  const csv = parseCsv(csvDownload.text);
  expect(csv[0]).toEqual(['Species', 'mean_mass']);
  expect(csv.slice(1).map(([s, m]) => [s, Number(m)])).toEqual(expected);

  // The answer's chart downloads as SVG and PNG.
  const card = log.getByRole('article', { name: 'Answer' });
  const svg = await download(page, () => card.getByRole('button', { name: 'Download SVG' }).click());
  expect(svg.name).toMatch(/\.svg$/);
  expect(svg.text).toMatch(/^<svg[\s\S]*Mean body mass[\s\S]*<\/svg>$/);
  const png = await download(page, () => card.getByRole('button', { name: 'Download PNG' }).click());
  expect(png.name).toMatch(/\.png$/);
  expect(readFileSync(png.path).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');

  // The same query in the SQL console downloads the same rows.
  await app.runSql(SQL);
  const consoleCsv = await download(page, () => page.getByRole('region', { name: 'SQL', exact: true }).getByRole('button', { name: 'Download CSV' }).click());
  expect(parseCsv(consoleCsv.text)).toEqual(csv);
  expect(app.pageErrors).toEqual([]);
});

test('the Export menu works from the keyboard', async ({ app, page }) => {
  test.setTimeout(120_000);
  await configure(page);
  await mock.script([{ type: 'text', content: 'Hello from the model.' }, { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } }]);
  await ask(page, 'Say hello');
  await expect(page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Answer' })).toContainText('Hello from the model.', { timeout: 60_000 });
  const button = page.getByRole('button', { name: 'Export', exact: true });
  await expect(button).toBeEnabled({ timeout: 30_000 });
  await button.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: 'Notebook (.ipynb)' })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(menu.getByRole('menuitem', { name: 'Markdown report' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(button).toBeFocused();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'HTML report' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  const { name, text } = await download(page, () => page.keyboard.press('Enter'));
  expect(name).toBe('Say-hello.md');
  expect(text).toContain('Hello from the model.');
  expect(text).not.toContain(KEY);
  expect(app.pageErrors).toEqual([]);
});
