// Whole-app rows for `npm run bench`: how soon a cold visit becomes usable (composer, DuckDB,
// Pyodide), how big the shell is, and what streaming a long answer costs the main thread.
// The model is the scripted endpoint from testing/mock-llm (a test tool; the app cannot tell it
// from a real provider), so the figures measure our rendering, not a network.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { launchOptions } from '../scripts/browser.mjs';
import { startMockLlm } from '../testing/mock-llm/server.mjs';
import { median } from './workload.mjs';

const COLD_RUNS = 3;
const STREAM_TOKENS = 10_000;
/**
 * A fresh context on the app, its long tasks collected from the first script, with Settings
 * pointed at a scripted endpoint of its own. The caller closes the context and the mock.
 * @param {import('@playwright/test').Browser} browser
 * @param {string} baseURL
 */
export async function openWithMockModel(browser, baseURL) {
  const mock = await startMockLlm({ port: 0, host: '127.0.0.1' });
  const context = await browser.newContext();
  try {
    await context.addInitScript(collectLongTasks);
    const page = await context.newPage();
    await page.goto(baseURL);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Base URL' }).fill(`${mock.url}/v1`);
    await dialog.getByRole('textbox', { name: 'API key' }).fill('sk-bench');
    await dialog.getByRole('textbox', { name: 'Model' }).fill('mock-model');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    return { mock, context, page };
  } catch (e) {
    await context.close();
    await mock.close();
    throw e;
  }
}

/** Mock chunks carry ~4 characters, about one token each, like a real provider's deltas. */
const CHARS_PER_TOKEN = 4;

export function collectLongTasks() {
  const w = window;
  w.__benchLongTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__benchLongTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
}

/** Gzipped bytes of the JS and CSS that index.html references: what every visit downloads first. */
export function shellBytes(distDir) {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="\.?\/?([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  let js = 0;
  let css = 0;
  for (const ref of new Set(refs)) {
    const size = gzipSync(readFileSync(join(distDir, ref))).length;
    if (ref.endsWith('.css')) css += size;
    else js += size;
  }
  return { js, css, total: js + css, files: refs.length };
}

/** One cold visit: navigation start → composer usable, DuckDB ready, Pyodide ready (ms). */
async function coldVisit(browser, baseURL) {
  // A fresh context each time: no HTTP cache, no service worker, no storage.
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(baseURL);
    const composer = await page.waitForFunction(
      () => {
        /** @type {HTMLTextAreaElement | HTMLInputElement | null} */
        const box = document.querySelector('textarea[aria-label="Ask a question"], input[aria-label="Ask a question"]');
        return box && !box.disabled && box.getClientRects().length > 0 ? performance.now() : false;
      },
      undefined,
      { polling: 'raf', timeout: 60_000 },
    );
    await page.waitForFunction(() => performance.getEntriesByName('dataseer:duckdb-ready').length > 0, undefined, { timeout: 120_000, polling: 50 });
    const duckdb = await page.evaluate(() => {
      const e = performance.getEntriesByName('dataseer:duckdb-ready')[0];
      return e.startTime + e.duration;
    });
    // The Python worker warms by itself shortly after first paint; its status says when it is up.
    const python = await page.waitForFunction(
      () => (document.querySelector('[aria-label="Python status"]')?.getAttribute('data-status') === 'ready' ? performance.now() : false),
      undefined,
      { polling: 50, timeout: 180_000 },
    );
    return { composer: await composer.jsonValue(), duckdb, python: await python.jsonValue() };
  } finally {
    await context.close();
  }
}

/** The steps of DuckDB's start, as the page marks them (DataClient: `dataseer:duckdb:<step>`). */
const DUCKDB_STEPS = [
  ['worker', "page → DuckDB's worker created (early.ts)"],
  ['spawn', 'page → data worker created'],
  ['boot', 'data worker script loaded and running'],
  ['instantiated', "DuckDB's worker script, .wasm download + compile, module start-up"],
  ['opened', 'database opened'],
  ['extensions', "DuckDB's ICU/JSON/Parquet extensions fetched (or not) and loaded"],
  ['configured', 'settings applied and locked'],
];

