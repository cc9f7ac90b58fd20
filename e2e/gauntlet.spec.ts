/**
 * The gauntlet from the Evaluate view, against the scripted endpoint: a model whose right and
 * wrong answers are known here scores exactly that, with the right failure classes, in both
 * modes; a stopped run survives a reload and resumes without losing or repeating an item; the
 * report renders and exports. The right answers are computed here by native DuckDB over the
 * same public files, not read from the app's expected.json.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { ScriptedReply, ScriptedRoute } from '../testing/mock-llm/server.mjs';
import { expect, test } from './support/fixtures';
import { download } from './support/downloads';
import { configureEndpoint, useMockLlm } from './support/mockLlm';
import { nativeQuery, read } from './support/native';
import { vega } from './support/paths';
import { QUESTIONS, type GauntletQuestion } from '../src/eval/gauntlet/questions';

const mock = useMockLlm();
const VIEWS = { penguins: read.json(vega('penguins.json')), seattle_weather: read.csv(vega('seattle-weather.csv')), cars: read.json(vega('cars.json')) };

const question = (id: string): GauntletQuestion => {
  const q = QUESTIONS.find((x) => x.id === id);
  if (!q) throw new Error(`no question ${id}`);
  return q;
};

/** The right answer written as a person would, from native DuckDB. */
async function rightAnswer(id: string): Promise<string> {
  const q = question(id);
  const r = await nativeQuery(q.sql, VIEWS);
  const fmt = (s: string) => {
    const n = Number(s);
    return Number.isInteger(n) ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 2 });
  };
  if (q.kind === 'number') return `The answer is ${fmt(r.rows[0]?.[0] ?? '')}.`;
  if (q.kind === 'set') return `They are: ${r.rows.map((row) => row[0]).join(', ')}.`;
  throw new Error(`no scripted answer for ${q.kind}`);
}

const text = (content: string): ScriptedReply => ({ type: 'text', content });
const plan = (): ScriptedReply => ({ type: 'structured', when: 'execution_plan', value: { needs_code: false, needs_evaluation: false, needs_explanation: true, reasoning: 'answer from the data description' } });
const valid = (is_valid: boolean): ScriptedReply => ({ type: 'structured', when: 'validation_report', value: { is_valid, issues: is_valid ? [] : ['the count looks wrong'], suggestions: [], confidence: is_valid ? 0.9 : 0.3 } });

async function openEvaluate(page: Page) {
  // Reached by its tab, as a user does.
  const tab = page.getByRole('tablist', { name: 'Views', exact: true }).getByRole('tab', { name: 'Evaluate', exact: true });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  return page.getByRole('region', { name: 'Evaluate' });
}

interface ExportedRun {
  model: string;
  base_url: string;
  started: string;
  items: { id: string; mode: string; correct: boolean; failure: string | null; reason: string; tokens_in: number; tokens_out: number; requests: number; ms: number; category: string; difficulty: string }[];
}

