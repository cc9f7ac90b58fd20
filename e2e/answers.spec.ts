/**
 * Rich answers and the step trace (issue #5 parts 1–2), against the scripted endpoint: hostile
 * HTML from the model and from data renders inert, markdown renders (headings, lists, highlighted
 * SQL, KaTeX), and a code step can be copied and re-run from the console.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, readGrid, test } from './support/fixtures';
import { collectDialogs } from './support/dialogs';
import { ask, configureEndpoint, openSteps, useMockLlm } from './support/mockLlm';
import { bad, vega } from './support/paths';

const KEY = 'sk-e2e-answers-7Hq2';

const mock = useMockLlm();
const configure = (page: Page) => configureEndpoint(page, mock, { key: KEY });

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

function conversation(page: Page) {
  const log = page.getByRole('log', { name: 'Conversation' });
  return { log, card: log.getByRole('article', { name: 'Answer' }), steps: log.getByRole('list', { name: 'Steps' }) };
}

const VALID = { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } } as const;

test('hostile HTML from the model and from data renders inert', async ({ app, page }) => {
  const dialogs = collectDialogs(page);
  await app.addFiles(bad('odd-names.csv'));
  await app.expectDataset('odd_names');
  await configure(page);
  const startUrl = page.url();

  const answer = [
    '# Report <img src=x onerror="window.__pwned=2">',
    '',
    '<script>window.__pwned=1</script>',
    '',
    'Follow [click](javascript:window.__pwned=3) for more.',
    '',
    '<iframe src="javascript:window.__pwned=4"></iframe>',
    '',
    'Inline <a href="javascript:window.__pwned=5">raw link</a> and <form action="javascript:window.__pwned=6"><button>go</button></form>',
    '',
    '<div style="position:fixed;inset:0" onmouseover="window.__pwned=7">cover</div>',
  ].join('\n');
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 'h1', name: 'run_sql', arguments: { sql: 'SELECT * FROM odd_names ORDER BY 1' } }] },
    { type: 'text', content: answer, chunk_size: 7 },
    VALID,
  ]);
  await ask(page, 'Show me the odd names');
  const { card, steps } = conversation(page);
  await expect(card).toContainText('<script>window.__pwned=1</script>', { timeout: 60_000 });
  // Markup from the model is visible as text; the markdown around it still renders.
  await expect(card.getByRole('heading', { name: /Report <img src=x onerror=/ })).toBeVisible();
  await expect(card).toContainText('<iframe src="javascript:window.__pwned=4"></iframe>');
  await expect(card).toContainText('<a href="javascript:window.__pwned=5">raw link</a>');
  await expect(card.getByText('click', { exact: true })).toBeVisible();
  await expect(card.getByRole('link')).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'go' })).toHaveCount(0);

  // Clicking the refused link goes nowhere and runs nothing.
  await card.getByText('click', { exact: true }).click();
  await card.getByText('cover', { exact: false }).hover();

  // Data values and column names in the tool output table and the result grid are text too.
  await openSteps(page);
  await steps.getByText('run_sql').click();
  const table = steps.getByRole('grid', { name: 'run_sql output' });
  await expect(table.getByRole('columnheader', { name: '<img src=x onerror=alert(1)>' })).toBeVisible();
  await expect(table.getByRole('gridcell', { name: '<script>window.__pwned=1</script>', exact: true })).toBeVisible();
  await expect(table.getByRole('gridcell', { name: '<b>bold</b>', exact: true })).toBeVisible();
  const grid = card.getByRole('grid', { name: 'Result table' });
  await expect(grid.getByRole('gridcell', { name: '<script>window.__pwned=1</script>', exact: true })).toBeVisible();

  const dom = await page.evaluate(() => ({
    pwned: (window as unknown as { __pwned?: unknown }).__pwned,
    jsHrefs: Array.from(document.querySelectorAll('[href], [src], [action], [formaction]'))
      .flatMap((el) => ['href', 'src', 'action', 'formaction'].map((a) => el.getAttribute(a) ?? ''))
      .filter((v) => /^\s*javascript:/i.test(v)),
    iframes: document.querySelectorAll('iframe').length,
    forms: document.querySelectorAll('article form').length,
    injectedImgs: document.querySelectorAll('img[src="x"]').length,
    styled: Array.from(document.querySelectorAll('article [style]')).filter((el) => !el.closest('.katex') && !el.closest('[role="grid"]') && !el.closest('figure')).length,
    handlers: Array.from(document.querySelectorAll('article *')).filter((el) => Array.from(el.attributes).some((a) => a.name.startsWith('on'))).length,
  }));
  expect(dom).toEqual({ pwned: undefined, jsHrefs: [], iframes: 0, forms: 0, injectedImgs: 0, styled: 0, handlers: 0 });
  expect(dialogs).toEqual([]);
  // No link or script moved the page: the same document, and a hash that only says where the
  // user is (the open conversation joins it, issue 14), never a target a payload chose.
  const now = new URL(page.url());
  const start = new URL(startUrl);
  expect(now.origin + now.pathname + now.search).toBe(start.origin + start.pathname + start.search);
  expect([...new URLSearchParams(now.hash.slice(1)).keys()].every((k) => ['view', 'c', 'd'].includes(k))).toBe(true);
  expect(new URLSearchParams(now.hash.slice(1)).get('view')).toBe(new URLSearchParams(start.hash.slice(1)).get('view') ?? 'ask');
  expect(app.pageErrors).toEqual([]);
});

test('markdown renders: heading, list, highlighted SQL and KaTeX', async ({ app, page }) => {
  await configure(page);
  const answer = [
    '## Mass by species',
    '',
    '- Gentoo are the heaviest',
    '- Adelie and Chinstrap are close',
    '',
    '```sql',
    'SELECT "Species", avg("Body Mass (g)") AS mean_mass FROM penguins GROUP BY 1',
    '```',
    '',
    'The mean is $$\\bar{x} = \\frac{1}{n}\\sum_{i=1}^{n} x_i$$',
    '',
    'and inline $\\sigma^2$, while prices like $5 and $10 stay text. See [DuckDB](https://duckdb.org/docs).',
  ].join('\n');
  await mock.script([{ type: 'text', content: answer, chunk_size: 5, chunk_delay_ms: 5 }]);
  await ask(page, 'Explain the method');
  const { card } = conversation(page);
  await expect(card.getByRole('heading', { name: 'Mass by species' })).toBeVisible({ timeout: 60_000 });
  const list = card.getByRole('list').filter({ hasText: 'Gentoo are the heaviest' });
  await expect(list.getByRole('listitem')).toHaveText(['Gentoo are the heaviest', 'Adelie and Chinstrap are close']);
  await expect(card.getByText('SELECT', { exact: true })).toHaveClass(/tok-keyword/);
  await expect(card.getByText('"Body Mass (g)"', { exact: true })).toBeVisible();
  // KaTeX: MathML for assistive technology (with the TeX source), typeset glyphs for the eye.
  await expect(card.getByRole('math')).toHaveCount(2);
  await expect(card.locator('.katex-display .katex-html')).toBeVisible();
  await expect(card).toContainText('prices like $5 and $10 stay text');
  const link = card.getByRole('link', { name: 'DuckDB' });
  await expect(link).toHaveAttribute('href', 'https://duckdb.org/docs');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  expect(app.pageErrors).toEqual([]);
});

test('a code step shows highlighted SQL, copies it, and opens it in the console to re-run', async ({ app, page }) => {
  await app.loadSample('penguins');
  await configure(page);
  const penguins = JSON.parse(readFileSync(vega('penguins.json'), 'utf8')) as { Species: string }[];
  const gentoo = penguins.filter((p) => p.Species === 'Gentoo').length;
  const sql = `SELECT count(*) AS n FROM penguins WHERE "Species" = 'Gentoo'`;
  const code = 'result = 6 * 7';
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 's1', name: 'run_sql', arguments: { sql } }] },
    { type: 'tool_calls', calls: [{ id: 'p1', name: 'run_python', arguments: { code } }] },
    { type: 'text', content: `There are ${gentoo} Gentoo penguins; the answer is 42.` },
    VALID,
  ]);
  await ask(page, 'How many Gentoo penguins are there?');
  const { card, steps } = conversation(page);
  await expect(card).toContainText(`There are ${gentoo} Gentoo penguins`, { timeout: 90_000 });

  await openSteps(page);
  const sqlStep = steps.getByRole('listitem').filter({ hasText: 'run_sql' });
  await sqlStep.getByText('run_sql').click();
  await expect(sqlStep.getByText('SELECT', { exact: true })).toHaveClass(/tok-keyword/);
  await expect(sqlStep.getByText("'Gentoo'", { exact: true })).toHaveClass(/tok-string/);

  await sqlStep.getByRole('button', { name: 'Copy', exact: true }).click();
  // The step's output grid has status lines of its own (Copy as TSV, filter): the code block's is the one that says Copied.
  await expect(sqlStep.getByRole('status').filter({ hasText: 'Copied.' })).toHaveText('Copied.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sql);

  await sqlStep.getByRole('button', { name: 'Open in console', exact: true }).click();
  await expect(app.sqlEditor).toHaveText(sql);
  await expect(app.sqlEditor).toBeFocused();
  await expect(app.sqlEditor).toBeInViewport();
  await app.runButton.click();
  await expect(app.results).toBeVisible({ timeout: 60_000 });
  expect((await readGrid(app.results)).rows).toEqual([[String(gentoo)]]);

  const pyStep = steps.getByRole('listitem').filter({ hasText: 'run_python' });
  await pyStep.getByText('run_python').click();
  await expect(pyStep.getByText('result', { exact: true }).first()).toHaveClass(/tok-variableName/);
  await pyStep.getByRole('button', { name: 'Open in console', exact: true }).click();
  const pyEditor = page.getByRole('textbox', { name: 'Python code', exact: true });
  await expect(pyEditor).toHaveText(code);
  await expect(pyEditor).toBeFocused();
  await page.getByRole('button', { name: 'Run Python', exact: true }).click();
  await expect(page.getByLabel('Python result', { exact: true }).filter({ visible: true }).last()).toHaveText('42', { timeout: 90_000 });
  expect(app.pageErrors).toEqual([]);
});
