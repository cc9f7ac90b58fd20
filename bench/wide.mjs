// The page's main thread on wide tables (issue #37): a 600- and a 2,000-column × 5,000-row CSV
// added as a user adds it, with a scripted model set up, through load, the load report's checks,
// the preview, the dictionary draft, the Profile tab and a `SELECT *` in the SQL console whose
// grid is then scrolled to its last column. Long tasks (PerformanceObserver, wall time) are
// counted in the step they start in; the goal is ≤ 200 ms in every step.
// `node bench/run.mjs --only=wide` (after a build) takes just these rows; with `--wide-trace`
// each table also records a Chromium trace with V8's sampling profiler and prints the functions
// that ran longest inside the long tasks (build with `--minify false` to read their names).
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWithMockModel } from './app.mjs';
import { CACHE_DIR } from './gen-csv.mjs';

const ROWS = 5_000;
const TRACE = process.argv.includes('--wide-trace');
/** `--wide-columns=600,2000` (the default) picks the tables. */
const COLUMNS = (process.argv.find((a) => a.startsWith('--wide-columns='))?.slice('--wide-columns='.length) ?? '600,2000').split(',').map(Number);
/** The step the trace's own start is put in (see `wideCost`). */
const TRACE_START = 'trace started';
export const TRACE_CATEGORIES = ['blink.user_timing', 'toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'disabled-by-default-v8.cpu_profiler'];

/** Column c: small integers, every tenth a short category (the shape of e2e/real-size.spec.ts). */
function ensureWideCsv(columns) {
  mkdirSync(CACHE_DIR, { recursive: true });
  const path = join(CACHE_DIR, `wide_${columns}c.csv`);
  if (existsSync(path) && statSync(path).size > 0) return path;
  const lines = [Array.from({ length: columns }, (_, c) => `item_${c + 1}`).join(',')];
  for (let r = 0; r < ROWS; r++) lines.push(Array.from({ length: columns }, (_, c) => (c % 10 === 9 ? `a${(r + c) % 7}` : String((r * (c + 7)) % 97))).join(','));
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const now = (page) => page.evaluate(() => performance.now());
/** The page time a step ended, also marked (`wide:<step>`) so a trace's long tasks are put in their step. */
const endStep = (page, step) => page.evaluate((s) => (performance.mark(`wide:${s}`), performance.now()), step);
// The bench's own probes are plain DOM reads: Playwright's role queries and `innerText` (a forced
// layout) over a page of thousands of cells took 300–700 ms a call and were counted as the page's.
const hasText = (page, text) => page.evaluate((t) => document.body.textContent?.includes(t) ?? false, text);
/** The elements of `selector` whose whole text is `text`. */
const withText = (page, selector, text) => page.locator(selector).filter({ hasText: new RegExp(`^\\s*${text}\\s*$`) });

/** Whether the SQL editor's completion popup offers a column (`item_…`) within 5 s. */
const offersColumns = (page) =>
  page
    .waitForFunction(() => !!document.querySelector('.cm-tooltip-autocomplete li[role="option"]')?.textContent?.startsWith('item_'), undefined, { timeout: 5_000, polling: 50 })
    .then(() => true, () => false);

/** Waits for `done()`, polling; a step that never ends fails the row rather than hanging the bench. */
async function until(page, what, done, timeout = 600_000) {
  const deadline = Date.now() + timeout;
  while (!(await done())) {
    if (Date.now() > deadline) {
      const alerts = await page.getByRole('alert').allTextContents().catch(() => []);
      throw new Error(`${what} did not finish in ${timeout / 1000} s${alerts.length ? `; the page says: ${alerts.join(' / ').slice(0, 600)}` : ''}`);
    }
    await page.waitForTimeout(200);
  }
}

/** Scrolls a grid to its right end in viewport-sized steps, a frame apart, as a user dragging would. */
async function scrollToRightEnd(grid) {
  return grid.evaluate(async (el) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(undefined)));
    let steps = 0;
    while (el.scrollLeft + el.clientWidth < el.scrollWidth - 1 && steps < 400) {
      el.scrollLeft += el.clientWidth;
      el.dispatchEvent(new Event('scroll'));
      await frame();
      await frame();
      steps++;
    }
    return steps;
  });
}