test('a model that answers 12 of 20 right scores exactly 12/20, with the right failure classes, in both modes', async ({ app, page }) => {
  test.setTimeout(300_000);
  const KEY = 'sk-gauntlet-e2e-K3y';
  await configureEndpoint(page, mock, { key: KEY });
  const count = await rightAnswer('desc_penguin_count');
  // Each question: [agent mode's replies…, pipeline mode's replies…]; see the expected outcome beside it.
  const routes: ScriptedRoute[] = [
    // agent: correct through run_sql + validation · pipeline: correct
    { match: question('desc_penguin_count').question, replies: [
      { type: 'tool_calls', calls: [{ name: 'run_sql', arguments: { sql: 'SELECT count(*) AS n FROM penguins' } }] },
      { type: 'tool_calls', calls: [{ name: 'validate_results', arguments: { question: 'count', approach: 'count rows', results: count, code: 'SELECT count(*) FROM penguins' } }] },
      valid(true),
      text(count), plan(), text(count)] },
    // agent: correct · pipeline: wrong figure
    { match: question('desc_mean_mass').question, replies: [text(await rightAnswer('desc_mean_mass')), plan(), text('The average is 4,100 g.')] },
    // both correct
    { match: question('desc_islands').question, replies: [text(await rightAnswer('desc_islands')), plan(), text(await rightAnswer('desc_islands'))] },
    // agent: no figure · pipeline: correct
    { match: question('desc_median_flipper_gentoo').question, replies: [text('Gentoo flippers are long.'), plan(), text(await rightAnswer('desc_median_flipper_gentoo'))] },
    // agent: refused · pipeline: correct
    { match: question('desc_max_temp').question, replies: [text("I'm unable to help with that request."), plan(), text(await rightAnswer('desc_max_temp'))] },
    // agent: provider error · pipeline: correct
    { match: question('desc_dry_days').question, replies: [{ type: 'error', status: 403, message: 'You do not have access to this model.' }, plan(), text(await rightAnswer('desc_dry_days'))] },
    // agent: correct · pipeline: wrong figure
    { match: question('desc_hp_sd').question, replies: [text(await rightAnswer('desc_hp_sd')), plan(), text('The standard deviation is 12.5.')] },
    // agent: wrong (a weather type missing) · pipeline: correct
    { match: question('desc_weather_types').question, replies: [text('They are: drizzle, rain, sun.'), plan(), text(await rightAnswer('desc_weather_types'))] },
    // agent: wrong figure the validator disagreed with · pipeline: correct
    { match: question('desc_missing_sex').question, replies: [
      { type: 'tool_calls', calls: [{ name: 'run_sql', arguments: { sql: 'SELECT count(*) AS n FROM penguins' } }] },
      { type: 'tool_calls', calls: [{ name: 'validate_results', arguments: { question: 'missing sex', approach: 'count rows', results: count, code: 'SELECT count(*) FROM penguins' } }] },
      valid(false),
      text(`${count} penguins have no recorded sex.`), text(`${count} penguins have no recorded sex.`),
      plan(), text(await rightAnswer('desc_missing_sex'))] },
    // agent: correct with a caveat · pipeline: right figure, no caveat
    { match: question('amb_typical_weight').question, replies: [text('Assuming "typical" means the median: 2,822.5 lbs.'), plan(), text('The typical car weighs 2,822.5 lbs.')] },
  ];
  await mock.script([], { routes });

  const region = await openEvaluate(page);
  await region.getByRole('combobox', { name: 'Questions' }).selectOption({ label: 'Descriptions (10)' });
  await region.getByRole('combobox', { name: 'Agent or Pipeline' }).selectOption({ label: 'Agent and Pipeline' });
  await region.getByRole('button', { name: 'Run gauntlet' }).click();
  await expect(region.getByRole('progressbar', { name: 'Gauntlet progress' })).toBeVisible();
  await expect(region.getByRole('status').filter({ hasText: 'items scored' })).toHaveText(/20 of 20 items scored · done/, { timeout: 240_000 });
  // The samples the questions need were loaded by the gauntlet itself.
  await app.expectDataset('penguins');
  await app.expectDataset('cars');

  const table = region.getByRole('table', { name: 'Gauntlet results' });
  await expect(table.getByRole('row')).toHaveCount(21);
  await expect(region.getByText('60% (12 of 20)')).toBeVisible();

  const json = await download(page, () => region.getByRole('button', { name: 'Export JSON' }).click());
  expect(json.name).toMatch(/^gauntlet-mock-model-\d{4}-\d{2}-\d{2}\.json$/);
  const body = json.text;
  expect(body).not.toContain(KEY);
  const run = JSON.parse(body) as ExportedRun;
  expect(run).toMatchObject({ model: 'mock-model', base_url: `${mock.url}/v1` });
  const outcome = (id: string, mode: string) => {
    const item = run.items.find((i) => i.id === id && i.mode === mode);
    return item ? (item.correct ? 'correct' : item.failure) : 'absent';
  };
  expect(run.items.filter((i) => i.correct)).toHaveLength(12);
  expect(run.items.filter((i) => i.mode === 'agent' && i.correct)).toHaveLength(5);
  expect(run.items.filter((i) => i.mode === 'pipeline' && i.correct)).toHaveLength(7);
  expect({
    count: [outcome('desc_penguin_count', 'agent'), outcome('desc_penguin_count', 'pipeline')],
    mass: [outcome('desc_mean_mass', 'agent'), outcome('desc_mean_mass', 'pipeline')],
    flipper: outcome('desc_median_flipper_gentoo', 'agent'),
    maxTemp: outcome('desc_max_temp', 'agent'),
    dry: outcome('desc_dry_days', 'agent'),
    sd: outcome('desc_hp_sd', 'pipeline'),
    weather: outcome('desc_weather_types', 'agent'),
    sex: outcome('desc_missing_sex', 'agent'),
    typical: [outcome('amb_typical_weight', 'agent'), outcome('amb_typical_weight', 'pipeline')],
  }).toEqual({
    count: ['correct', 'correct'],
    mass: ['correct', 'wrong_figure'],
    flipper: 'no_figure',
    maxTemp: 'refused',
    dry: 'provider_error',
    sd: 'wrong_figure',
    weather: 'wrong_figure',
    sex: 'validation_disagreed',
    typical: ['correct', 'missing_caveat'],
  });
  for (const i of run.items) {
    expect(i.requests, i.id).toBeGreaterThan(0);
    // A refused request reports no tokens; every answered one does.
    if (i.failure !== 'provider_error') expect(i.tokens_in, i.id).toBeGreaterThan(0);
  }

  const csv = await download(page, () => region.getByRole('button', { name: 'Export CSV' }).click());
  const lines = csv.text.trim().split(/\r\n/);
  expect(lines).toHaveLength(21);
  expect(lines[0]).toContain('id,category,difficulty,mode');

  // Prices turn tokens into a cost per correct answer.
  await region.getByRole('textbox', { name: 'Input price per million tokens' }).fill('1');
  await region.getByRole('textbox', { name: 'Output price per million tokens' }).fill('10');
  await expect(region.getByText('Cost per correct answer')).toBeVisible();

  // A failed item opens as an ordinary conversation, and its fix goes to the examples.
  await table.getByRole('button', { name: 'Open conversation desc_weather_types (agent)' }).click();
  const log = page.getByRole('log', { name: 'Conversation' });
  await expect(log).toContainText(question('desc_weather_types').question);
  await expect(log.getByRole('article', { name: 'Answer' })).toContainText('drizzle, rain, sun');
  await table.getByRole('button', { name: 'Fix desc_weather_types (agent)' }).click();
  const fix = region.getByRole('form', { name: 'Correct desc_weather_types' });
  await fix.getByRole('textbox', { name: 'Corrected approach' }).fill('SELECT DISTINCT weather and list every value.');
  await fix.getByRole('textbox', { name: 'Corrected code' }).fill('SELECT DISTINCT weather FROM seattle_weather ORDER BY 1');
  await fix.getByRole('button', { name: 'Add to examples' }).click();
  await expect(fix.getByRole('status')).toContainText('Added to your examples');
  expect(app.pageErrors).toEqual([]);
});

