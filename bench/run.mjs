// `npm run bench`: DuckDB-WASM in headless Chromium against the production build, native DuckDB
// as the baseline, optional Pyodide rows from bench/python.mjs. Writes bench/results/latest.json.
//
// Env: BENCH_DIST (build to serve, default dist), BENCH_PORT (default 4203).
// Flags: --driver=app|harness|auto (auto: the app when it shows its file input, else the harness).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { launchOptions } from '../scripts/browser.mjs';
import { CSV_ROWS, ensureCsv } from './gen-csv.mjs';
import { nativeMedians, runNative } from './native.mjs';
import { printTable } from './table.mjs';
import { startStaticServer } from './static-server.mjs';
import { runBareCsv, runBareParquet, runWasm } from './wasm.mjs';
import { PARQUET_FILE } from './workload.mjs';
import { appRows, repeatVisitRows } from './app.mjs';
import { bigFileRows } from './bigfile.mjs';
import { providerRows } from './providers.mjs';
import { chaosRows } from './chaos.mjs';
import { renderRows } from './render.mjs';
import { figureRows } from './figures.mjs';
import { importRows } from './imports.mjs';
import { csvFloorRows, measureCsvFloor } from './csvFloor.mjs';
import { candidateRows, measureCandidate } from './duckdbCandidate.mjs';
import { duckdbReaderRows } from './duckdbReader.mjs';
import { scaleRows } from './scale.mjs';
import { wideRows } from './wide.mjs';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH_DIR, '..');
const DIST = resolve(ROOT, process.env.BENCH_DIST ?? 'dist');
const PORT = Number(process.env.BENCH_PORT ?? 4203);
// Outside the repo so `eslint .` never sees the bundled output.
const HARNESS_DIST = join(tmpdir(), 'dataseer-bench-harness');
const HARNESS_PREFIX = '/__bench/';
const driverArg = process.argv.find((a) => a.startsWith('--driver='))?.slice('--driver='.length) ?? 'auto';
// --only=app measures just the whole-app rows (cold load, shell, streaming): a quick pass.
const onlyApp = process.argv.includes('--only=app');
// --only=render measures just the rendering rows (a streaming answer, a 2 MB answer).
const onlyRender = process.argv.includes('--only=render');
// --only=providers measures just the extra requests each provider persona costs (no browser).
const onlyProviders = process.argv.includes('--only=providers');
// --only=chaos measures just how seeded questions against the chaos endpoint end (no browser).
const onlyChaos = process.argv.includes('--only=chaos');
// --only=csv measures just the CSV floor (csvFloor.mjs): the app's load vs native on one thread,
// File vs buffer, and the threaded build's first load and query, boot included.
const onlyCsv = process.argv.includes('--only=csv') || process.argv.includes('--only=csv-source');
// --only=csv-source: just the eh build's File-vs-buffer pairs (no native, no app, no coi).
const onlyCsvSource = process.argv.includes('--only=csv-source');
// --only=duckdb-candidate: the DuckDB-WASM package in BENCH_DUCKDB_WASM (a folder) beside the
// app's, paired (duckdbCandidate.mjs).
const onlyCandidate = process.argv.includes('--only=duckdb-candidate');
// --only=parquet: native, then the Parquet rows alone (harness bare.html): parquet-wasm + Arrow
// insert, and DuckDB's own read_parquet when its parquet extension could be loaded.
const onlyParquet = process.argv.includes('--only=parquet');
// --only=repeat measures just the repeat visits (a first visit, then three in the same profile).
const onlyRepeat = process.argv.includes('--only=repeat');
// --only=scale measures just the scale matrix (scale.mjs; --scale-big adds 10M rows and ~1 GB+ files).
const onlyScale = process.argv.includes('--only=scale');
// --only=figures measures just the big-figure rows (figures.mjs): a 35 MB Python fig, a 10M-row create_chart.
const onlyFigures = process.argv.includes('--only=figures');
// --only=wide measures just the page's longest task on 600/2,000-column tables (wide.mjs; --wide-trace says what ran).
const onlyWide = process.argv.includes('--only=wide');
// --only=imports measures just the import rows (imports.mjs): a 5 MB dictionary CSV and JSON.
const onlyImports = process.argv.includes('--only=imports');
// --only=query-path measures just the GROUP BY over 1M rows: DuckDB-WASM alone beside the app's
// console and model SQL paths (harness bare.html, no app, no native).
const onlyQueryPath = process.argv.includes('--only=query-path');