const READY_STEP = ['ready', 'saved datasets listed, page told'];

/** One visit in an open profile: when DuckDB and Pyodide were ready, and DuckDB's steps (ms from navigation). */
async function visit(page, baseURL) {
  await page.goto(baseURL);
  await page.waitForFunction(() => performance.getEntriesByName('dataseer:duckdb-ready').length > 0, undefined, { timeout: 120_000, polling: 50 });
  const marks = await page.evaluate(() => {
    const ready = performance.getEntriesByName('dataseer:duckdb-ready')[0];
    const steps = Object.fromEntries(performance.getEntriesByType('mark').filter((m) => m.name.startsWith('dataseer:duckdb:')).map((m) => [m.name.slice('dataseer:duckdb:'.length), m.startTime]));
    return { duckdb: ready.startTime + ready.duration, steps };
  });
  const python = await page.waitForFunction(
    () => {
      const s = document.querySelector('[aria-label="Python status"]');
      return s?.getAttribute('data-status') === 'ready' ? { at: performance.now(), startupMs: Number(s.getAttribute('data-startup-ms')), from: s.getAttribute('data-started-from') } : false;
    },
    undefined,
    { polling: 50, timeout: 180_000 },
  );
  return { ...marks, python: await python.jsonValue() };
}

/** How long each step of DuckDB's start took, in the order the page marks them. */
export function stepDurations(v) {
  let prev = 0;
  const out = [];
  for (const [step, label] of DUCKDB_STEPS) {
    const at = v.steps[step];
    if (at === undefined) continue;
    out.push({ step, label, ms: at - prev });
    prev = at;
  }
  out.push({ step: READY_STEP[0], label: READY_STEP[1], ms: v.duckdb - prev });
  return out;
}

/**
 * Until Python's memory snapshot is in OPFS under its final name (engine-cache/pyodide-*.snapshot,
 * renamed from .partial once written). Polled with `evaluate`, which awaits the check: a
 * `waitForFunction` predicate that is async returns a Promise, which counts as truthy at once.
 */
async function waitForPythonSnapshot(page, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await page.evaluate(async () => {
      try {
        const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('engine-cache');
        for await (const [name, handle] of dir.entries()) {
          if (name.startsWith('pyodide-') && name.endsWith('.snapshot') && handle.kind === 'file' && (await /** @type {FileSystemFileHandle} */ (handle).getFile()).size > 0) return true;
        }
      } catch {
        // No directory yet.
      }
      return false;
    });
    if (found) return;
    if (Date.now() > deadline) throw new Error(`no Python snapshot in OPFS after ${timeoutMs / 1000} s`);
    await page.waitForTimeout(250);
  }
}

const REPEAT_VISITS = 3;

/**
 * A first visit and repeat visits in one real browser profile (a persistent context: the HTTP
 * cache on disk, the service worker installed and its caches filled), as a returning user has.
 */