/**
 * What the main thread's tasks longer than 50 ms were made of, from a trace: per task (the longest
 * `top` of each step), the renderer's own work by trace event (style, layout, paint, GC) and the JS functions
 * V8's sampler saw, by inclusive time (a function and what it called), so an app function that
 * drives a long layout is named.
 */
/** Svelte's scheduler and block machinery: on every stack, so they would name nothing. */
const SKIP = new Set(['(idle)', '(program)', '(root)', 'run_all', 'run_micro_tasks', '#process', 'flush', 'update_effect', 'update_reaction', 'flush_queued_effects', 'create_effect', 'branch', 'ensure', 'update_branch', 'if_block', 'block', '#traverse', 'untrack', 'each', 'alternate', 'consequent', 'template_effect', 'render_effect', 'execute_effect_teardown', 'destroy_effect', 'flushSync', 'flush_sync', 'process_effects', 'schedule_effect', 'internal_set', 'set', 'get', 'update', 'commit', 'children', 'run', 'ensure_array_like', 'reconcile', 'create_item', 'key_block', 'snippet', 'component', 'add_locations', 'wrapper', 'deferred', 'derived', 'execute_derived', 'update_derived']);

export function longTaskMakeup(tracePath, top = 3, t0Us = 0) {
  const events = JSON.parse(readFileSync(tracePath, 'utf8')).traceEvents;
  const mainKeys = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const onMain = (e) => mainKeys.has(`${e.pid}:${e.tid}`);
  // The step a task ran in: the first step mark after it (the bench marks a step when it ends).
  const stepEnds = events.filter((e) => onMain(e) && typeof e.name === 'string' && e.name.startsWith('wide:')).map((e) => [e.ts, e.name.slice(5)]).sort((a, b) => a[0] - b[0]);
  const stepOf = (ts) => stepEnds.find(([end]) => end >= ts)?.[1] ?? 'after the last step';
  /** The longest `top` tasks of each step. */
  const perStep = new Map();
  for (const e of events.filter((x) => x.ph === 'X' && x.name === 'RunTask' && onMain(x) && x.dur > 50_000).sort((x, y) => y.dur - x.dur)) {
    const step = stepOf(e.ts);
    const list = perStep.get(step) ?? [];
    if (list.length < top) list.push({ from: e.ts, to: e.ts + e.dur, cpu: e.tdur ?? 0, step, work: new Map() });
    perStep.set(step, list);
  }
  const tasks = [...perStep.values()].flat().sort((x, y) => x.from - y.from);
  // Thread time (`tdur`): the CPU a task took, which a busy machine does not stretch — on 2 cores
  // shared with 20 runnable processes a 26 ms task lasts ~350 ms of wall time.
  const cpuByStep = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || e.name !== 'RunTask' || !onMain(e) || e.tdur === undefined) continue;
    const step = stepOf(e.ts);
    cpuByStep.set(step, Math.max(cpuByStep.get(step) ?? 0, e.tdur / 1000));
  }
  const taskAt = (ts) => tasks.find((t) => ts >= t.from && ts <= t.to);
  const add = (task, key, us) => task.work.set(key, (task.work.get(key) ?? 0) + us);
  const RENDER = ['UpdateLayoutTree', 'Layout', 'Paint', 'PrePaint', 'Layerize', 'HitTest', 'ParseHTML', 'MajorGC', 'MinorGC'];
  for (const e of events) {
    if (e.ph !== 'X' || !onMain(e) || !RENDER.includes(e.name)) continue;
    const task = taskAt(e.ts);
    if (task) add(task, `[${e.name}]`, e.dur);
  }
  // V8's samples: a Profile event per thread, then chunks of nodes (with parents), samples and time deltas.
  const profiles = new Map();
  for (const e of events) {
    if (e.name === 'Profile' && onMain(e)) profiles.set(e.id, { start: e.args.data.startTime, nodes: new Map(), samples: [], deltas: [] });
    if (e.name !== 'ProfileChunk') continue;
    const p = profiles.get(e.id);
    const data = e.args?.data;
    if (!p || !data) continue;
    for (const n of data.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
    p.samples.push(...(data.cpuProfile?.samples ?? []));
    p.deltas.push(...(data.timeDeltas ?? []));
  }
  const label = (f) => `${f.functionName || '(anonymous)'} ${(f.url ?? '').split('/').pop() ?? ''}:${(f.lineNumber ?? 0) + 1}`;
  for (const p of profiles.values()) {
    let t = p.start;
    for (let i = 0; i < p.samples.length; i++) {
      t += p.deltas[i] ?? 0;
      const task = taskAt(t);
      if (!task) continue;
      const us = Math.max(0, p.deltas[i + 1] ?? 0);
      const seen = new Set();
      for (let n = p.nodes.get(p.samples[i]); n; n = n.parent === undefined ? undefined : p.nodes.get(n.parent)) {
        if (!n.callFrame.functionName || SKIP.has(n.callFrame.functionName)) continue;
        const key = label(n.callFrame);
        if (seen.has(key)) continue;
        seen.add(key);
        add(task, key, us);
      }
    }
  }
  const byTask = tasks.map((t) => ({
    at: Math.round((t.from - t0Us) / 1000),
    ms: Math.round((t.to - t.from) / 1000),
    step: t.step,
    cpu: Math.round(t.cpu / 1000),
    work: [...t.work.entries()].sort((a, b) => b[1] - a[1]).slice(0, 14).map(([what, us]) => `${Math.round(us / 1000)} ms ${what}`),
  }));
  return { tasks: byTask, cpuByStep };
}

