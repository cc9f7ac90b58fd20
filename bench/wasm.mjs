// Drives the built app (or the bench harness, which offers the same accessible names and records
// the same performance.measure entries) in headless Chromium and reads its User Timing entries.
import { basename } from 'node:path';
import { CSV_GROUP_BY, CSV_GROUP_BY_ROWS, CSV_ROWS, CSV_TABLE, median, PARQUET_AGGREGATE, PARQUET_FILE, PARQUET_TABLE, REPEATS } from './workload.mjs';

const READY = 'dataseer:duckdb-ready';
const LOAD = 'dataseer:load';
const QUERY = 'dataseer:query';
const LOAD_TIMEOUT = 240_000;
/** Timed runs of a query after its first (see runQuery). */
const QUERY_REPEATS = 5;

// Runs in the page before any app script: collects main-thread long tasks for the whole visit,
// and timestamps the data worker's progress events (read off its messages, not changed) so a
// load's time can be split by phase.
function instrumentPage() {
  const w = window;
  w.__benchLongTasks = [];
  w.__benchPhases = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__benchLongTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    constructor(url, options) {
      super(url, options);
      this.addEventListener('message', (ev) => {
        const event = ev.data?.kind === 'event' ? ev.data.event : undefined;
        if (event?.type === 'progress') w.__benchPhases.push({ t: performance.now(), loadId: event.loadId, phase: event.phase });
      });
    }
  };
}

/** Time per load phase (first event of a phase → first event of the next; the last runs to `end`). */
async function phaseBreakdown(page, from, end) {
  const events = await page.evaluate(([a, b]) => window.__benchPhases.filter((e) => e.t >= a && e.t <= b), [from, end]);
  const firsts = [];
  for (const e of events) if (!firsts.some((f) => f.phase === e.phase)) firsts.push(e);
  const parts = [];
  let prev = { phase: 'before first progress event', t: from };
  for (const f of [...firsts, { phase: '', t: end }]) {
    parts.push(`${prev.phase} ${(f.t - prev.t).toFixed(0)}`);
    prev = f;
  }
  return parts.join(', ');
}

async function entries(page, name) {
  return page.evaluate(
    (n) => performance.getEntriesByName(n).map((e) => ({ startTime: e.startTime, duration: e.duration, detail: 'detail' in e ? e.detail : null })),
    name,
  );
}

async function waitForEntry(page, name, count, timeout) {
  await page.waitForFunction(([n, c]) => performance.getEntriesByName(n).length > c, [name, count], { timeout, polling: 100 });
  const all = await entries(page, name);
  return all[count];
}

export async function newPage(browser) {
  const context = await browser.newContext();
  await context.addInitScript(instrumentPage);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`  [page error] ${e.message}`));
  return { context, page };
}

/**
 * Page load → DuckDB ready, measured from navigation start to the end of the ready measure.
 * Also reports how long DuckDB's .wasm download took, to tell transfer from compile + open.
 */
export async function coldStart(page, url) {
  const wasmFetches = [];
  const onFinished = (req) => {
    const path = new URL(req.url()).pathname;
    if (!path.endsWith('.wasm') || !path.includes('duckdb')) return;
    const t = req.timing();
    wasmFetches.push(t.responseEnd);
  };
  page.context().on('requestfinished', onFinished);
  await page.goto(url);
  const ready = await waitForEntry(page, READY, 0, 120_000);
  page.context().off('requestfinished', onFinished);
  return { ms: ready.startTime + ready.duration, wasmFetchMs: wasmFetches.length ? Math.max(...wasmFetches) : undefined };
}

/**
 * Waits until the page has finished starting up (the app warms Python after its first paint), so
 * a load measures the load path rather than the two cores it shares with start-up work. The
 * harness has no Python status and is settled once DuckDB is ready.
 */
export async function settled(page) {
  const status = page.locator('[aria-label="Python status"]');
  if (!(await status.count())) return;
  await page.waitForFunction(() => document.querySelector('[aria-label="Python status"]')?.getAttribute('data-status') === 'ready', undefined, { timeout: 180_000, polling: 100 });
  // The first start writes Python's memory snapshot in the background; let it finish.
  await page.waitForTimeout(1500);
}

/**
 * Waits until the app's background work after a load is over: the copy of the source for the
 * next visit (the list says "Saving for your next visit…" meanwhile) and the dataset's snapshot
 * (OPFS `datasets/snap_*`). A query timed during them shares the two cores with that work and
 * measures the machine, not the engine.
 */