test('a stopped gauntlet survives a reload and resumes without losing or repeating an item', async ({ app, page }) => {
  test.setTimeout(240_000);
  await configureEndpoint(page, mock, { key: 'sk-resume' });
  const ids = QUESTIONS.filter((q) => q.category === 'comparison').map((q) => q.id);
  expect(ids.length).toBeGreaterThanOrEqual(3);
  const second = question(ids[1] as string);
  // Every comparison answered "no figure" except the second, which first hangs (to be stopped).
  const routes: ScriptedRoute[] = ids.map((id) => ({
    match: question(id).question,
    replies: id === second.id ? [{ ...text('too late'), delay_ms: 60_000 }, text('Still thinking about it.')] : [text('It depends on the data.')],
  }));
  await mock.script([], { routes });

  const region = await openEvaluate(page);
  await region.getByRole('combobox', { name: 'Questions' }).selectOption({ label: `Comparisons (${ids.length})` });
  await region.getByRole('combobox', { name: 'Agent or Pipeline' }).selectOption({ label: 'Agent' });
  await region.getByRole('button', { name: 'Run gauntlet' }).click();
  const status = region.getByRole('status').filter({ hasText: 'items scored' });
  await expect(status).toHaveText(/1 of \d+ items scored/, { timeout: 120_000 });
  // The second item is in flight: its request has reached the endpoint.
  await expect.poll(async () => (await mock.chatRequests()).some((r) => JSON.stringify(r.body).includes(second.question)), { timeout: 60_000 }).toBe(true);
  await region.getByRole('button', { name: 'Stop gauntlet' }).click();
  await expect(status).toHaveText(new RegExp(`1 of ${ids.length} items scored · stopped`), { timeout: 60_000 });

  await app.reload();
  const after = await openEvaluate(page);
  const statusAfter = after.getByRole('status').filter({ hasText: 'items scored' });
  await expect(statusAfter).toHaveText(new RegExp(`1 of ${ids.length} items scored · stopped`), { timeout: 60_000 });
  await after.getByRole('button', { name: 'Resume gauntlet' }).click();
  await expect(statusAfter).toHaveText(new RegExp(`${ids.length} of ${ids.length} items scored · done`), { timeout: 180_000 });
  const table = after.getByRole('table', { name: 'Gauntlet results' });
  await expect(table.getByRole('row')).toHaveCount(ids.length + 1);
  for (const id of ids) await expect(table.getByRole('rowheader', { name: id, exact: true })).toHaveCount(1);
  await expect(table.getByRole('row', { name: new RegExp(second.id) })).toContainText('no figure');
});

