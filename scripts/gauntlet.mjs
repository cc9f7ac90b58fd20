#!/usr/bin/env node
// `npm run gauntlet -- --base-url URL --model NAME [--key-env NAME | --no-key] [--mode agent|pipeline|both]
//                     [--only ids-or-category] [--reps N] [--suite FILE|FOLDER|ZIP [--limit N]] [--app-url URL] [--out DIR]`
//
// With --suite, the question set the user brings (DABench's layout or the generic JSONL, as a
// file, a folder or a zip) runs instead of the gauntlet, through Evaluate's "Bring a benchmark",
// and the run's score file is written to bench/results/score-<suite>-<model>-<date>.json.
//
// Runs the gauntlet headless through the real app (the production build in Chromium), exactly
// as a person would from the Evaluate view, then writes bench/results/gauntlet-<model>-<date>.json
// and prints a one-line summary. The key is read from the environment variable named by
// --key-env (default DATASEER_API_KEY), typed into Settings in the page, and never written.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { launchOptions } from './browser.mjs';
import { startStaticServer } from '../bench/static-server.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// The example library's categories (shared/exampleCategories.ts): the Questions picker's values.
const CATEGORIES = new Set(['comparison', 'relationship', 'description', 'pattern', 'visualization', 'data_operation']);

const USAGE = `usage: npm run gauntlet -- --base-url URL --model NAME [--key-env NAME | --no-key]
       [--mode agent|pipeline|both] [--only id,id,…|category|random10] [--reps N] [--app-url URL] [--out DIR]
       [--suite questions.jsonl|folder|set.zip [--limit N]]   (a brought benchmark; --mode agent or pipeline)`;

/** @returns {never} */
function fail(message, code = 2) {
  console.error(`gauntlet: ${message}`);
  process.exit(code);
}

export function parseArgs(argv) {
  const opts = { mode: 'both', reps: 1, keyEnv: 'DATASEER_API_KEY', noKey: false, out: join(ROOT, 'bench/results') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => inline ?? argv[++i] ?? fail(`${flag} needs a value\n${USAGE}`);
    switch (flag) {
      case '--base-url': opts.baseUrl = value(); break;
      case '--model': opts.model = value(); break;
      case '--key-env': opts.keyEnv = value(); break;
      case '--no-key': opts.noKey = true; break;
      case '--mode': opts.mode = value(); break;
      case '--only': opts.only = value(); break;
      case '--reps': opts.reps = Number(value()); break;
      case '--app-url': opts.appUrl = value(); break;
      case '--suite': opts.suite = resolve(value()); break;
      case '--limit': opts.limit = Number(value()); break;
      case '--out': opts.out = resolve(value()); break;
      case '--help': case '-h': console.log(USAGE); process.exit(0); break;
      default: fail(`unknown option ${a}\n${USAGE}`);
    }
  }
  if (!opts.baseUrl || !opts.model) fail(`--base-url and --model are required\n${USAGE}`);
  if (!['agent', 'pipeline', 'both'].includes(opts.mode)) fail(`--mode must be agent, pipeline or both, not ${opts.mode}`);
  if (!Number.isInteger(opts.reps) || opts.reps < 1 || opts.reps > 5) fail('--reps must be 1 to 5');
  if (opts.suite) {
    if (opts.mode === 'both') opts.mode = 'agent';
    if (opts.only) fail('--only picks gauntlet questions; with --suite use --limit');
  }
  if (opts.limit !== undefined && (!Number.isInteger(opts.limit) || opts.limit < 1)) fail('--limit must be a whole number ≥ 1');
  return opts;
}

/** A suite path as the files a person would pick: the file, a zip, or every file under a folder. */
export function suiteFiles(path) {
  let st;
  try {
    st = statSync(path);
  } catch {
    fail(`--suite: ${path} does not exist`);
  }
  if (!st.isDirectory()) return [path];
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(path);
  if (out.length === 0) fail(`--suite: ${path} has no files`);
  return out;
}

/**
 * Echoes a run's status line until it ends in "· done"; an alert, or "· stopped", fails the command.
 * @param {import('@playwright/test').Page} page
 * @param {import('@playwright/test').Locator} status
 * @param {import('@playwright/test').Locator} alert
 */
async function followRun(page, status, alert) {
  let last = '';
  for (;;) {
    if (await alert.count()) fail(`the app says: ${await alert.first().innerText()}`, 1);
    const text = (await status.count()) ? await status.innerText() : '';
    if (text !== last) {
      last = text;
      if (text) process.stderr.write(`\r${text}   `);
    }
    if (/· done$/.test(text)) break;
    if (/· stopped$/.test(text)) fail(`the run stopped: ${text}`, 1);
    await page.waitForTimeout(1000);
  }
  process.stderr.write('\n');
}