export async function quiet(page, snapshotsBefore) {
  await page.waitForFunction(() => !document.body.innerText.includes('Saving for your next visit'), undefined, { timeout: 120_000, polling: 200 });
  // Snapshot files appear when their write starts: wait for a new one, then for their bytes to
  // stop growing.
  const snapshots = () =>
    page.evaluate(async () => {
      const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('datasets', { create: true });
      let count = 0;
      let bytes = 0;
      for await (const [name, handle] of dir.entries()) {
        if (!name.startsWith('snap_') || handle.kind !== 'file') continue;
        count++;
        bytes += (await /** @type {FileSystemFileHandle} */ (handle).getFile()).size;
      }
      return { count, bytes };
    });
  const deadline = Date.now() + 60_000;
  let last = await snapshots();
  while (last.count <= snapshotsBefore && Date.now() < deadline) {
    await page.waitForTimeout(250);
    last = await snapshots();
  }
  for (;;) {
    await page.waitForTimeout(1500);
    const now = await snapshots();
    if (now.bytes === last.bytes || Date.now() > deadline) return now.count;
    last = now;
  }
}

/** Loads a file through the file input; returns the load measure and the longest long task meanwhile (`timeout`: ms to wait for it). */
export async function loadFile(page, path, timeout = LOAD_TIMEOUT) {
  const fileName = basename(path);
  const before = (await entries(page, LOAD)).length;
  const t0 = await page.evaluate(() => performance.now());
  await page.getByLabel('Add data files').setInputFiles(path);
  const load = await waitForEntry(page, LOAD, before, timeout);
  if (!load.detail?.ok) {
    const shown = await page.getByRole('alert').allTextContents().catch(() => []);
    throw new Error(`loading ${fileName} failed${shown.length ? `: ${shown.join(' / ')}` : ''}`);
  }
  if (load.detail.fileName !== fileName) throw new Error(`expected a load of ${fileName}, saw ${load.detail.fileName}`);
  const end = load.startTime + load.duration;
  const longest = await page.evaluate(
    ([from, to]) =>
      Math.max(0, ...(window.__benchLongTasks ?? []).filter((t) => t.start < to && t.start + t.duration > from).map((t) => t.duration)),
    [t0, end],
  );
  return { ms: load.duration, longestTaskMs: longest, phases: await phaseBreakdown(page, load.startTime, end) };
}

/**
 * Brings the SQL console up as a user does, by its tab in `Views`: adding a file opens the Data
 * view, which hides the console (the bench's engine rows failed there after the first load). The
 * harness has no tabs and always shows its console.
 */
export async function showSqlConsole(page) {
  const editor = page.getByRole('textbox', { name: 'SQL query', exact: true });
  if (await editor.isVisible()) return;
  const tab = page.getByRole('tablist', { name: 'Views', exact: true }).getByRole('tab', { name: 'SQL', exact: true });
  if ((await tab.count()) === 0) return;
  await tab.click();
  await editor.waitFor({ state: 'visible', timeout: 30_000 });
}

/**
 * Runs SQL through the console: once on its own (`firstMs`: V8 compiles and tiers up DuckDB's code
 * for a query's shape as it first runs), then `repeats` more times for the medians.
 */
export async function runQuery(page, sql, expectRows, repeats = QUERY_REPEATS, timeout = 120_000) {
  const engine = [];
  const roundTrip = [];
  let firstMs = NaN;
  await showSqlConsole(page);
  const editor = page.getByRole('textbox', { name: 'SQL query', exact: true });
  await editor.fill(sql);
  for (let i = -1; i < repeats; i++) {
    const before = (await entries(page, QUERY)).length;
    await page.getByRole('button', { name: 'Run SQL' }).click();
    const q = await waitForEntry(page, QUERY, before, timeout);
    if (typeof q.detail?.rowCount !== 'number') throw new Error(`query measure without rowCount: ${JSON.stringify(q.detail)}`);
    if (expectRows !== undefined && q.detail.rowCount !== expectRows) {
      throw new Error(`query returned ${q.detail.rowCount} rows, expected ${expectRows}`);
    }
    if (i < 0) {
      firstMs = Number(q.detail.elapsedMs);
      continue;
    }
    engine.push(Number(q.detail.elapsedMs));
    roundTrip.push(q.duration);
  }
  return { firstMs, engineMs: median(engine), roundTripMs: median(roundTrip) };
}

/** The reader the selected dataset's load report names ("Read by …"), or what it could not say. */
async function readerShown(page) {
  const text = await page
    .getByText(/^Read by /)
    .first()
    .innerText({ timeout: 10_000 })
    .catch(() => '');
  return text ? text.replace(/^Read by /, '').replace(/\.$/, '') : 'a reader the page did not name';
}