test('npm run gauntlet runs the same gauntlet headless and writes the JSON; with no key it refuses', async ({ baseURL }) => {
  test.setTimeout(180_000);
  const { spawn } = await import('node:child_process');
  // Asynchronous: the scripted endpoint runs in this process and must keep answering.
  const run = (args: string[], env: Record<string, string>) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (status) => done({ status, stdout, stderr }));
    });
  const { mkdtempSync, readdirSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const script = 'scripts/gauntlet.mjs';

  const refused = await run(['--base-url', `${mock.url}/v1`, '--model', 'mock-model'], { DATASEER_API_KEY: '' });
  expect(refused.status).toBe(2);
  expect(refused.stderr).toContain('no API key: set DATASEER_API_KEY');

  await mock.script([], {
    routes: [
      { match: question('desc_penguin_count').question, replies: [text(await rightAnswer('desc_penguin_count'))] },
      { match: question('desc_islands').question, replies: [text('Only Biscoe.')] },
    ],
  });
  const out = mkdtempSync(join(tmpdir(), 'gauntlet-'));
  const KEY = 'sk-headless-Qx7';
  const res = await run(
    ['--app-url', baseURL ?? '', '--base-url', `${mock.url}/v1`, '--model', 'mock-model', '--key-env', 'E2E_GAUNTLET_KEY', '--mode', 'agent', '--only', 'desc_penguin_count,desc_islands', '--out', out],
    { E2E_GAUNTLET_KEY: KEY },
  );
  expect(res.status, res.stderr).toBe(0);
  expect(res.stdout).toMatch(/^gauntlet mock-model: 1\/2 correct \(50%\) · agent 1\/2 · .*failures: wrong_figure 1/m);
  const files = readdirSync(out);
  expect(files).toEqual([expect.stringMatching(/^gauntlet-mock-model-\d{4}-\d{2}-\d{2}\.json$/)]);
  const body = readFileSync(join(out, files[0] as string), 'utf8');
  expect(body).not.toContain(KEY);
  const exported = JSON.parse(body) as ExportedRun;
  expect(exported.items.map((i) => [i.id, i.mode, i.correct, i.failure])).toEqual([
    ['desc_penguin_count', 'agent', true, null],
    ['desc_islands', 'agent', false, 'wrong_figure'],
  ]);
  for (const i of exported.items) expect(Object.keys(i)).toEqual(expect.arrayContaining(['category', 'difficulty', 'reason', 'tokens_in', 'tokens_out', 'requests', 'ms']));
  // The key did reach the endpoint, the way the app sends it.
  expect((await mock.chatRequests()).every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
});

test('a chart item checks the aggregate plotted: a bar of mean mass fails "penguins per species", a bar of counts passes', async ({ app, page }) => {
  test.setTimeout(240_000);
  await configureEndpoint(page, mock, { key: 'sk-gauntlet-chart' });
  const q = question('viz_species_counts');
  const bar = (y: string, sql: string): ScriptedReply => ({ type: 'tool_calls', calls: [{ name: 'create_chart', arguments: { sql, chart: { type: 'bar', x: 'Species', y, title: 'Penguins per species' } } }] });
  await mock.script([], {
    routes: [{
      match: q.question,
      replies: [
        // repetition 1: the species and a bar, but of the mean body mass
        bar('mass', 'SELECT "Species", avg("Body Mass (g)") AS mass FROM penguins GROUP BY 1 ORDER BY 1'), text('Here is the number of penguins per species.'), valid(true),
        // repetition 2: the counts
        bar('n', 'SELECT "Species", count(*) AS n FROM penguins GROUP BY 1 ORDER BY 1'), text('Here is the number of penguins per species.'), valid(true),
      ],
    }],
  });
  const region = await openEvaluate(page);
  await region.getByRole('combobox', { name: 'Questions' }).selectOption('ids');
  await region.getByLabel('Question ids').fill(q.id);
  await region.getByRole('combobox', { name: 'Agent or Pipeline' }).selectOption({ label: 'Agent' });
  await region.getByRole('spinbutton', { name: 'Repetitions' }).fill('2');
  await region.getByRole('button', { name: 'Run gauntlet' }).click();
  await expect(region.getByRole('status').filter({ hasText: 'items scored' })).toHaveText(/2 of 2 items scored · done/, { timeout: 180_000 });
  const rows = region.getByRole('table', { name: 'Gauntlet results' }).getByRole('row', { name: new RegExp(q.id) });
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('wrong figure');
  await expect(rows.nth(0)).toContainText(/adelie: 152 \(plotted 3700\.6\d+\)/);
  await expect(rows.nth(1)).toContainText('correct');
  expect(app.pageErrors).toEqual([]);
});