function row(name, value, unit, baseline) {
  const r = { name, value: round(value), unit };
  if (baseline) {
    r.baseline = { name: baseline.name, value: round(baseline.value) };
    r.ratio = round(value / baseline.value, 2);
  }
  return r;
}

function round(v, digits = 1) {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/**
 * @param {string} [outDir]
 * @param {string} [duckdbWasm] another DuckDB-WASM package's folder to build against (else the app's)
 */
function buildHarness(outDir = HARNESS_DIST, duckdbWasm) {
  console.log(`building the bench harness${duckdbWasm ? ` against ${duckdbWasm}` : ''}…`);
  const env = { ...process.env };
  if (duckdbWasm) env.BENCH_DUCKDB_WASM = duckdbWasm;
  else delete env.BENCH_DUCKDB_WASM;
  execFileSync('npx', ['vite', 'build', '--config', join(BENCH_DIR, 'harness', 'vite.config.ts'), '--outDir', outDir, '--emptyOutDir'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** The app counts as benchable once its page shows the file input the bench drives. */
async function appIsReady(browser, url) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.getByLabel('Add data files').waitFor({ state: 'attached', timeout: 15_000 });
    return true;
  } catch {
    return false;
  } finally {
    await context.close();
  }
}

const PYTHON_BUDGET_MS = 240_000;

async function pythonRows(browser, baseURL) {
  const modulePath = join(BENCH_DIR, 'python.mjs');
  if (!existsSync(modulePath)) return [];
  const mod = await import(pathToFileURL(modulePath).href);
  if (typeof mod.pythonRows !== 'function') throw new Error('bench/python.mjs does not export pythonRows(page, baseURL)');
  const context = await browser.newContext();
  let timer;
  try {
    const overBudget = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`pythonRows took longer than ${PYTHON_BUDGET_MS / 1000} s`)), PYTHON_BUDGET_MS);
    });
    return await Promise.race([mod.pythonRows(await context.newPage(), baseURL), overBudget]);
  } finally {
    clearTimeout(timer);
    await context.close();
  }
}