async function assertDataset(page, table) {
  await page.getByRole('list', { name: 'Datasets' }).getByText(table, { exact: false }).first().waitFor({ timeout: 30_000 });
}

/**
 * @param {import('@playwright/test').Browser} browser
 * @param {string} url the app (or harness) page
 * @param {string} csvPath
 * @param {number} aggregateRows rows the native engine returned for the parquet aggregate
 */
export async function runWasm(browser, url, csvPath, aggregateRows) {
  const starts = [];
  for (let i = 0; i < REPEATS; i++) {
    const { context, page } = await newPage(browser);
    const start = await coldStart(page, url);
    starts.push(start.ms);
    const fetch = start.wasmFetchMs === undefined ? '' : ` (.wasm fetch ${start.wasmFetchMs.toFixed(0)} ms)`;
    console.log(`  cold start ${i + 1}: ${start.ms.toFixed(0)} ms${fetch}`);
    await context.close();
  }

  const { context, page } = await newPage(browser);
  try {
    await coldStart(page, url);
    await settled(page);
    const csv = await loadFile(page, csvPath);
    await assertDataset(page, CSV_TABLE);
    // Untimed: the last generated row made it in, so the timing is of a complete ingest.
    await runQuery(page, `SELECT id FROM ${CSV_TABLE} WHERE id >= ${CSV_ROWS - 1}`, 1, 0);
    console.log(`  csv ingest: ${csv.ms.toFixed(0)} ms, longest long task ${csv.longestTaskMs.toFixed(0)} ms; ms by phase: ${csv.phases}`);
    const saved = await quiet(page, 0);
    const groupBy = await runQuery(page, CSV_GROUP_BY, CSV_GROUP_BY_ROWS);
    const parquet = await loadFile(page, PARQUET_FILE);
    await assertDataset(page, PARQUET_TABLE);
    // The load report says which reader the app used (DuckDB's read_parquet or parquet-wasm).
    parquet.reader = await readerShown(page);
    console.log(`  parquet load: ${parquet.ms.toFixed(0)} ms, longest long task ${parquet.longestTaskMs.toFixed(0)} ms; ms by phase: ${parquet.phases}`);
    await quiet(page, saved);
    const aggregate = await runQuery(page, PARQUET_AGGREGATE, aggregateRows);
    return { coldStart: median(starts), csv, groupBy, parquet, aggregate };
  } finally {
    await context.close();
  }
}

/** Hands a file to the harness's bare.html and returns what it measured (its output's data-*). */
async function bareRun(browser, url, path, key) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error(`  [page error] ${e.message}`));
    await page.goto(url);
    await page.getByLabel('Bare file').setInputFiles(path);
    await page.waitForFunction((k) => {
      const o = document.getElementById('result');
      return o && (o.dataset[k] || o.dataset.error);
    }, key, { timeout: LOAD_TIMEOUT * 2, polling: 100 });
    const data = await page.locator('#result').evaluate((o) => ({ ...o.dataset }));
    if (data.error) throw new Error(`bare run of ${basename(path)} failed: ${data.error}`);
    return data;
  } finally {
    await context.close();
  }
}

/**
 * A bare read_csv of the same file in DuckDB-WASM started by the app's own boot code (the
 * harness's bare.html): what the engine alone costs, to divide the app's load by; and the GROUP BY
 * on its rows, in one call and through the app's query path.
 * @returns {Promise<{ firstMs: number, defaultMs: number, appOptionsMs: number, rows: number, groupBy: { direct: number, viaApp: number, viaModel: number, viaModelInARow?: number } }>}
 */
export async function runBareCsv(browser, url, csvPath) {
  const data = await bareRun(browser, url, csvPath, 'defaultMs');
  return { groupBy: JSON.parse(data.groupBy), firstMs: Number(data.firstMs), defaultMs: Number(data.defaultMs), appOptionsMs: Number(data.appOptionsMs), rows: Number(data.rows) };
}

/**
 * Parquet through the app's reader and Arrow insert alone (harness bare.html): decoding only, then
 * decode + insert as the engine's first Arrow insert and again warm, and warm loads with other
 * batch sizes.
 * @returns {Promise<{ decodeMs: number, coldMs: number, warmMs: number, rows: number, byBatchRows: Record<string, number> }>}
 */
export async function runBareParquet(browser, url, parquetPath) {
  return JSON.parse((await bareRun(browser, url, parquetPath, 'parquet')).parquet);
}
