// The scale matrix (issue 37): tables of 10 / 150 / 500 / 2,000 columns × 1k / 1M rows (10M rows
// and the ~1 GB CSV behind --scale-big, so a default run stays reasonable) added through the app
// as a user does — load, the Profile tab, one GROUP BY — each beside native DuckDB
// (@duckdb/node-api, one thread as DuckDB-WASM runs here) in the same round: CREATE TABLE AS
// read_csv, SUMMARIZE (its profile) and the same GROUP BY. Reported per cell: times, DuckDB's wasm
// memory at its peak, and the page's longest main-thread task.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { CACHE_DIR } from './gen-csv.mjs';
import { coldStart, loadFile, newPage, runQuery } from './wasm.mjs';

const PROFILE = 'dataseer:profile';
const BIG = process.argv.includes('--scale-big');

/** [columns, rows] per cell; the big ones only with --scale-big. */
export function scaleCells(big = BIG) {
  const cells = [];
  for (const cols of [10, 150, 500, 2000]) cells.push([cols, 1000]);
  for (const cols of [10, 150]) cells.push([cols, 1_000_000]);
  if (big) {
    for (const cols of [500, 2000]) cells.push([cols, 1_000_000]);
    for (const cols of [10, 150]) cells.push([cols, 10_000_000]);
  }
  return cells;
}

const sqlString = (s) => `'${s.replaceAll("'", "''")}'`;
const tableName = (cols, rows) => `scale_${cols}c_${rows >= 1e6 ? `${rows / 1e6}m` : `${rows / 1e3}k`}`;

/** Column i: nine in ten small integers, then a decimal, and every tenth a text category. */
function columnSql(i) {
  if (i === 0) return `(i % 8)::VARCHAR || '_cat' AS c0`;
  if (i % 10 === 0) return `'v' || ((i * ${i + 3}) % 13) AS c${i}`;
  if (i % 10 === 5) return `round(((i * ${i + 11}) % 1000) / 10.0, 1) AS c${i}`;
  return `(i * ${i + 7}) % 97 AS c${i}`;
}

/** Writes the cell's CSV once (deterministic, by DuckDB's COPY) into bench/.cache/. */
async function ensureScaleCsv(cols, rows) {
  mkdirSync(CACHE_DIR, { recursive: true });
  const path = join(CACHE_DIR, `${tableName(cols, rows)}.csv`);
  if (existsSync(path) && statSync(path).size > 0) return path;
  console.log(`  writing ${path}…`);
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    const select = Array.from({ length: cols }, (_, i) => columnSql(i)).join(', ');
    await conn.run(`COPY (SELECT ${select} FROM range(${rows}) t(i)) TO ${sqlString(path)} (HEADER, DELIMITER ',')`);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  return path;
}

const groupBySql = (table) => `SELECT c0, count(*) AS n, avg(c1) AS avg_c1, max(c2) AS max_c2 FROM ${table} GROUP BY c0 ORDER BY c0`;