export async function repeatVisits(baseURL) {
  const dir = mkdtempSync(join(tmpdir(), 'dataseer-bench-profile-'));
  const context = await chromium.launchPersistentContext(dir, launchOptions());
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const first = await visit(page, baseURL);
    // Let the service worker finish caching what the first visit fetched (the engines' files).
    await page.waitForTimeout(3000);
    // Python writes its memory snapshot a few seconds after its first full start (OPFS
    // engine-cache/pyodide-<key>, via a .partial file): the repeat visits must find it, or the
    // Pyodide row measures a full start again instead of the snapshot path.
    await waitForPythonSnapshot(page);
    const repeats = [];
    for (let i = 0; i < REPEAT_VISITS; i++) {
      const v = await visit(page, baseURL);
      // The row is about the snapshot path: a repeat visit that started Python afresh measures
      // something else, and says so rather than passing for it.
      if (v.python.from !== 'snapshot') throw new Error(`repeat visit ${i + 1} started Python ${v.python.from || 'without saying how'}, not from its snapshot`);
      repeats.push(v);
    }
    return { first, repeats };
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A long, realistic markdown answer: paragraphs, lists, a table, code and inline numbers. */
export function longAnswer(tokens) {
  const blocks = [];
  let chars = 0;
  for (let i = 1; chars < tokens * CHARS_PER_TOKEN; i++) {
    const block = [
      `## Finding ${i}`,
      '',
      `Group ${i} has a mean of ${(40 + i * 0.37).toFixed(2)} and a median of ${(39 + i * 0.41).toFixed(1)}; the spread is wider than in group ${i + 1}, which suggests the two are not drawn from the same population.`,
      '',
      `- **Count**: ${100 + i} rows, ${i % 7} missing values`,
      `- **Share**: ${(i % 13) * 3.1}% of all rows`,
      `- Trend: \`${i % 2 ? 'rising' : 'flat'}\` over the period`,
      '',
      '| metric | value |',
      '| --- | --- |',
      `| mean | ${(40 + i * 0.37).toFixed(2)} |`,
      `| std | ${(3 + (i % 5) * 0.2).toFixed(2)} |`,
      '',
      '```sql',
      `SELECT species, avg(body_mass_g) AS mean_mass FROM penguins WHERE island = 'Island ${i}' GROUP BY species;`,
      '```',
      '',
    ].join('\n');
    blocks.push(block);
    chars += block.length;
  }
  return blocks.join('\n');
}

/** Streams a ~10,000-token answer through the real app and reads the long tasks meanwhile. */
/**
 * @param {import('@playwright/test').Browser} browser
 * @param {string} baseURL
 * @param {{ tracePath?: string }} [options]
 */
export async function streamingCost(browser, baseURL, { tracePath } = {}) {
  const { mock, context, page } = await openWithMockModel(browser, baseURL);
  try {

    const content = longAnswer(STREAM_TOKENS);
    const replies = [
      { type: 'text', content, chunk_size: CHARS_PER_TOKEN, chunk_delay_ms: 1 },
      { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
    ];
    const res = await fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify({ replies, replace: true }) });
    if (!res.ok) throw new Error(`mock script: ${res.status}`);

    await page.getByRole('textbox', { name: 'Ask a question' }).fill('Summarise every group in detail.');
    // A trace gives each task's CPU time too: on a loaded machine a task's wall time is mostly waiting.
    if (tracePath) await browser.startTracing(page, { path: tracePath, categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    const t0 = await page.evaluate(() => performance.now());
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    // Waiting through role locators would poll the accessibility tree of a page holding a huge
    // answer, and those polls would be the long tasks measured. A cheap, slow poll instead: the
    // run has ended once Stop is gone (it shows only while a run is in progress).
    await page.waitForFunction(() => [...document.querySelectorAll('button')].some((b) => b.textContent?.trim() === 'Stop'), undefined, { polling: 250, timeout: 60_000 });
    await page.waitForFunction(() => ![...document.querySelectorAll('button')].some((b) => b.textContent?.trim() === 'Stop'), undefined, { polling: 1000, timeout: 300_000 });
    const t1 = await page.evaluate(() => performance.now());
    if (tracePath) await browser.stopTracing();
    const tasks = await page.evaluate(([a, b]) => window.__benchLongTasks.filter((t) => t.start >= a && t.start <= b), [t0, t1]);
    return {
      tokens: Math.ceil(content.length / CHARS_PER_TOKEN),
      ms: t1 - t0,
      longest: tasks.length ? Math.max(...tasks.map((t) => t.duration)) : 0,
      count: tasks.length,
      blocked: tasks.reduce((s, t) => s + t.duration, 0),
    };
  } finally {
    await context.close();
    await mock.close();
  }
}

const RESTORE_DATASETS = 20;
const RESTORE_ROWS = 20_000;

/** Page start → every saved dataset listed again, read from the app's `dataseer:restore` measure. */
async function restoreMs(page) {
  await page.reload();
  await page.waitForFunction(() => performance.getEntriesByName('dataseer:restore').length > 0, undefined, { timeout: 180_000, polling: 50 });
  return page.evaluate(() => {
    const e = /** @type {PerformanceMark} */ (performance.getEntriesByName('dataseer:restore')[0]);
    return { total: e.startTime + e.duration, restore: e.detail?.restoreMs ?? NaN };
  });
}

/** Files in the app's dataset store whose name starts with `prefix` (OPFS, same origin). */
function storedFiles(page, prefix) {
  return page.evaluate(async (p) => {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('datasets', { create: true });
    const names = [];
    for await (const name of dir.keys()) if (name.startsWith(p)) names.push(name);
    return names;
  }, prefix);
}

/**
 * Reopening the app with 20 saved datasets: from their snapshots (the normal path), then with the
 * snapshots deleted so every source is parsed again (what start-up cost before snapshots).
 */
async function restoreCost(browser, baseURL) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(baseURL);
    await page.waitForFunction(() => performance.getEntriesByName('dataseer:duckdb-ready').length > 0, undefined, { timeout: 120_000, polling: 50 });
    const files = Array.from({ length: RESTORE_DATASETS }, (_, f) => {
      const lines = ['id,group,value,day'];
      for (let i = 0; i < RESTORE_ROWS; i++) lines.push(`${i},g${(i * 7 + f) % 13},${((i * 31 + f) % 1000) / 10},2024-01-${String((i % 28) + 1).padStart(2, '0')}`);
      return { name: `restore_${String(f).padStart(2, '0')}.csv`, mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) };
    });
    await page.getByLabel('Add data files').setInputFiles(files);
    await page.waitForFunction((n) => document.querySelectorAll('[aria-label="Datasets"] li').length >= n, RESTORE_DATASETS, { timeout: 300_000, polling: 200 });
    const deadline = Date.now() + 120_000;
    while ((await storedFiles(page, 'snap_')).length < RESTORE_DATASETS && Date.now() < deadline) await page.waitForTimeout(250);
    const snapshots = await restoreMs(page);
    // Without snapshots every source is parsed again (and the snapshots are written anew).
    await page.evaluate(async () => {
      const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('datasets', { create: true });
      const names = [];
      for await (const name of dir.keys()) if (name.startsWith('snap_')) names.push(name);
      for (const name of names) await dir.removeEntry(name);
    });
    const sources = await restoreMs(page);
    return { snapshots, sources };
  } finally {
    await context.close();
  }
}

