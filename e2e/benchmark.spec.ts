/**
 * Bring a benchmark, in the Evaluate view, against the scripted endpoint: a small set in
 * DABench's layout (picked as a folder) and one in the generic format (picked as files), written
 * for these tests in e2e/fixtures/benchmark. The model's right and wrong answers are known here,
 * so the scores must be exactly those; a bar of means fails a question about counts; the
 * benchmark's files never appear among the user's datasets or in what the model is told about
 * them; two runs compare side by side, export as score files and import back.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { strToU8, zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import type { ScriptedReply, ScriptedRoute } from '../testing/mock-llm/server.mjs';
import { expect, test } from './support/fixtures';
import { download } from './support/downloads';
import { configureEndpoint, useMockLlm } from './support/mockLlm';
import { REPO_ROOT } from './support/paths';

const mock = useMockLlm();
const FIXTURES = join(REPO_ROOT, 'e2e/fixtures/benchmark');
const text = (content: string): ScriptedReply => ({ type: 'text', content });
const valid: ScriptedReply = { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } };
const chart = (sql: string): ScriptedReply => ({ type: 'tool_calls', calls: [{ name: 'create_chart', arguments: { sql, chart: { type: 'bar', x: 'town', y: 'value', title: 'Stores per town' } } }] });

async function openEvaluate(page: Page) {
  const tab = page.getByRole('tablist', { name: 'Views', exact: true }).getByRole('tab', { name: 'Evaluate', exact: true });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  return page.getByRole('region', { name: 'Evaluate' });
}

const questionOf = (line: string): string => (JSON.parse(line) as { question: string }).question;
const dabench = readFileSync(join(FIXTURES, 'dabench-mini/mini-questions.jsonl'), 'utf8').trim().split('\n').map(questionOf);
const generic = readFileSync(join(FIXTURES, 'generic-mini/generic-set.jsonl'), 'utf8').trim().split('\n').map(questionOf);

test('a DABench set picked as a folder scores exactly as its authors score it, in a workspace apart from the user’s data', async ({ app, page }) => {
  test.setTimeout(240_000);
  await app.loadSample('penguins');
  await configureEndpoint(page, mock, { key: 'sk-bench-dabench' });
  const routes: ScriptedRoute[] = [
    // right: 12.5 equals the label 12.50 as a number
    { match: dabench[0] as string, replies: [text('The mean unit price is @mean_price[12.5].')] },
    // one of two: the count is right, "Yes" is not the label's "yes"
    { match: dabench[1] as string, replies: [text('@missing_prices[1] @quantity_skewed[Yes]')] },
    // no @name[value] at all: wrong, even though the town is right
    { match: dabench[2] as string, replies: [text('Leeds has the most stores.')] },
  ];
  await mock.script([], { routes });

  const region = await openEvaluate(page);
  await region.getByLabel('Question set folder').setInputFiles(join(FIXTURES, 'dabench-mini'));
  await expect(region.getByRole('status', { name: 'Question set' })).toHaveText('dabench-mini: 3 DABench questions over 2 files');
  await region.getByRole('combobox', { name: 'Benchmark mode' }).selectOption('agent');
  await region.getByRole('button', { name: 'Run benchmark' }).click();
  await expect(region.getByRole('status', { name: 'Benchmark status' })).toHaveText('3 of 3 questions scored · done', { timeout: 180_000 });

  const score = region.getByRole('definition').filter({ hasText: '%' });
  await expect(region.getByRole('term').filter({ hasText: 'Accuracy by question' })).toBeVisible();
  await expect(score).toHaveText(['33.3%', '50.0%', '50.0%']);
  const byLevel = region.getByRole('table', { name: 'Benchmark by level' });
  await expect(byLevel.getByRole('row', { name: /easy/ })).toContainText('1/1');
  await expect(byLevel.getByRole('row', { name: /medium/ })).toContainText('0/1');
  const byConcept = region.getByRole('table', { name: 'Benchmark by concept' });
  await expect(byConcept.getByRole('row', { name: /Summary Statistics/ })).toContainText('1/2');

  // The prompt gave the format as the benchmark does and named the workspace's table.
  const asked = (await mock.chatRequests()).map((r) => JSON.stringify(r.body));
  const first = asked.find((b) => b.includes(dabench[0] as string)) ?? '';
  expect(first).toContain('Format: @mean_price[mean]');
  expect(first).toMatch(/loaded as the table shop_sales/);
  // Isolation: the model never heard of the user's dataset, and the user's list is unchanged.
  const items = asked.filter((b) => dabench.some((q) => b.includes(q)));
  expect(items.length).toBeGreaterThanOrEqual(3);
  for (const body of items) expect(body).not.toContain('penguins');
  expect(await app.datasetNames()).toEqual(['penguins']);
  expect(app.pageErrors).toEqual([]);
});

test('a generic set picked as files: a bar of means fails a count question, two runs compare side by side and share as score files', async ({ app, page }) => {
  test.setTimeout(300_000);
  await configureEndpoint(page, mock, { key: 'sk-bench-generic' });
  const [count, towns, perTown] = generic as [string, string, string];
  const routes: ScriptedRoute[] = [
    // run 1 right · run 2 right
    { match: count, replies: [text('There are 3 stores.'), text('There are 3 stores.')] },
    // run 1 wrong (York missing) · run 2 right
    { match: towns, replies: [text('The towns are: Leeds.'), text('The towns are: Leeds, York.')] },
    // run 1: a bar of mean size per town (wrong aggregate) · run 2: a bar of counts
    { match: perTown, replies: [
      chart('SELECT town, avg(size_m2) AS value FROM stores GROUP BY 1 ORDER BY 1'), text('Here is the chart of stores per town.'), valid,
      chart('SELECT town, count(*) AS value FROM stores GROUP BY 1 ORDER BY 1'), text('Here is the chart of stores per town.'), valid] },
  ];
  await mock.script([], { routes });

  const region = await openEvaluate(page);
  await region.getByLabel('Question set files').setInputFiles([join(FIXTURES, 'generic-mini/generic-set.jsonl'), join(FIXTURES, 'generic-mini/stores.csv')]);
  await expect(region.getByRole('status', { name: 'Question set' })).toHaveText('generic-set: 3 generic questions over 1 file');
  const status = region.getByRole('status', { name: 'Benchmark status' });
  for (const expected of ['33.3%', '100.0%']) {
    await region.getByRole('button', { name: 'Run benchmark' }).click();
    await expect(status).toHaveText('3 of 3 questions scored · done', { timeout: 180_000 });
    await expect(region.getByRole('definition').filter({ hasText: '%' })).toHaveText([expected]);
  }
  // The first run's chart plotted means: it failed on the values, not on the columns.
  await region.getByRole('combobox', { name: 'Benchmark run' }).selectOption({ index: 0 });
  const results = region.getByRole('table', { name: 'Benchmark results' });
  await region.getByText('Questions', { exact: true }).click();
  await expect(results.getByRole('row', { name: /stores_per_town/ })).toContainText('wrong figure');
  await expect(results.getByRole('row', { name: /stores_per_town/ })).toContainText('leeds: 2 (plotted 100)');
  expect(await app.datasetNames()).toEqual([]);

  const compare = region.getByRole('table', { name: 'Runs side by side' });
  const rows = compare.getByRole('row', { name: /mock-model · generic-set · agent/ });
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('33.3% (1/3)');
  await expect(rows.nth(0)).toContainText('wrong figure 2');
  await expect(rows.nth(1)).toContainText('100.0% (3/3)');
  await expect(rows.nth(1)).toContainText('none');

  const file = await download(page, () => rows.nth(0).getByRole('button', { name: /^Export score file/ }).click());
  expect(file.name).toMatch(/^score-generic-set-mock-model-\d{4}-\d{2}-\d{2}\.json$/);
  expect(file.text).not.toContain('sk-bench-generic');
  expect(file.text).not.toContain(mock.url);
  const shared = JSON.parse(file.text) as { schema: string; endpoint_kind: string; format: string; items: { id: string; correct: boolean; failure: string | null; tokens_in: number; ms: number }[] };
  expect(shared).toMatchObject({ schema: 'dataseer.score/1', endpoint_kind: 'local', format: 'generic' });
  expect(shared.items.map((i) => [i.id, i.correct, i.failure])).toEqual([['store_count', true, null], ['towns', false, 'wrong_figure'], ['stores_per_town', false, 'wrong_figure']]);
  for (const i of shared.items) expect(i.tokens_in, i.id).toBeGreaterThan(0);

  // Shared back in, it is a third row; a published score typed in sits beside them.
  await region.getByLabel('Import score files').setInputFiles(file.path);
  await expect(compare.getByRole('row', { name: /mock-model · generic-set · agent/ })).toHaveCount(3);
  await expect(compare.getByText('imported')).toBeVisible();
  await region.getByRole('textbox', { name: 'Reference model' }).fill('GPT-4 (paper)');
  await region.getByRole('textbox', { name: 'Reference accuracy (%)' }).fill('78.3');
  await region.getByRole('button', { name: 'Add reference score' }).click();
  await expect(compare.getByRole('row', { name: 'Reference: GPT-4 (paper)' })).toContainText('78.3%');
  expect(app.pageErrors).toEqual([]);
});

test('a stopped benchmark survives a reload and resumes without losing or repeating a question; deleting it deletes its conversations', async ({ app, page }) => {
  test.setTimeout(240_000);
  await configureEndpoint(page, mock, { key: 'sk-bench-resume' });
  const [count, towns, perTown] = generic as [string, string, string];
  const routes: ScriptedRoute[] = [
    { match: count, replies: [text('There are 3 stores.')] },
    // The second question first hangs (to be stopped), then answers when resumed.
    { match: towns, replies: [{ ...text('too late'), delay_ms: 60_000 }, text('Leeds and York.')] },
    { match: perTown, replies: [text('I cannot draw charts.')] },
  ];
  await mock.script([], { routes });
  const region = await openEvaluate(page);
  await region.getByLabel('Question set files').setInputFiles([join(FIXTURES, 'generic-mini/generic-set.jsonl'), join(FIXTURES, 'generic-mini/stores.csv')]);
  await region.getByRole('button', { name: 'Run benchmark' }).click();
  const status = region.getByRole('status', { name: 'Benchmark status' });
  await expect(status).toHaveText('1 of 3 questions scored', { timeout: 120_000 });
  await expect.poll(async () => (await mock.chatRequests()).some((r) => JSON.stringify(r.body).includes(towns)), { timeout: 60_000 }).toBe(true);
  await region.getByRole('button', { name: 'Stop benchmark' }).click();
  await expect(status).toHaveText('1 of 3 questions scored · stopped', { timeout: 60_000 });

  await app.reload();
  const after = await openEvaluate(page);
  const statusAfter = after.getByRole('status', { name: 'Benchmark status' });
  await expect(statusAfter).toHaveText('1 of 3 questions scored · stopped', { timeout: 60_000 });
  await after.getByRole('button', { name: 'Resume benchmark' }).click();
  await expect(statusAfter).toHaveText('3 of 3 questions scored · done', { timeout: 180_000 });
  await after.getByText('Questions', { exact: true }).click();
  const results = after.getByRole('table', { name: 'Benchmark results' });
  for (const id of ['store_count', 'towns', 'stores_per_town']) await expect(results.getByRole('rowheader', { name: id, exact: true })).toHaveCount(1);
  await expect(results.getByRole('row', { name: /towns/ }).first()).toContainText('correct');
  await expect(results.getByRole('row', { name: /stores_per_town/ })).toContainText('no figure');
  // Each question reached the model once, but the stopped one, which was asked again.
  const asked = (await mock.chatRequests()).map((r) => JSON.stringify(r.body));
  expect(asked.filter((b) => b.includes(count))).toHaveLength(1);
  expect(asked.filter((b) => b.includes(towns))).toHaveLength(2);
  expect(await app.datasetNames()).toEqual([]);

  // Its conversations are listed (named after the set) until the run is deleted.
  await app.reload();
  const threads = page.getByRole('list', { name: 'Conversations' });
  await expect(threads.getByText(/Benchmark · generic-set · /)).toHaveCount(3);
  const again = await openEvaluate(page);
  await again.getByRole('button', { name: 'Delete benchmark run' }).click();
  await expect(again.getByRole('status', { name: 'Benchmark status' })).toHaveCount(0);
  await expect(threads.getByText(/Benchmark · generic-set · /)).toHaveCount(0);
  expect(app.pageErrors).toEqual([]);
});

test('headless: `npm run gauntlet -- --suite set.zip` runs the set through the app, prints one line and writes the score file', async ({ baseURL }) => {
  test.setTimeout(240_000);
  const routes: ScriptedRoute[] = [
    { match: dabench[0] as string, replies: [text('@mean_price[12.50]')] },
    { match: dabench[1] as string, replies: [text('@missing_prices[1] @quantity_skewed[yes]')] },
    { match: dabench[2] as string, replies: [text('@top_town[York]')] },
  ];
  await mock.script([], { routes });
  // The set as a zip, the way it is often downloaded.
  const dir = mkdtempSync(join(tmpdir(), 'dataseer-suite-'));
  const src = join(FIXTURES, 'dabench-mini');
  const zip = zipSync({
    'dabench-mini/mini-questions.jsonl': strToU8(readFileSync(join(src, 'mini-questions.jsonl'), 'utf8')),
    'dabench-mini/mini-labels.jsonl': strToU8(readFileSync(join(src, 'mini-labels.jsonl'), 'utf8')),
    'dabench-mini/tables/shop sales.csv': strToU8(readFileSync(join(src, 'tables/shop sales.csv'), 'utf8')),
    'dabench-mini/tables/stores.csv': strToU8(readFileSync(join(src, 'tables/stores.csv'), 'utf8')),
  });
  writeFileSync(join(dir, 'dabench-mini.zip'), zip);
  const out = join(dir, 'results');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['scripts/gauntlet.mjs', '--base-url', `${mock.url}/v1`, '--model', 'mock-model', '--no-key', '--suite', join(dir, 'dabench-mini.zip'), '--app-url', baseURL as string, '--out', out],
    { cwd: REPO_ROOT, timeout: 200_000 },
  );
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  // Two of three right: 12.50 and the pair; York is not the label's Leeds.
  expect(lines[0]).toMatch(/^benchmark dabench-mini \(dabench\) mock-model agent: 2\/3 correct \(66\.7%\) · sub-answers 3\/4 \(75\.0%\) · .* failures: wrong_figure 1 · /);
  const [file] = readdirSync(out);
  expect(file).toMatch(/^score-dabench-mini-mock-model-\d{4}-\d{2}-\d{2}\.json$/);
  const score = JSON.parse(readFileSync(join(out, file as string), 'utf8')) as { schema: string; items: { id: string; correct: boolean; sub_correct: number; sub_total: number }[] };
  expect(score.schema).toBe('dataseer.score/1');
  expect(score.items.map((i) => [i.id, i.correct, i.sub_correct, i.sub_total])).toEqual([['101', true, 1, 1], ['102', true, 2, 2], ['103', false, 0, 1]]);
});
