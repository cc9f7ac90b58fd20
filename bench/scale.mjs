// The scale matrix (issue 37): 10 / 150 / 500 / 2,000 columns × 1k / 1M / 10M rows and a ~1 GB
// CSV as a table and as a view, added through the app as a user does: load, the Profile tab, one
// GROUP BY. Native DuckDB (@duckdb/node-api, one thread as DuckDB-WASM runs here, in a process of
// its own: scaleNative.mjs) does the same three steps interleaved with the app's, step by step in
// the same round: read_csv into a table (or a view, counted, when the app made one), SUMMARIZE of
// the columns the app profiled, the same GROUP BY. Per step: time, peak resident memory (the tab's
// process; the native process), DuckDB's wasm memory, the page's longest main-thread task.
// A cell this machine cannot hold or finish in its budget is printed with the reason
// (scalePlan.mjs); the big ones run only with --scale-big. CSVs are written to a temporary folder
// and deleted after their cell.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { duckdbHeapMB, scalar } from './bigfile.mjs';
import { ensureCsv } from './gen-csv.mjs';
import { memAvailableBytes, ourRenderers, peakMB, resetPeaks } from './procMemory.mjs';
import { wideCsv, writeWideCsv } from './scaleCsv.mjs';
import { appCeilingBytes, appMakesView, estimatedBytes, matrixCells, parseLimit, whyNot } from './scalePlan.mjs';
import { coldStart, loadFile, newPage, quiet, runQuery, settled } from './wasm.mjs';
import { longTaskMakeup, TRACE_CATEGORIES } from './wide.mjs';

const PROFILE = 'dataseer:profile';
const BIG = process.argv.includes('--scale-big');
// --scale-trace: each cell also records a Chromium trace with V8's sampler and prints what its
// longest tasks were made of (wide.mjs's reader; build with `--minify false` to read names).
const TRACE = process.argv.includes('--scale-trace');
const BUDGET_MS = Number(process.env.BENCH_SCALE_CELL_MIN ?? 20) * 60_000;
const STEP_TIMEOUT = 3_600_000;
// BENCH_SCALE_ONLY=scale_10c_1k,scale_1gb: just those cells (by key); the others say so.
const ONLY = process.env.BENCH_SCALE_ONLY?.split(',').filter(Boolean);
const GEN_COLUMNS = ['id', 'qty', 'price', 'score', 'category', 'event_date', 'note'];


/**
 * Writes a cell's CSV into `dir` (the 1 GB one by gen-csv.mjs; the wide ones by scaleCsv.mjs, kept
 * in BENCH_SCALE_CACHE when set). keep: the file is the cache's, not deleted after its cell.
 * @returns {Promise<{ path: string, cached: boolean, keep: boolean }>}
 */
async function writeCsv(cell, dir) {
  if (cell.source === 'gen') return { path: await ensureCsv({ rows: cell.rows, fileName: `${cell.key}.csv`, dir }), cached: false, keep: false };
  return wideCsv(cell.key, cell.cols, cell.rows, dir);
}

const groupBySql = (cell) =>
  cell.source === 'gen'
    ? `SELECT category, count(*) AS n, avg(price) AS avg_price, max(qty) AS max_qty FROM ${cell.key} GROUP BY category ORDER BY category`
    : `SELECT c0, count(*) AS n, avg(c1) AS avg_c1, max(c2) AS max_c2 FROM ${cell.key} GROUP BY c0 ORDER BY c0`;

const columnNames = (cell, n) => (cell.source === 'gen' ? GEN_COLUMNS.slice(0, n) : Array.from({ length: n }, (_, i) => `c${i}`));