/** Runs the brought suite in Evaluate and writes its score file; returns the one-line summary. */
async function runSuite(page, region, opts, started) {
  // A folder is picked as a folder (the suite is named after it), anything else as files.
  const files = suiteFiles(opts.suite);
  if (statSync(opts.suite).isDirectory()) await region.getByLabel('Question set folder').setInputFiles(opts.suite);
  else await region.getByLabel('Question set files').setInputFiles(files);
  const note = region.getByRole('status', { name: 'Question set' });
  const alert = region.getByRole('alert');
  await Promise.race([note.waitFor({ timeout: 120_000 }), alert.first().waitFor({ timeout: 120_000 })]);
  if (await alert.count()) fail(`the app says: ${await alert.first().innerText()}`, 1);
  process.stderr.write(`${await note.innerText()}\n`);
  await region.getByRole('combobox', { name: 'Benchmark mode' }).selectOption(opts.mode);
  await region.getByRole('spinbutton', { name: 'Questions to run' }).fill(String(opts.limit ?? 0));
  await region.getByRole('button', { name: 'Run benchmark' }).click();
  const status = region.getByRole('status', { name: 'Benchmark status' });
  await followRun(page, status, alert);
  // The newest run is the last row of its suite in "Runs side by side".
  const rows = region.getByRole('table', { name: 'Runs side by side' }).getByRole('row').filter({ has: page.getByRole('button', { name: /^Export score file/ }) });
  const row = rows.last();
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: /^Export score file/ }).click()]);
  const score = JSON.parse(readFileSync(await download.path(), 'utf8'));
  mkdirSync(opts.out, { recursive: true });
  const file = join(opts.out, download.suggestedFilename());
  writeFileSync(file, `${JSON.stringify(score, null, 2)}\n`);
  const items = score.items;
  const right = items.filter((i) => i.correct).length;
  const subTotal = items.reduce((s, i) => s + (i.sub_total ?? 0), 0);
  const subRight = items.reduce((s, i) => s + (i.sub_correct ?? 0), 0);
  const ms = items.map((i) => i.ms).sort((a, b) => a - b);
  const median = ms.length ? ms[Math.max(0, Math.ceil(ms.length / 2) - 1)] : 0;
  const failures = {};
  for (const i of items) if (i.failure) failures[i.failure] = (failures[i.failure] ?? 0) + 1;
  const tokensIn = items.reduce((s, i) => s + i.tokens_in, 0);
  const tokensOut = items.reduce((s, i) => s + i.tokens_out, 0);
  return `benchmark ${score.suite} (${score.format}) ${score.model} ${score.mode}: ${right}/${items.length} correct (${items.length ? ((100 * right) / items.length).toFixed(1) : '0.0'}%)${subTotal ? ` · sub-answers ${subRight}/${subTotal} (${((100 * subRight) / subTotal).toFixed(1)}%)` : ''} · median ${(median / 1000).toFixed(1)} s · tokens ${tokensIn} in / ${tokensOut} out · failures: ${Object.entries(failures).map(([f, n]) => `${f} ${n}`).join(', ') || 'none'} · ${((Date.now() - started) / 1000).toFixed(0)} s → ${file}`;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const key = opts.noKey ? '' : (process.env[opts.keyEnv] ?? '');
  if (!opts.noKey && !key) {
    fail(`no API key: set ${opts.keyEnv} (or name another variable with --key-env); a local endpoint that needs none takes --no-key`);
  }

  if (!opts.appUrl) {
    // The app under test is this checkout's production build (with --app-url: a server already running).
    execFileSync(process.execPath, [join(ROOT, 'scripts/ensure-browser.mjs')], { stdio: 'inherit' });
    execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  }
  const server = opts.appUrl ? null : await startStaticServer(new Map([['/', join(ROOT, 'dist')]]), 0);
  const appUrl = opts.appUrl ?? server?.url;
  const browser = await chromium.launch(launchOptions());
  const started = Date.now();
  try {
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await page.goto(appUrl);

    // Settings, as a user fills them.
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Base URL' }).fill(opts.baseUrl);
    await dialog.getByRole('textbox', { name: 'API key' }).fill(key);
    await dialog.getByRole('textbox', { name: 'Model' }).fill(opts.model);
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The work pane shows one view at a time: Evaluate is reached by its tab.
    await page.getByRole('tablist', { name: 'Views', exact: true }).getByRole('tab', { name: 'Evaluate', exact: true }).click();
    const region = page.getByRole('region', { name: 'Evaluate' });
    if (opts.suite) {
      console.log(await runSuite(page, region, opts, started));
      return;
    }
    const questions = region.getByRole('combobox', { name: 'Questions' });
    if (!opts.only) await questions.selectOption('all');
    else if (opts.only === 'random10') await questions.selectOption('random10');
    else if (CATEGORIES.has(opts.only)) await questions.selectOption(opts.only);
    else {
      await questions.selectOption('ids');
      await region.getByLabel('Question ids').fill(opts.only);
    }
    await region.getByRole('combobox', { name: 'Agent or Pipeline' }).selectOption(opts.mode);
    await region.getByRole('spinbutton', { name: 'Repetitions' }).fill(String(opts.reps));
    await region.getByRole('button', { name: 'Run gauntlet' }).click();

    const status = region.getByRole('status').filter({ hasText: 'items scored' });
    const alert = region.getByRole('alert');
    await followRun(page, status, alert);

    const [download] = await Promise.all([page.waitForEvent('download'), region.getByRole('button', { name: 'Export JSON' }).click()]);
    const run = JSON.parse(readFileSync(await download.path(), 'utf8'));
    mkdirSync(opts.out, { recursive: true });
    const safeModel = opts.model.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'model';
    const file = join(opts.out, `gauntlet-${safeModel}-${run.started.slice(0, 10)}.json`);
    writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`);

    const s = run.summary;
    const byMode = s.byMode.map((g) => `${g.key} ${g.correct}/${g.n}`).join(' · ');
    const failures = s.failures.map((f) => `${f.failure} ${f.n}`).join(', ') || 'none';
    console.log(
      `gauntlet ${run.model}: ${s.correct}/${s.n} correct (${Math.round(100 * s.accuracy)}%) · ${byMode} · median ${(s.medianMs / 1000).toFixed(1)} s · p90 ${(s.p90Ms / 1000).toFixed(1)} s · tokens ${s.tokensIn} in / ${s.tokensOut} out · failures: ${failures} · ${((Date.now() - started) / 1000).toFixed(0)} s → ${file}`,
    );
  } finally {
    await browser.close();
    await server?.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => fail(e instanceof Error ? e.message : String(e), 1));
}