/** One row per figure; ratio = WASM ÷ native. */
function rowsFor(wasm, native, csvMB, via) {
  return [
    row(`DuckDB-WASM cold start: page load → ready${via}`, wasm.coldStart, 'ms', { name: 'native: instance + connection', value: native.startup }),
    row(`CSV ingest, 1M rows / ${csvMB.toFixed(0)} MB${via}`, wasm.csv.ms, 'ms', { name: 'native: CREATE TABLE AS read_csv', value: native.csvIngest }),
    row(`longest main-thread long task during CSV ingest (goal ≤ 200)${via}`, wasm.csv.longestTaskMs, 'ms'),
    row(`GROUP BY category over 1M rows (engine)${via}`, wasm.groupBy.engineMs, 'ms', { name: 'native: same query', value: native.groupBy }),
    row(`GROUP BY category over 1M rows (engine), its first run${via}`, wasm.groupBy.firstMs, 'ms', { name: 'native: same query', value: native.groupBy }),
    row(`GROUP BY category over 1M rows (round trip)${via}`, wasm.groupBy.roundTripMs, 'ms'),
    row(`flights-3m.parquet load (3M rows), read by ${wasm.parquet.reader}${via}`, wasm.parquet.ms, 'ms', { name: 'native: CREATE TABLE AS read_parquet', value: native.parquetLoad }),
    row(`flights delays by origin (engine)${via}`, wasm.aggregate.engineMs, 'ms', { name: 'native: same query', value: native.parquetAggregate }),
    row(`flights delays by origin (engine), its first run${via}`, wasm.aggregate.firstMs, 'ms', { name: 'native: same query', value: native.parquetAggregate }),
    row(`flights delays by origin (round trip)${via}`, wasm.aggregate.roundTripMs, 'ms'),
    // Beside native on one thread: the engine's own cost, apart from native's second core.
    row(`CSV ingest, 1M rows / ${csvMB.toFixed(0)} MB, vs native on one thread${via}`, wasm.csv.ms, 'ms', { name: 'native, threads = 1: CREATE TABLE AS read_csv', value: native.oneThread.csvIngest }),
    row(`GROUP BY category over 1M rows (engine), vs native on one thread${via}`, wasm.groupBy.engineMs, 'ms', { name: 'native, threads = 1: same query', value: native.oneThread.groupBy }),
    row(`flights-3m.parquet load, read by ${wasm.parquet.reader}, vs native on one thread${via}`, wasm.parquet.ms, 'ms', { name: 'native, threads = 1: CREATE TABLE AS read_parquet', value: native.oneThread.parquetLoad }),
    row(`flights delays by origin (engine), vs native on one thread${via}`, wasm.aggregate.engineMs, 'ms', { name: 'native, threads = 1: same query', value: native.oneThread.parquetAggregate }),
  ];
}

/** Parquet: the reader and the Arrow insert by themselves, and the batch sizes tried. */
function parquetRows(wasm, p, native, via) {
  const base = { name: 'native: CREATE TABLE AS read_parquet', value: native.parquetLoad };
  return [
    row('flights-3m.parquet: decode alone (parquet-wasm → Arrow IPC), no insert', p.decodeMs, 'ms', base),
    row('flights-3m.parquet: decode + Arrow insert, the engine’s first Arrow insert, no load path', p.coldMs, 'ms', base),
    row('flights-3m.parquet: decode + Arrow insert, warm, no load path', p.warmMs, 'ms', base),
    ...Object.entries(p.byBatchRows).map(([n, ms]) => row(`flights-3m.parquet: decode + Arrow insert, warm, ${Number(n).toLocaleString('en')} rows per batch`, ms, 'ms', base)),
    ...(wasm ? [row(`flights-3m.parquet: through Add data files (read by ${wasm.parquet.reader}) vs decode + insert alone (first)${via}`, wasm.parquet.ms, 'ms', { name: 'decode + Arrow insert, first, no load path', value: p.coldMs })] : []),
    ...duckdbReaderRows(p, native),
  ];
}

/** The app's two query paths beside DuckDB-WASM alone, paired round by round (goal ≤ 1.1×). */
function queryPathRows(bare) {
  const alone = { name: 'DuckDB-WASM alone, one call', value: bare.groupBy.direct };
  return [
    row('GROUP BY category over 1M rows: DuckDB-WASM through the console’s query path, no page (median of 9)', bare.groupBy.viaApp, 'ms', alone),
    row('GROUP BY category over 1M rows: DuckDB-WASM through the model SQL path, judged and read-only, no page (median of 9; goal ≤ 1.1×)', bare.groupBy.viaModel, 'ms', alone),
    ...(bare.groupBy.viaModelInARow === undefined
      ? []
      : [row('GROUP BY category over 1M rows: the model SQL path, nine in a row with nothing between (catalog facts kept), no page (median of 9)', bare.groupBy.viaModelInARow, 'ms', alone)]),
  ];
}