/** Native DuckDB in its own process, one step at a time (scaleNative.mjs). */
async function startNative() {
  const child = spawn(process.execPath, [join(dirname(fileURLToPath(import.meta.url)), 'scaleNative.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`native DuckDB ended (exit ${child.exitCode ?? child.signalCode ?? '?'})`);
    return JSON.parse(value);
  };
  const hello = await next();
  return {
    version: hello.version,
    /** @returns {Promise<{ ms: number, peakMB: number }>} */
    async step(msg) {
      child.stdin.write(`${JSON.stringify(msg)}\n`);
      const answer = await next();
      if (answer.error) throw new Error(`native ${msg.op}: ${answer.error}`);
      return answer;
    },
    close() {
      child.stdin.end(`${JSON.stringify({ op: 'quit' })}\n`);
      setTimeout(() => child.kill(), 5000).unref();
    },
  };
}

/**
 * A device with `gib` GiB of memory, for the data worker: its memory limit and footprint ceiling
 * follow navigator.deviceMemory (memoryBudget.ts), which no DevTools command overrides, so the
 * worker's script is served with the property redefined ahead of it.
 */
async function emulateDeviceMemory(context, gib) {
  await context.route(/\/assets\/data\.worker-[^/]*\.js$/, async (route) => {
    const response = await route.fetch();
    const body = `Object.defineProperty(WorkerNavigator.prototype, 'deviceMemory', { get: () => ${gib}, configurable: true });\n${await response.text()}`;
    await route.fulfill({ response, body });
  });
}

async function longestTask(page, from, to) {
  return page.evaluate(([a, b]) => Math.max(0, ...(window.__benchLongTasks ?? []).filter((x) => x.start < b && x.start + x.duration > a).map((x) => x.duration)), [from, to]);
}

/** The long tasks that started in [from, to): the steps split the cell's time with no gap, so each task is counted once. */
async function tasksIn(page, from, to) {
  return page.evaluate(([a, b]) => (window.__benchLongTasks ?? []).filter((x) => x.start >= a && x.start < b).map((x) => Math.round(x.duration)), [from, to]);
}

/**
 * Waits for the load report's checks to end (the report stops saying so) and, for a table, for
 * the background copy and snapshot; then a second for what the page draws after.
 */
async function loadReportInApp(page, view) {
  await page.waitForFunction(() => !document.body.innerText.includes('Checking what auto-detection may have got wrong'), undefined, { timeout: STEP_TIMEOUT, polling: 250 });
  // The background copy and snapshot of a table would share the cores with the profile.
  if (!view) await quiet(page, 0).catch(() => undefined);
  await page.waitForTimeout(1000);
}

/**
 * Opens the Profile tab of the dataset just added and waits for its profile. The rail asks for
 * the same profile as soon as the dataset is listed (DataClient keeps one per state of the
 * dataset), so the measure to wait for is the first for `name` since `since`, whoever asked.
 */
async function profileInApp(page, name, since) {
  await page.getByRole('tab', { name: 'Profile', exact: true }).click({ timeout: 120_000 });
  const found = ([n, table, t]) => performance.getEntriesByName(n).find((e) => e.startTime >= t && 'detail' in e && /** @type {PerformanceMeasure} */ (e).detail?.name === table);
  await page.waitForFunction(found, [PROFILE, name, since], { timeout: STEP_TIMEOUT, polling: 250 });
  const entry = await page.evaluate(([n, table, t]) => {
    const e = /** @type {PerformanceMeasure} */ (performance.getEntriesByName(n).find((x) => x.startTime >= t && 'detail' in x && /** @type {PerformanceMeasure} */ (x).detail?.name === table));
    return { duration: e.duration, detail: e.detail };
  }, [PROFILE, name, since]);
  if (!entry.detail?.ok) throw new Error(`the profile failed: ${(await page.getByRole('alert').allTextContents()).join(' / ')}`);
  // "N columns profiled over R rows in T ms": the tab covers the first columns of a wide table,
  // and T is the profile's own time in the data worker (no wait in its queue).
  const said = await page.getByText(/columns profiled over/).first().innerText({ timeout: 120_000 });
  const m = /^([\d,]+) columns profiled over [\d,]+ rows in ([\d,]+) ms/.exec(said.trim());
  if (!m) throw new Error(`the profile said "${said.trim().slice(0, 120)}"`);
  return { askedMs: entry.duration, columns: Number(m[1].replaceAll(',', '')), engineMs: Number(m[2].replaceAll(',', '')) };
}

/**
 * One app step beside its native twin: peaks reset, the app's step, its longest task and memory,
 * then the native step.
 */
async function pair(page, appStep, nativeStep) {
  resetPeaks(ourRenderers());
  const t0 = await page.evaluate(() => performance.now());
  const app = await appStep();
  const t1 = await page.evaluate(() => performance.now());
  const tab = peakMB(ourRenderers());
  const wasm = await duckdbHeapMB(page);
  const longest = await longestTask(page, t0, t1);
  const native = await nativeStep(app);
  return { app, tab, wasm, longest, native };
}

/** Waits until the number of profile cards drawn has not changed for a second (they are drawn in batches). */
async function cardsDrawn(page) {
  let last = -1;
  for (;;) {
    const n = await page.locator('article[aria-label^="Profile of "]').count();
    if (n === last) return n;
    last = n;
    await page.waitForTimeout(1000);
  }
}

/** Runs one cell: app and native, step by step. */
async function runCell(browser, baseURL, cell, path, planned, onLimit) {
  const mb = statSync(path).size / 1e6;
  const began = performance.now();
  const say = (what) => console.log(`    ${((performance.now() - began) / 1000).toFixed(0)} s: ${what}`);
  const native = await startNative();
  const { context, page } = await newPage(browser);
  const tracePath = join(tmpdir(), `dataseer-scale-${cell.key}-${process.pid}.json`);
  try {
    if (cell.view) await emulateDeviceMemory(context, 1);
    await coldStart(page, baseURL);
    await settled(page);
    // The data worker's own memory_limit (from its navigator.deviceMemory), for the next plans.
    if (!cell.view) onLimit(parseLimit(await scalar(page, "SELECT current_setting('memory_limit')")));
    if (TRACE) await browser.startTracing(page, { path: tracePath, categories: TRACE_CATEGORIES });
    say('page up; load');
    const at = () => page.evaluate(() => performance.now());
    const loadStart = await at();
    /** [step, page time it ended]: the steps split the cell's time from load to GROUP BY with no gap. */
    const marks = [];
    const load = await pair(
      page,
      () => loadFile(page, path, STEP_TIMEOUT),
      () => native.step({ op: 'load', path, table: cell.key, view: planned.view }),
    );
    marks.push(['load', await at()]);
    say('loaded; load report');
    await loadReportInApp(page, planned.view);
    marks.push(['load report (checks, copy)', await at()]);
    say('profile');
    const profile = await pair(
      page,
      () => profileInApp(page, cell.key, loadStart),
      (p) => native.step({ op: 'summarize', table: cell.key, columns: columnNames(cell, p.columns) }),
    );
    const cards = await cardsDrawn(page);
    marks.push([`profile (${cards} cards drawn)`, await at()]);
    // Where the app made a view, native SUMMARIZE above read the view as the app did (like for
    // like); SUMMARIZE over a table of the same columns is printed beside it for reference.
    let reference;
    if (planned.view) {
      const cols = columnNames(cell, profile.app.columns);
      const bytes = cols.length * cell.rows * 8;
      const avail = memAvailableBytes();
      if (avail !== null && bytes > avail / 2) reference = { why: `a table of ${cols.length} columns would hold ~${(bytes / 1e9).toFixed(1)} GB; ${(avail / 1e9).toFixed(1)} GB is available` };
      else {
        say('native reference: the profiled columns as a table, SUMMARIZE');
        const load = await native.step({ op: 'load', path, table: `${cell.key}_ref`, view: false, columns: cols });
        const summarize = await native.step({ op: 'summarize', table: `${cell.key}_ref`, columns: cols });
        await native.step({ op: 'drop', table: `${cell.key}_ref` });
        reference = { load, summarize };
      }
    }
    say('GROUP BY');
    const group = await pair(
      page,
      () => runQuery(page, groupBySql(cell), 8, 0, STEP_TIMEOUT),
      () => native.step({ op: 'query', sql: groupBySql(cell) }),
    );
    await page.waitForTimeout(1000);
    marks.push(['GROUP BY', await at()]);
    if (TRACE) await browser.stopTracing();
    const steps = [];
    let from = loadStart;
    for (const [step, end] of marks) {
      const tasks = await tasksIn(page, from, end);
      steps.push({ step, longest: Math.max(0, ...tasks), tasks });
      from = end;
    }
    // The whole cell, the waits between steps included (the rail's profile may run during them).
    const longest = await longestTask(page, loadStart, await at());
    const kind = await scalar(page, `SELECT table_type FROM information_schema.tables WHERE table_name = '${cell.key}'`);
    const view = kind === 'VIEW';
    if (cell.view && !view) throw new Error(`the app made a ${kind}, not a view: the 1 GiB device emulation did not reach its data worker`);
    if (view !== planned.view) {
      // The plan guessed wrong: native reads the file again the way the app did, so the
      // profile's baseline is like for like (run after the app's steps, said in the row).
      say(`native again ${view ? 'as a view' : 'as a table'}, as the app made it`);
      const again = `${cell.key}_as_app`;
      load.native = await native.step({ op: 'load', path, table: again, view });
      profile.native = await native.step({ op: 'summarize', table: again, columns: columnNames(cell, profile.app.columns) });
      planned.view = view;
      planned.redone = true;
    }
    // longTaskMakeup gives { tasks, cpuByStep }; this bench marks no steps in the trace, so only the tasks.
    const makeup = TRACE ? longTaskMakeup(tracePath, 8).tasks : null;
    return { mb, view, nativeView: planned.view, nativeRedone: planned.redone === true, nativeVersion: native.version, load, profile, group, longest, steps, makeup, reference };
  } catch (e) {
    await page.screenshot({ path: join(tmpdir(), `${cell.key}-failed.png`) }).catch(() => undefined);
    throw e;
  } finally {
    await context.close();
    native.close();
    rmSync(tracePath, { force: true });
  }
}

const fmtMB = (v) => (v === null || v === undefined ? '?' : `${v.toLocaleString('en')} MB`);

/** Rows and a console line for a measured cell. */
function cellRows(cell, r, note) {
  const storage = r.view ? 'as a view' : 'as a table';
  const mismatch =
    r.view === r.nativeView ? (r.nativeRedone ? '; native planned otherwise and read it again as the app did, after its steps' : '') : `; native ran it ${r.nativeView ? 'as a view' : 'as a table'} (planned), the app made ${storage}`;
  const p = r.profile.app;
  const ofAll = p.columns < cell.cols ? `its first ${p.columns.toLocaleString('en')} of ${cell.cols.toLocaleString('en')} columns` : `all ${p.columns.toLocaleString('en')} columns`;
  const steps = [
    ['load', r.load.app.ms, r.load],
    ['profile', p.engineMs, r.profile],
    ['GROUP BY', r.group.app.firstMs, r.group],
  ];
  console.log(
    `  ${cell.label} (${r.mb.toFixed(0)} MB CSV, ${storage}${mismatch})${note}: ` +
      steps.map(([s, ms, x]) => `${s} ${ms.toFixed(0)} ms vs native ${x.native.ms.toFixed(0)} (tab peak ${fmtMB(x.tab)}, native ${fmtMB(x.native.peakMB)}, wasm ${fmtMB(x.wasm)}, longest task ${x.longest.toFixed(0)} ms)`).join('; ') +
      `; profile asked → answered ${p.askedMs.toFixed(0)} ms`,
  );
  const label = `${cell.label}${note}`;
  const out = [];
  const row = (name, value, unit, baseline) => {
    const o = { name: `${label}: ${name}`, value: Math.round(value), unit };
    if (baseline) Object.assign(o, { baseline: { name: baseline.name, value: Math.round(baseline.value) }, ratio: Math.round((value / baseline.value) * 100) / 100 });
    out.push(o);
  };
  const mem = (x) => `tab's process peak ${fmtMB(x.tab)}, native process peak ${fmtMB(x.native.peakMB)}`;
  row(`load (${r.mb.toFixed(0)} MB CSV, ${storage}${mismatch}; ${mem(r.load)})`, r.load.app.ms, 'ms', { name: `native, threads = 1, same round: ${r.nativeView ? 'CREATE VIEW + count(*)' : 'CREATE TABLE AS read_csv'}`, value: r.load.native.ms });
  row(`profile, ${ofAll} (data worker's time; ${mem(r.profile)})`, p.engineMs, 'ms', { name: `native, threads = 1, same round: SUMMARIZE of the same columns${r.nativeView ? ' over a view of the file, as the app read it' : ''}`, value: r.profile.native.ms });
  if (r.reference?.summarize) {
    console.log(`    reference (native, not like for like): the same ${p.columns} columns read into a table in ${r.reference.load.ms.toFixed(0)} ms, SUMMARIZE over that table ${r.reference.summarize.ms.toFixed(0)} ms (peak ${fmtMB(r.reference.summarize.peakMB)}); app's profile ÷ it: ${(p.engineMs / r.reference.summarize.ms).toFixed(2)}×`);
    row(`reference: native SUMMARIZE of the same columns over a table (read into it in ${Math.round(r.reference.load.ms).toLocaleString('en')} ms, not timed here)`, r.reference.summarize.ms, 'ms');
  } else if (r.reference?.why) console.log(`    reference SUMMARIZE over a table not run: ${r.reference.why}`);
  row('profile, asked (by the rail, as the dataset is listed) → answered, queue included', p.askedMs, 'ms');
  row(`GROUP BY (engine, first run; ${mem(r.group)})`, r.group.app.firstMs, 'ms', { name: 'native, threads = 1, same round: same query', value: r.group.native.ms });
  const wasm = [r.load.wasm, r.profile.wasm, r.group.wasm].filter((v) => typeof v === 'number');
  if (wasm.length) row("DuckDB's wasm memory at its peak (it never shrinks)", Math.max(...wasm), 'MB');
  for (const s of r.steps) {
    console.log(`    ${s.step}: longest task ${s.longest} ms (${s.tasks.length} over 50 ms${s.tasks.length ? `: ${s.tasks.sort((a, b) => b - a).slice(0, 8).join(', ')}` : ''})`);
    row(`${s.step}: the page's longest main-thread task (goal ≤ 200)`, s.longest, 'ms');
  }
  for (const t of r.makeup ?? []) console.log(`    a ${t.ms} ms task (trace): ${t.work.join('; ')}`);
  row("the page's longest main-thread task, from load to GROUP BY (goal ≤ 200)", r.longest, 'ms');
  return out;
}

/** @returns {Promise<{name: string, value: number | null, unit: string, baseline?: {name: string, value: number}, ratio?: number}[]>} */
export async function scaleRows(browser, baseURL) {
  const rows = [];
  const dir = mkdtempSync(join(tmpdir(), 'dataseer-scale-'));
  const perRow = new Map();
  const free = () => {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  };
  // The ceiling follows the browser's navigator.deviceMemory (8 at most in Chromium).
  const probe = await browser.newPage();
  const deviceMemory = (await probe.evaluate(() => /** @type {Navigator & { deviceMemory?: number }} */ (navigator).deviceMemory).catch(() => undefined)) ?? 4;
  await probe.close();
  /** @type {import('./scalePlan.mjs').PlanContext} */
  const ctx = { big: BIG, tmpFreeBytes: free(), memAvailableBytes: memAvailableBytes(), ceilingBytes: appCeilingBytes(deviceMemory), budgetMs: BUDGET_MS, bytesPerRow: (c) => perRow.get(c), done: [] };
  console.log(`  scale matrix: browser deviceMemory ${deviceMemory} GiB → the app attaches a CSV as a view past ~${((ctx.ceilingBytes - 768 * 1024 ** 2) / 1.5 / 1e9).toFixed(2)} GB (less for short values); ${BIG ? 'all cells' : 'small cells (--scale-big for the rest)'}; ${BUDGET_MS / 60_000} min budget a cell`);
  const cells = matrixCells();
  try {
    for (const [i, cell] of cells.entries()) {
      ctx.tmpFreeBytes = free();
      ctx.memAvailableBytes = memAvailableBytes();
      // A width whose 1k-row file was not written (BENCH_SCALE_ONLY): its bytes a row from one,
      // so the cell's CSV size, table-or-view and time can be estimated before it is written.
      if (cell.source === 'range' && !perRow.has(cell.cols) && (!ONLY || ONLY.includes(cell.key))) {
        const probe = join(dir, `${cell.key}_probe.csv`);
        await writeWideCsv(cell.cols, 1_000, probe);
        perRow.set(cell.cols, statSync(probe).size / 1_000);
        rmSync(probe, { force: true });
      }
      const why = ONLY && !ONLY.includes(cell.key) ? 'not run: not in BENCH_SCALE_ONLY' : whyNot(cell, ctx);
      if (why) {
        console.log(`  ${cell.label}: ${why}`);
        rows.push({ name: `${cell.label}: ${why}`, value: null, unit: '' });
        continue;
      }
      const bytes = estimatedBytes(cell, ctx);
      const planned = { view: cell.view ?? (bytes !== undefined && appMakesView(bytes, cell.rows * cell.cols, ctx.ceilingBytes)) };
      let path;
      let keep = false;
      try {
        const t0 = performance.now();
        const written = await writeCsv(cell, dir);
        path = written.path;
        keep = written.keep;
        const writeMs = performance.now() - t0;
        if (cell.source === 'range') perRow.set(cell.cols, statSync(path).size / cell.rows);
        // Planned again from the file written (not an estimate): native must read it as the app will.
        planned.view = cell.view ?? appMakesView(statSync(path).size, cell.rows * cell.cols, ctx.ceilingBytes);
        console.log(`  ${cell.label}: CSV ${written.cached ? 'reused from BENCH_SCALE_CACHE' : 'written'} in ${(writeMs / 1000).toFixed(0)} s (${(statSync(path).size / 1e6).toFixed(0)} MB)`);
        const load = loadavg()[0];
        const r = await runCell(browser, baseURL, cell, path, planned, (limit) => {
          if (limit === undefined || limit + 768 * 1024 ** 2 === ctx.ceilingBytes) return;
          ctx.ceilingBytes = limit + 768 * 1024 ** 2;
          console.log(`  the app's DuckDB memory_limit is ${(limit / 1024 ** 3).toFixed(2)} GiB: it attaches a CSV as a view past ~${((ctx.ceilingBytes - 768 * 1024 ** 2) / 1.5 / 1e9).toFixed(2)} GB (less for short values)`);
        });
        const note = ` [load average ${load.toFixed(1)} → ${loadavg()[0].toFixed(1)}]`;
        rows.push(...cellRows(cell, r, note));
        const appMs = r.load.app.ms + r.profile.app.engineMs + r.group.app.firstMs;
        const nativeMs = r.load.native.ms + r.profile.native.ms + r.group.native.ms;
        ctx.done.push({ cell, mb: r.mb, view: r.view, appMs, appLoadMs: r.load.app.ms, nativeMs, nativeLoadMs: r.load.native.ms, writeMs });
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        console.error(`  ${cell.label} failed: ${message}`);
        rows.push({ name: `${cell.label}: FAILED — ${message.slice(0, 200)}`, value: null, unit: '' });
        process.exitCode = 1;
      } finally {
        // The 1 GB file serves the table and the view cells; every other file goes at once.
        if (path && !keep && cells[i + 1]?.key !== cell.key) rmSync(path, { force: true });
        if (path && !keep && cells[i + 1]?.key !== cell.key) rmSync(`${path}.meta.json`, { force: true });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
