// `--only=csv`: the engine at its floor (issue #25 item 5). The app's CSV load beside native
// DuckDB on one thread; the same first load and first query with DuckDB-WASM alone, the file as
// a registered File or a buffer, on the eh build (the app's) and the threaded coi build — each
// in a fresh page, boot included, in rotating order so the machine's drift spreads evenly.
import { loadavg } from 'node:os';
import { basename } from 'node:path';
import { nativeOneThreadCsv } from './native.mjs';
import { coldStart, loadFile, newPage, settled } from './wasm.mjs';
import { CSV_ROWS, median } from './workload.mjs';

const ROUNDS = 3;
const VARIANTS = [
  { bundle: 'eh', source: 'file' },
  { bundle: 'eh', source: 'buffer' },
  { bundle: 'coi', source: 'buffer' },
];

export async function compareOnce(browser, url, csvPath, { bundle, source }) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error(`  [page error] ${e.message}`));
    await page.goto(`${url}?bundle=${bundle}&source=${source}`);
    // Given at once, as a user who drops a file on arrival: the load waits for the boot.
    await page.getByLabel('Compare file').setInputFiles(csvPath);
    await page.waitForFunction(() => {
      const o = document.getElementById('result');
      return o && (o.dataset.result || o.dataset.error);
    }, undefined, { timeout: 480_000, polling: 100 });
    const data = await page.locator('#result').evaluate((o) => ({ ...o.dataset }));
    if (data.error) return { error: data.error };
    const r = JSON.parse(data.result);
    if (r.rows !== CSV_ROWS) throw new Error(`${bundle}/${source} read ${r.rows} rows of ${basename(csvPath)}`);
    return { ...r, totalMs: Math.max(r.bootMs, r.fileAt) + r.loadMs + r.queryMs };
  } finally {
    await context.close();
  }
}

/** The app's first CSV load in a fresh page, after its start-up settled (as wasm.mjs times it). */
async function appLoad(browser, appURL, csvPath) {
  const { context, page } = await newPage(browser);
  try {
    await coldStart(page, appURL);
    await settled(page);
    return await loadFile(page, csvPath);
  } finally {
    await context.close();
  }
}

/** The eh build's File and buffer paths alone, the copy apart from the read. */
function sourceRows(runs) {
  const m = (key, f) => median(runs[key].map(f));
  const file = { name: 'eh, registered File', value: m('eh/file', (r) => r.loadMs) };
  return [
    row(`CSV ingest, 1M rows / 98 MB: eh from a buffer vs from a registered File (median of ${runs['eh/file'].length} paired)`, m('eh/buffer', (r) => r.loadMs), file),
    row('  of which handing the bytes over: buffer (read + copy into wasm) vs File (register)', m('eh/buffer', (r) => r.registerMs), { name: 'File', value: m('eh/file', (r) => r.registerMs) }),
    row('  of which read_csv itself: from the buffer vs from the File', m('eh/buffer', (r) => r.loadMs - r.registerMs), { name: 'File', value: m('eh/file', (r) => r.loadMs - r.registerMs) }),
  ];
}

const row = (name, value, baseline) => {
  const r = { name, value: Math.round(value), unit: 'ms' };
  if (baseline) Object.assign(r, { baseline: { name: baseline.name, value: Math.round(baseline.value) }, ratio: Math.round((value / baseline.value) * 100) / 100 });
  return r;
};

/**
 * @param {import('@playwright/test').Browser} browser
 * @param {{ app: string, compare: string }} urls
 * @param {string} csvPath
 */