/**
 * `--only=repeat`: a first visit and repeat visits in one profile, DuckDB's start by step and
 * Pyodide's start from its snapshot (the browser argument is unused: a persistent context).
 */
export async function repeatVisitRows(_browser, baseURL) {
  const rows = [];
  const rv = await repeatVisits(baseURL);
  const fmt = (v) => stepDurations(v).map((d) => `${d.step} ${d.ms.toFixed(0)}`).join(', ');
  console.log(`  first visit in a profile: DuckDB ${rv.first.duckdb.toFixed(0)} ms (${fmt(rv.first)}), Pyodide ${rv.first.python.startupMs} ms (${rv.first.python.from ?? '?'})`);
  for (const [i, v] of rv.repeats.entries()) {
    console.log(`  repeat visit ${i + 1}: DuckDB ${v.duckdb.toFixed(0)} ms (${fmt(v)}), Pyodide ${v.python.startupMs} ms (${v.python.from ?? '?'})`);
  }
  const repeatMed = (f) => Math.round(median(rv.repeats.map(f)));
  rows.push({ name: `repeat visit → DuckDB ready (median of ${REPEAT_VISITS}, goal ≤ 800)`, value: repeatMed((v) => v.duckdb), unit: 'ms' });
  for (const [step, label] of [...DUCKDB_STEPS, READY_STEP]) {
    const firstStep = stepDurations(rv.first).find((d) => d.step === step);
    const repeatSteps = rv.repeats.map((v) => stepDurations(v).find((d) => d.step === step)?.ms).filter((x) => x !== undefined);
    if (firstStep) rows.push({ name: `first visit, DuckDB start: ${label}`, value: Math.round(firstStep.ms), unit: 'ms' });
    if (repeatSteps.length) rows.push({ name: `repeat visit, DuckDB start: ${label} (median)`, value: Math.round(median(repeatSteps)), unit: 'ms' });
  }
  rows.push({ name: `repeat visit → Pyodide ready: worker start → ready (median of ${REPEAT_VISITS}, goal ≤ 1500)`, value: repeatMed((v) => v.python.startupMs), unit: 'ms' });
  rows.push({ name: 'first visit → Pyodide ready: worker start → ready', value: Math.round(rv.first.python.startupMs), unit: 'ms' });

  return rows;
}