async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** The same three steps in native DuckDB, one thread, a fresh instance. */
async function nativeCell(path, table) {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    await conn.run('SET threads = 1');
    const load = await timed(() => conn.run(`CREATE TABLE ${table} AS SELECT * FROM read_csv(${sqlString(path)})`));
    const summarize = await timed(() => conn.runAndReadAll(`SUMMARIZE ${table}`));
    const groupBy = await timed(() => conn.runAndReadAll(groupBySql(table)));
    return { load, summarize, groupBy };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** DuckDB's wasm memory in MB (it never shrinks: its peak so far), read from its worker. */
async function duckdbHeapMB(page) {
  for (const worker of page.workers()) {
    if (!worker.url().includes('duckdb')) continue;
    const bytes = await worker.evaluate(() => globalThis.DUCKDB_BINDINGS?.mod?.HEAPU8?.buffer?.byteLength ?? null).catch(() => null);
    if (typeof bytes === 'number') return Math.round(bytes / 1e6);
  }
  return null;
}

async function longestTask(page, from) {
  return page.evaluate((t) => Math.max(0, ...(window.__benchLongTasks ?? []).filter((x) => x.start + x.duration > t).map((x) => x.duration)), from);
}

/** Opens the Profile tab of the dataset just added and waits for its profile (DataClient's measure). */
async function profileInApp(page) {
  const before = await page.evaluate((n) => performance.getEntriesByName(n).length, PROFILE);
  const tab = page.getByRole('tab', { name: 'Profile', exact: true });
  await tab.click();
  await page.waitForFunction(([n, c]) => performance.getEntriesByName(n).length > c, [PROFILE, before], { timeout: 1_800_000, polling: 100 });
  const entry = await page.evaluate(([n, c]) => {
    const e = performance.getEntriesByName(n)[c];
    return { duration: e.duration, detail: 'detail' in e ? e.detail : null };
  }, [PROFILE, before]);
  if (!entry.detail?.ok) throw new Error(`the profile failed: ${(await page.getByRole('alert').allTextContents()).join(' / ')}`);
  // The Profile tab covers the first columns of a very wide table: say how many it profiled.
  const said = await page.getByText(/columns profiled over/).first().innerText({ timeout: 30_000 });
  const columns = Number(/^([\d,]+) columns profiled/.exec(said.trim())?.[1]?.replaceAll(',', '') ?? NaN);
  return { ms: entry.duration, columns };
}

/** @returns {Promise<{name: string, value: number, unit: string, baseline?: {name: string, value: number}, ratio?: number}[]>} */
export async function scaleRows(browser, baseURL) {
  const rows = [];
  const row = (name, value, unit, baseline) => {
    const r = { name, value: Math.round(value), unit };
    if (baseline) Object.assign(r, { baseline: { name: baseline.name, value: Math.round(baseline.value) }, ratio: Math.round((value / baseline.value) * 100) / 100 });
    rows.push(r);
  };
  for (const [cols, rowCount] of scaleCells()) {
    const table = tableName(cols, rowCount);
    const label = `scale ${cols.toLocaleString('en')} columns × ${rowCount.toLocaleString('en')} rows`;
    try {
      const path = await ensureScaleCsv(cols, rowCount);
      const mb = statSync(path).size / 1e6;
      // Native first, then the app, in the same round: a drifting machine moves both.
      const native = await nativeCell(path, table);
      const { context, page } = await newPage(browser);
      try {
        await coldStart(page, baseURL);
        const t0 = await page.evaluate(() => performance.now());
        const load = await loadFile(page, path);
        const profile = await profileInApp(page);
        const profileMs = profile.ms;
        const profiled = profile.columns < cols ? ` (its first ${profile.columns.toLocaleString('en')} columns; SUMMARIZE does all ${cols.toLocaleString('en')})` : '';
        const group = await runQuery(page, groupBySql(table), 8, 0);
        const heap = await duckdbHeapMB(page);
        const longest = await longestTask(page, t0);
        console.log(`  ${label} (${mb.toFixed(0)} MB CSV): load ${load.ms.toFixed(0)} ms (native ${native.load.toFixed(0)}), profile ${profileMs.toFixed(0)} ms${profiled} (native SUMMARIZE ${native.summarize.toFixed(0)}), GROUP BY ${group.firstMs.toFixed(0)} ms (native ${native.groupBy.toFixed(0)}), wasm memory ${heap ?? '?'} MB, longest task ${longest.toFixed(0)} ms`);
        row(`${label}: load (${mb.toFixed(0)} MB CSV)`, load.ms, 'ms', { name: 'native, threads = 1: CREATE TABLE AS read_csv', value: native.load });
        row(`${label}: profile (Profile tab)${profiled}`, profileMs, 'ms', { name: 'native, threads = 1: SUMMARIZE', value: native.summarize });
        row(`${label}: GROUP BY (engine, first run)`, group.firstMs, 'ms', { name: 'native, threads = 1: same query', value: native.groupBy });
        if (heap !== null) row(`${label}: DuckDB's wasm memory at its peak`, heap, 'MB');
        row(`${label}: the page's longest main-thread task (goal ≤ 200)`, longest, 'ms');
      } finally {
        await context.close();
      }
    } catch (e) {
      console.error(`  ${label} failed: ${e instanceof Error ? e.message : String(e)}`);
      process.exitCode = 1;
    }
  }
  return rows;
}