/** The CSV load split: the engine by itself, and what the app's load path adds on top. */
function bareRows(wasm, bare, native, csvMB, via) {
  const label = `1M rows / ${csvMB.toFixed(0)} MB`;
  return [
    row(`CSV ingest, ${label}: bare read_csv in DuckDB-WASM, the engine's first (same boot, no load path)`, bare.firstMs, 'ms', { name: 'native: CREATE TABLE AS read_csv', value: native.csvIngest }),
    row(`CSV ingest, ${label}: bare read_csv in DuckDB-WASM, warm (median of 3)`, bare.defaultMs, 'ms', { name: 'native: CREATE TABLE AS read_csv', value: native.csvIngest }),
    row(`CSV ingest, ${label}: read_csv with the app's options (null_padding), no load path`, bare.appOptionsMs, 'ms', { name: 'bare read_csv, DuckDB-WASM', value: bare.defaultMs }),
    row(`CSV ingest, ${label}: through Add data files vs a bare read_csv (goal ≤ 1.2×)${via}`, wasm.csv.ms, 'ms', { name: 'bare read_csv, DuckDB-WASM', value: bare.defaultMs }),
    ...(native ? [row('GROUP BY category over 1M rows: DuckDB-WASM alone, one call (median of 9)', bare.groupBy.direct, 'ms', { name: 'native: same query', value: native.groupBy })] : []),
    ...queryPathRows(bare),
  ];
}