/** @returns {Promise<{name: string, value: number, unit: string}[]>} */
export async function appRows(browser, baseURL, distDir) {
  const rows = [];
  const shell = shellBytes(distDir);
  console.log(`  app shell: ${shell.files} files, ${(shell.js / 1024).toFixed(0)} KB JS + ${(shell.css / 1024).toFixed(0)} KB CSS gzipped`);
  rows.push({ name: 'app shell, JS + CSS referenced by index.html (gzip, budget 200)', value: Math.round(shell.total / 102.4) / 10, unit: 'KB' });

  const visits = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const v = await coldVisit(browser, baseURL);
    console.log(`  cold visit ${i + 1}: composer ${v.composer.toFixed(0)}, DuckDB ${v.duckdb.toFixed(0)}, Pyodide ${v.python.toFixed(0)} ms`);
    visits.push(v);
  }
  const med = (k) => Math.round(median(visits.map((v) => v[k])));
  rows.push({ name: `cold load → composer usable (median of ${COLD_RUNS})`, value: med('composer'), unit: 'ms' });
  rows.push({ name: `cold load → DuckDB ready (median of ${COLD_RUNS})`, value: med('duckdb'), unit: 'ms' });
  rows.push({ name: `cold load → Pyodide ready (median of ${COLD_RUNS})`, value: med('python'), unit: 'ms' });

  rows.push(...(await repeatVisitRows(browser, baseURL)));

  const r = await restoreCost(browser, baseURL);
  console.log(
    `  reopen with ${RESTORE_DATASETS} saved datasets: page → all back ${r.snapshots.total.toFixed(0)} ms from snapshots (restore itself ${r.snapshots.restore.toFixed(0)}), ${r.sources.total.toFixed(0)} ms parsing the sources (restore itself ${r.sources.restore.toFixed(0)})`,
  );
  const label = `${RESTORE_DATASETS} saved datasets (${RESTORE_ROWS.toLocaleString('en')} rows each)`;
  rows.push({ name: `reopen with ${label}: restore from snapshots (goal ≤ 1000)`, value: Math.round(r.snapshots.restore), unit: 'ms' });
  rows.push({ name: `reopen with ${label}: restore re-parsing the sources (before snapshots)`, value: Math.round(r.sources.restore), unit: 'ms' });
  rows.push({ name: `reopen with ${label}: page start → all back, from snapshots`, value: Math.round(r.snapshots.total), unit: 'ms' });

  const s = await streamingCost(browser, baseURL);
  console.log(`  streamed ${s.tokens} tokens in ${s.ms.toFixed(0)} ms: ${s.count} long tasks, longest ${s.longest.toFixed(0)} ms, ${s.blocked.toFixed(0)} ms blocked`);
  rows.push({ name: `streaming a ${s.tokens}-token answer: longest main-thread task (goal ≤ 50)`, value: Math.round(s.longest), unit: 'ms' });
  rows.push({ name: 'streaming that answer: long tasks (> 50 ms)', value: s.count, unit: 'count' });
  rows.push({ name: 'streaming that answer: main thread blocked in long tasks', value: Math.round(s.blocked), unit: 'ms' });
  rows.push({ name: 'streaming that answer: send → run ended', value: Math.round(s.ms), unit: 'ms' });
  return rows;
}