async function wideCost(browser, baseURL, columns) {
  const path = ensureWideCsv(columns);
  const { mock, context, page } = await openWithMockModel(browser, baseURL);
  const tracePath = join(tmpdir(), `dataseer-wide-${columns}-${process.pid}.json`);
  // The browser records one trace at a time: a table whose run failed must stop its own, or the
  // next table's `startTracing` fails too.
  let tracing = false;
  try {
    const draft = { type: 'structured', when: 'data_dictionary', value: { row_meaning: 'one respondent', grain: '', caveats: [], columns: [], joins: [] } };
    const res = await fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify({ replies: [draft], replace: true }) });
    if (!res.ok) throw new Error(`mock script: ${res.status}`);
    if (TRACE) {
      await browser.startTracing(page, { path: tracePath, categories: TRACE_CATEGORIES });
      tracing = true;
      // V8's sampler starts on the first script run after it is asked for: a 100 ms-CPU task of
      // its own (logging the heap's code) that was counted as the load's. It is run and marked
      // here, its own step, never printed.
      await page.evaluate(() => 0);
      await endStep(page, TRACE_START);
    }
    /** [step, page time it ended] in order. */
    const marks = [];
    const ended = async (step) => marks.push([step, await endStep(page, step)]);
    const t0 = await now(page);
    await page.getByLabel('Add data files').setInputFiles(path);
    await page.waitForFunction(() => performance.getEntriesByName('dataseer:load').length > 0, undefined, { timeout: 600_000, polling: 100 });
    await ended('load');
    const preview = page.locator(`[role="grid"][aria-label="Preview of wide_${columns}c"]`);
    await preview.locator('[role="row"][aria-rowindex="2"] [role="gridcell"]:not(.pending)').first().waitFor({ timeout: 600_000 });
    await ended('preview');
    await until(page, 'the load report', async () => !(await hasText(page, 'Checking what auto-detection may have got wrong')));
    await ended('load report');
    // The draft's own failure (a model call or a data request timing out) ends the step too: the
    // row is about the page's main thread, and the step is named by how it ended.
    await until(page, 'the dictionary draft', async () => (await hasText(page, 'Draft written by the model')) || hasText(page, 'The draft could not be written'));
    await ended((await hasText(page, 'Draft written by the model')) ? 'dictionary draft' : 'dictionary draft (failed: "The draft could not be written")');
    await withText(page, '[role="tab"]', 'Profile').click();
    await until(page, 'the profile', () => hasText(page, 'columns profiled over'));
    await ended('profile');
    await withText(page, '[role="tablist"][aria-label="Views"] [role="tab"]', 'SQL').click();
    const editor = page.locator('#view-panel-sql [aria-label="SQL query"]');
    await editor.fill(`SELECT * FROM wide_${columns}c`);
    // Its own step: the fill is one CodeMirror transaction of the whole query (30–50 ms CPU at
    // 2,000 columns, the completion's first look at the text), not the grid's draw.
    await page.waitForTimeout(1_000);
    await ended('SQL view opened, query filled in');
    await withText(page, '#view-panel-sql button', 'Run SQL').click();
    const results = page.locator('[role="grid"][aria-label="Query results"]');
    // A plain DOM read: Playwright's own wait polled its selector engine in tasks of 200–300 ms on
    // a loaded machine, counted as the grid's.
    await until(page, 'the query grid', () => page.evaluate(() => !!document.querySelector('[role="grid"][aria-label="Query results"] [role="row"][aria-rowindex="2"] [role="gridcell"]')));
    await page.waitForTimeout(1_000);
    await ended('query grid');
    const steps = await scrollToRightEnd(results);
    await page.waitForTimeout(1_000);
    await ended(`grid scrolled to its last column (${steps} steps)`);
    // Typing a query against the table, a key at a time: the editor's completion offers its columns
    // after `table.` (a step fails if the popup never showed them, so it cannot time a no-op).
    await editor.click();
    await editor.press('ControlOrMeta+a');
    await editor.press('Delete');
    const typed = `SELECT wide_${columns}c.item_${columns - 1}, wide_${columns}c.item_1 FROM wide_${columns}c WHERE wide_${columns}c.item_2 > 5`;
    // CodeMirror asks its completion sources only once typing pauses for 100 ms
    // (`activateOnTypingDelay`): keys 40–50 ms apart, as on an idle machine, never open the popup,
    // so after the first `table.item_` the bench pauses as a user does and waits (up to 5 s) for
    // the columns to be offered; the step fails if they never are.
    let sawColumns = false;
    let sofar = '';
    for (const key of typed) {
      await page.keyboard.type(key);
      sofar += key;
      await page.waitForTimeout(40);
      if (!sawColumns && sofar.endsWith('c.item_')) sawColumns = await offersColumns(page);
    }
    if (!sawColumns) throw new Error('the SQL editor never offered the columns after `table.item_` (waited 5 s)');
    await page.waitForTimeout(500);
    await ended(`SQL typed with completion (${typed.length} keys)`);
    if (tracing) {
      tracing = false;
      await browser.stopTracing();
    }
    const tasks = await page.evaluate((a) => window.__benchLongTasks.filter((t) => t.start >= a), t0);
    let from = t0;
    const bySteps = marks.map(([step, end]) => {
      const mine = tasks.filter((t) => t.start >= from && t.start < end);
      const out = { step, ms: end - from, longest: Math.max(0, ...mine.map((t) => t.duration)), count: mine.length };
      from = end;
      return out;
    });
    return { bySteps, makeup: TRACE ? longTaskMakeup(tracePath) : null };
  } finally {
    if (tracing) await browser.stopTracing().catch(() => undefined);
    await context.close();
    await mock.close();
    rmSync(tracePath, { force: true });
  }
}