async function appPass(browser, baseURL) {
  try {
    return await appRows(browser, baseURL, DIST);
  } catch (e) {
    console.error(`app rows failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
    return [];
  }
}

/** The quick pass: only the whole-app rows (or the rows `only` measures). */
async function appOnly(rows, only) {
  const server = await startStaticServer(new Map([['/', DIST]]), PORT);
  const browser = await chromium.launch(launchOptions());
  try {
    console.log(`chromium ${browser.version()} → ${server.url} (build ${DIST})`);
    rows.push(...(only ? await only(browser, `${server.url}/`) : await appPass(browser, `${server.url}/`)));
  } finally {
    await browser.close();
    await server.close();
  }
}

/** The quick CSV pass: the floor's rounds, each with its native one-thread ingest beside the app's load. */
async function csvOnly(rows) {
  const csvPath = await ensureCsv();
  buildHarness();
  const server = await startStaticServer(new Map([['/', DIST], [HARNESS_PREFIX, HARNESS_DIST]]), PORT);
  const browser = await chromium.launch(launchOptions());
  try {
    console.log(`chromium ${browser.version()} → ${server.url} (build ${DIST})`);
    const measured = await measureCsvFloor(browser, { app: `${server.url}/`, compare: `${server.url}${HARNESS_PREFIX}compare.html` }, csvPath, { sourcesOnly: onlyCsvSource });
    rows.push(...csvFloorRows(measured));
  } finally {
    await browser.close();
    await server.close();
  }
}

/** The query-path rows alone: the harness's bare CSV run (its GROUP BY rounds), nothing else. */
async function queryPathOnly(rows) {
  const csvPath = await ensureCsv();
  buildHarness();
  const server = await startStaticServer(new Map([[HARNESS_PREFIX, HARNESS_DIST]]), PORT);
  const browser = await chromium.launch(launchOptions());
  try {
    console.log(`chromium ${browser.version()} → ${server.url} (harness)`);
    const bare = await runBareCsv(browser, `${server.url}${HARNESS_PREFIX}bare.html`, csvPath);
    const g = bare.groupBy;
    console.log(`  GROUP BY over 1M rows, medians of 9 paired rounds: alone ${g.direct.toFixed(1)} ms, console path ${g.viaApp.toFixed(1)} ms (${(g.viaApp / g.direct).toFixed(2)}×), model SQL path ${g.viaModel.toFixed(1)} ms (${(g.viaModel / g.direct).toFixed(2)}×)${g.viaModelInARow === undefined ? '' : `, model SQL path nine in a row ${g.viaModelInARow.toFixed(1)} ms (${(g.viaModelInARow / g.direct).toFixed(2)}×)`}`);
    rows.push(row('GROUP BY category over 1M rows: DuckDB-WASM alone, one call (median of 9)', g.direct, 'ms'), ...queryPathRows(bare));
  } finally {
    await browser.close();
    await server.close();
  }
}

/** The Parquet rows alone: native before and after, the harness's bare Parquet run between. */
async function parquetOnly(rows) {
  const csvPath = await ensureCsv();
  const passes = [await nativePass(csvPath)];
  buildHarness();
  const server = await startStaticServer(new Map([[HARNESS_PREFIX, HARNESS_DIST]]), PORT);
  const browser = await chromium.launch(launchOptions());
  let p;
  try {
    p = await runBareParquet(browser, `${server.url}${HARNESS_PREFIX}bare.html`, PARQUET_FILE);
    logParquet(p);
  } finally {
    await browser.close();
    await server.close();
  }
  passes.push(await nativePass(csvPath));
  rows.push(...parquetRows(undefined, p, nativeMedians(passes), ''));
}

function logParquet(p) {
  console.log(`  Parquet alone: decode ${p.decodeMs.toFixed(0)} ms, decode + insert first ${p.coldMs.toFixed(0)} ms, warm ${p.warmMs.toFixed(0)} ms; warm by rows per batch ${JSON.stringify(p.byBatchRows)}`);
  const r = p.duckdbReader;
  if ('failed' in r) {
    // Loaded but failing is a defect, unlike an unreachable repository.
    console.error(`  Parquet through DuckDB's read_parquet failed: ${r.failed}`);
    process.exitCode = 1;
  } else console.log(`  Parquet through DuckDB's read_parquet: ${'unavailable' in r ? `unavailable (${r.unavailable})` : `first ${r.firstMs.toFixed(0)} ms, warm ${r.warmMs.toFixed(0)} ms, ${r.rows} rows`}`);
}

/** The candidate DuckDB-WASM package beside the app's (no native, no app). */
async function candidateOnly(rows) {
  const pkg = process.env.BENCH_DUCKDB_WASM;
  if (!pkg || !existsSync(join(pkg, 'package.json'))) throw new Error('--only=duckdb-candidate needs BENCH_DUCKDB_WASM=<folder of a @duckdb/duckdb-wasm package>');
  const csvPath = await ensureCsv();
  const candidateDist = `${HARNESS_DIST}-candidate`;
  if (!process.env.BENCH_SKIP_HARNESS_BUILD) {
    buildHarness();
    buildHarness(candidateDist, pkg);
  }
  console.log(`candidate: @duckdb/duckdb-wasm ${JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version} vs the app's ${packageVersion('@duckdb/duckdb-wasm')}`);
  const server = await startStaticServer(new Map([[HARNESS_PREFIX, HARNESS_DIST], ['/__candidate/', candidateDist]]), PORT);
  const browser = await chromium.launch(launchOptions());
  try {
    const urls = { current: `${server.url}${HARNESS_PREFIX}compare.html`, candidate: `${server.url}/__candidate/compare.html` };
    rows.push(...candidateRows(await measureCandidate(browser, urls, csvPath)));
  } finally {
    await browser.close();
    await server.close();
  }
}

async function nativePass(csvPath) {
  const pass = await runNative(csvPath);
  if (pass.csvRows !== CSV_ROWS) throw new Error(`native read_csv produced ${pass.csvRows} rows`);
  const m = nativeMedians([pass]);
  console.log(`  ${pass.version}, threads=${pass.threads}: startup ${m.startup.toFixed(0)}, read_csv ${m.csvIngest.toFixed(0)}, group by ${m.groupBy.toFixed(0)}, read_parquet ${m.parquetLoad.toFixed(0)}, aggregate ${m.parquetAggregate.toFixed(0)} ms`);
  const one = m.oneThread;
  console.log(`  one thread: read_csv ${one.csvIngest.toFixed(0)}, group by ${one.groupBy.toFixed(0)}, read_parquet ${one.parquetLoad.toFixed(0)}, aggregate ${one.parquetAggregate.toFixed(0)} ms`);
  return pass;
}

function packageVersion(name) {
  return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
}

/** What the figures depend on besides the code: written next to latest.json. */
function machineNote() {
  return { cores: availableParallelism(), loadavg1m: round(loadavg()[0], 2) };
}

async function main() {
  const began = performance.now();
  const meta = { date: new Date().toISOString(), driver: '', chromium: '', duckdbWasm: packageVersion('@duckdb/duckdb-wasm'), duckdbNative: '', nativeThreads: '', before: machineNote(), after: machineNote() };
  console.log(`machine: ${meta.before.cores} cores, load average ${meta.before.loadavg1m} (a busy machine slows both engines, unevenly)`);
  if (onlyProviders) {
    const rows = await providerRows();
    printTable(rows);
    return;
  }
  if (onlyChaos) {
    const rows = await chaosRows();
    printTable(rows);
    return;
  }
  if (onlyParquet) {
    const rows = [];
    try {
      await parquetOnly(rows);
    } finally {
      printTable(rows);
      console.log(`machine load average now ${round(loadavg()[0], 2)}`);
    }
    return;
  }
  if (onlyCandidate) {
    const rows = [];
    try {
      await candidateOnly(rows);
    } finally {
      printTable(rows);
      console.log(`machine load average now ${round(loadavg()[0], 2)}`);
    }
    return;
  }
  if (onlyQueryPath) {
    const rows = [];
    try {
      await queryPathOnly(rows);
    } finally {
      printTable(rows);
      console.log(`machine load average now ${round(loadavg()[0], 2)}`);
    }
    return;
  }
  if (!existsSync(join(DIST, 'index.html'))) throw new Error(`no build at ${DIST}; run vite build first (or set BENCH_DIST)`);
  if (onlyCsv) {
    const rows = [];
    try {
      await csvOnly(rows);
    } finally {
      printTable(rows);
      console.log(`machine load average now ${round(loadavg()[0], 2)}`);
    }
    return;
  }
  if (onlyApp || onlyRender || onlyRepeat || onlyScale || onlyFigures || onlyWide || onlyImports) {
    const rows = [];
    try {
      await appOnly(rows, onlyRender ? renderRows : onlyRepeat ? repeatVisitRows : onlyScale ? scaleRows : onlyFigures ? figureRows : onlyWide ? wideRows : onlyImports ? importRows : undefined);
    } finally {
      printTable(rows);
    }
    return;
  }
  const csvPath = await ensureCsv();
  const csvMB = statSync(csvPath).size / 1e6;
  const rows = [];
  try {
    // Every native baseline sits beside the browser work it divides, in the same round: a pass
    // right before the app's engine rows and one right after them, another right after the bare
    // engine rows. (The second pass used to come after every browser row, the scale matrix and
    // the figures included, an hour later on a machine whose load had moved.)
    console.log('native DuckDB (@duckdb/node-api), the pass before the app…');
    const before = await nativePass(csvPath);
    meta.duckdbNative = before.version;
    meta.nativeThreads = before.threads;
    let nativeApp;
    let nativeBare;

    const roots = new Map([['/', DIST]]);
    const server = await startStaticServer(roots, PORT);
    let browser;
    let wasm;
    let bare;
    let bareParquet;
    let via = '';
    const python = [];
    const app = [];
    try {
      browser = await chromium.launch(launchOptions());
      meta.chromium = browser.version();
      console.log(`chromium ${meta.chromium} → ${server.url} (build ${DIST})`);
      let driver = driverArg;
      if (driver === 'auto') driver = (await appIsReady(browser, `${server.url}/`)) ? 'app' : 'harness';
      let pageURL = `${server.url}/`;
      if (driver === 'harness') {
        buildHarness();
        roots.set(HARNESS_PREFIX, HARNESS_DIST);
        pageURL = `${server.url}${HARNESS_PREFIX}`;
        via = ' [harness]';
      }
      meta.driver = driver;
      console.log(`DuckDB-WASM via the ${driver}…`);
      wasm = await runWasm(browser, pageURL, csvPath, before.aggregateRows);
      console.log('native DuckDB, the pass right after the app (same round)…');
      const afterApp = await nativePass(csvPath);
      nativeApp = nativeMedians([before, afterApp]);
      try {
        if (driver !== 'harness') {
          buildHarness();
          roots.set(HARNESS_PREFIX, HARNESS_DIST);
        }
        bare = await runBareCsv(browser, `${server.url}${HARNESS_PREFIX}bare.html`, csvPath);
        if (bare.rows !== CSV_ROWS) throw new Error(`bare read_csv produced ${bare.rows} rows`);
        console.log(`  bare read_csv (same boot, no load path): first ${bare.firstMs.toFixed(0)} ms, then ${bare.defaultMs.toFixed(0)} ms; with the app's read_csv options ${bare.appOptionsMs.toFixed(0)} ms`);
        bareParquet = await runBareParquet(browser, `${server.url}${HARNESS_PREFIX}bare.html`, PARQUET_FILE);
        logParquet(bareParquet);
        console.log('native DuckDB, the pass right after the bare engine rows (same round)…');
        nativeBare = nativeMedians([afterApp, await nativePass(csvPath)]);
      } catch (e) {
        console.error(`bare read_csv failed: ${e instanceof Error ? e.message : String(e)}`);
        process.exitCode = 1;
      }
      try {
        python.push(...(await pythonRows(browser, `${server.url}/`)));
      } catch (e) {
        console.error(`python rows failed: ${e instanceof Error ? e.message : String(e)}`);
        process.exitCode = 1;
      }
      if (driver === 'app') {
        console.log('the whole app: cold load, shell, streaming…');
        app.push(...(await appPass(browser, `${server.url}/`)));
        console.log('a CSV bigger than the tab’s memory…');
        try {
          app.push(...(await bigFileRows(browser, `${server.url}/`)));
        } catch (e) {
          console.error(`bigger-than-memory rows failed: ${e instanceof Error ? e.message : String(e)}`);
          process.exitCode = 1;
        }
        console.log('the scale matrix: wide and long tables, each beside native DuckDB…');
        app.push(...(await scaleRows(browser, `${server.url}/`)));
        console.log('big figures: a 35 MB fig, a 10M-row create_chart…');
        try {
          app.push(...(await figureRows(browser, `${server.url}/`)));
        } catch (e) {
          console.error(`big-figure rows failed: ${e instanceof Error ? e.message : String(e)}`);
          process.exitCode = 1;
        }
        console.log('imports: a 5 MB dictionary as CSV and JSON…');
        try {
          app.push(...(await importRows(browser, `${server.url}/`)));
        } catch (e) {
          console.error(`import rows failed: ${e instanceof Error ? e.message : String(e)}`);
          process.exitCode = 1;
        }
      }
    } finally {
      await browser?.close();
      await server.close();
    }

    rows.push(...rowsFor(wasm, nativeApp, csvMB, via));
    if (bare && nativeBare) rows.push(...bareRows(wasm, bare, nativeBare, csvMB, via));
    if (bareParquet && nativeBare) rows.push(...parquetRows(wasm, bareParquet, nativeBare, via));
    rows.push(...python, ...app);
    try {
      rows.push(...(await providerRows()));
    } catch (e) {
      console.error(`provider rows failed: ${e instanceof Error ? e.message : String(e)}`);
      process.exitCode = 1;
    }
    try {
      rows.push(...(await chaosRows()));
    } catch (e) {
      console.error(`chaos rows failed: ${e instanceof Error ? e.message : String(e)}`);
      process.exitCode = 1;
    }
  } finally {
    const outDir = join(BENCH_DIR, 'results');
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify(rows, null, 2)}\n`);
    meta.after = machineNote();
    writeFileSync(join(outDir, 'latest.meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
    printTable(rows);
    console.log(`machine load average now ${meta.after.loadavg1m} on ${meta.after.cores} cores`);
    console.log(`wrote bench/results/latest.json (${rows.length} rows) in ${((performance.now() - began) / 1000).toFixed(0)} s`);
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exitCode = 1;
});