export async function measureCsvFloor(browser, urls, csvPath, { sourcesOnly = false } = {}) {
  // --only=csv-source: the eh build's two ways in, more rounds, nothing else.
  const variants = sourcesOnly ? VARIANTS.filter((v) => v.bundle === 'eh') : VARIANTS;
  const rounds = sourcesOnly ? 2 * ROUNDS : ROUNDS;
  /** @type {Record<string, any[]>} */
  const runs = Object.fromEntries(VARIANTS.map((v) => [`${v.bundle}/${v.source}`, []]));
  const app = [];
  /** Native one-thread ingests, one right after each of the app's loads (paired by round). */
  const native = [];
  for (let round = 0; round < rounds; round++) {
    const order = variants.map((_, i) => variants[(i + round) % variants.length]);
    for (const v of order) {
      const r = await compareOnce(browser, urls.compare, csvPath, v);
      if (r.error) throw new Error(`${v.bundle}/${v.source}: ${r.error}`);
      console.log(`  round ${round + 1} ${v.bundle}/${v.source} (threads ${r.threads}): boot ${r.bootMs.toFixed(0)}, load ${r.loadMs.toFixed(0)} (registration ${r.registerMs.toFixed(0)}), first GROUP BY ${r.queryMs.toFixed(0)}, page → answer ${r.totalMs.toFixed(0)} ms`);
      runs[`${v.bundle}/${v.source}`].push(r);
    }
    if (sourcesOnly) continue;
    const a = await appLoad(browser, urls.app, csvPath);
    const n = await nativeOneThreadCsv(csvPath);
    console.log(`  round ${round + 1} app: load ${a.ms.toFixed(0)} ms; ms by phase: ${a.phases}; native one thread beside it ${n.toFixed(0)} ms (${(a.ms / n).toFixed(2)}×), load average ${loadavg()[0].toFixed(1)}`);
    app.push(a.ms);
    native.push(n);
  }
  if (sourcesOnly) return { runs, app, native };
  // What the issue reports: the threaded build cannot read a large registered File.
  const coiFile = await compareOnce(browser, urls.compare, csvPath, { bundle: 'coi', source: 'file' }).catch((e) => ({ error: String(e) }));
  console.log(`  coi/file: ${coiFile.error ? `failed: ${coiFile.error.split('\n')[0]}` : `load ${coiFile.loadMs.toFixed(0)} ms`}`);
  return { runs, app, native };
}

/**
 * @param {{ runs: Record<string, object[]>, app: number[], native?: number[] }} measured (native: the one-thread ingest beside each app load; none for --only=csv-source)
 */
export function csvFloorRows({ runs, app, native: beside = [] }) {
  if (app.length === 0 || beside.length === 0) return sourceRows(runs);
  const m = (key, field) => median(runs[key].map((r) => r[field]));
  // The baseline is the median of the native ingests taken inside the rounds, beside the loads
  // they divide (not a pass before and after the whole run).
  const one = { name: `native, threads = 1: CREATE TABLE AS read_csv, median of the ${beside.length} taken in the rounds`, value: median(beside) };
  const MB = '1M rows / 98 MB';
  // The median of the rounds' own ratios: each app load beside a native ingest right after it.
  const ratios = beside.length === app.length ? app.map((a, i) => a / beside[i]) : [];
  const paired = ratios.length > 0 ? [{ name: `CSV ingest, ${MB}: through Add data files ÷ native one thread right after it, median of ${ratios.length} rounds' ratios (goal ≤ 1.5)`, value: Math.round(median(ratios) * 100) / 100, unit: '×' }] : [];
  return [
    ...paired,
    row(`CSV ingest, ${MB}: through Add data files, vs native on one thread (goal ≤ 1.5×; median of ${ROUNDS})`, median(app), one),
    row(`CSV ingest, ${MB}: DuckDB-WASM alone, eh, from a registered File (first read, with registration)`, m('eh/file', 'loadMs'), one),
    row(`CSV ingest, ${MB}: DuckDB-WASM alone, eh, from a buffer (first read, with the copy)`, m('eh/buffer', 'loadMs'), one),
    row(`CSV ingest, ${MB}: eh from a buffer vs from a registered File`, m('eh/buffer', 'loadMs'), { name: 'eh, registered File', value: m('eh/file', 'loadMs') }),
    row(`threaded (coi) build: page → DuckDB open`, m('coi/buffer', 'bootMs'), { name: 'eh build: page → DuckDB open', value: m('eh/buffer', 'bootMs') }),
    row(`threaded (coi) build: CSV ingest, ${MB}, from a buffer`, m('coi/buffer', 'loadMs'), { name: 'eh build, from a buffer', value: m('eh/buffer', 'loadMs') }),
    row('threaded (coi) build: first GROUP BY over 1M rows', m('coi/buffer', 'queryMs'), { name: 'eh build, same query', value: m('eh/buffer', 'queryMs') }),
    row('threaded (coi) build: page → first load → first answer (file given at once)', m('coi/buffer', 'totalMs'), { name: 'eh build, from a buffer', value: m('eh/buffer', 'totalMs') }),
  ];
}