/** @returns {Promise<{name: string, value: number, unit: string}[]>} */
export async function wideRows(browser, baseURL) {
  const rows = [];
  for (const columns of COLUMNS) {
    const label = `${columns.toLocaleString('en')} columns × ${ROWS.toLocaleString('en')} rows`;
    try {
      const { bySteps, makeup } = await wideCost(browser, baseURL, columns);
      for (const s of bySteps) {
        console.log(`  ${label}, ${s.step}: ${(s.ms / 1000).toFixed(1)} s, ${s.count} long tasks, longest ${s.longest.toFixed(0)} ms`);
        rows.push({ name: `${label}, ${s.step}: the page's longest main-thread task (goal ≤ 200)`, value: Math.round(s.longest), unit: 'ms' });
      }
      if (makeup) {
        for (const s of bySteps) {
          const cpu = makeup.cpuByStep.get(s.step) ?? 0;
          console.log(`  ${label}, ${s.step}: longest task in CPU time ${cpu.toFixed(0)} ms (trace)`);
          rows.push({ name: `${label}, ${s.step}: the page's longest task in CPU (thread) time`, value: Math.round(cpu), unit: 'ms' });
        }
        for (const t of makeup.tasks.filter((x) => x.step !== TRACE_START)) console.log(`  ${label}: a ${t.ms} ms task (${t.cpu} ms CPU) in "${t.step}" (trace): ${t.work.join('; ')}`);
      }
    } catch (e) {
      console.error(`  ${label} failed: ${e instanceof Error ? e.message : String(e)}`);
      process.exitCode = 1;
    }
  }
  return rows;
}
