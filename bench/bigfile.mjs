// The bigger-than-memory row: a generated CSV whose estimated footprint passes the tab's memory
// ceiling (workers/data/engine/footprint.ts: 4 GiB of wasm less 768 MiB of headroom, CSV at 1.5× its
// size) is added through the app, which attaches it as a view over the file; a GROUP BY then
// streams it from disk. Reported: the add (one scan, to count rows), the query, the memory DuckDB
// holds afterwards, DuckDB's peak wasm memory, and the peak resident memory of the tab's process
// (which also counts the reads DuckDB-WASM makes of the File, garbage the worker collects lazily).
import { statSync } from 'node:fs';
import { ensureCsv } from './gen-csv.mjs';
import { ourRenderers, peakMB } from './procMemory.mjs';
import { coldStart, loadFile, newPage, runQuery, settled, showSqlConsole } from './wasm.mjs';

/** ~2.5 GB: estimated at 1.5× that, past the 3.25 GiB a load may take. */
export const BIG_ROWS = 26_000_000;
const BIG_TABLE = 'big_rows';

/** The first cell of the console's result grid, once a query has run. */
export async function scalar(page, sql) {
  const before = await page.evaluate(() => performance.getEntriesByName('dataseer:query').length);
  await showSqlConsole(page);
  await page.getByRole('textbox', { name: 'SQL query', exact: true }).fill(sql);
  await page.getByRole('button', { name: 'Run SQL' }).click();
  await page.waitForFunction((n) => performance.getEntriesByName('dataseer:query').length > n, before, { timeout: 600_000, polling: 100 });
  const cell = page.getByRole('grid', { name: 'Query results' }).getByRole('gridcell').first();
  return (await cell.innerText()).trim();
}

/**
 * The highest peak resident memory (VmHWM) among this bench's own renderer processes, in MB: the
 * tab's page and its workers live in one (other users' browsers on a shared machine are not
 * read). Linux only (reads /proc); null elsewhere.
 */
function rendererPeakMB() {
  return peakMB(ourRenderers());
}

/**
 * The size of DuckDB's wasm memory, in MB, read from its worker (DuckDB-WASM keeps its bindings
 * on that worker's global). Wasm memory never shrinks, so this is DuckDB's peak so far.
 */
export async function duckdbHeapMB(page) {
  for (const worker of page.workers()) {
    if (!worker.url().includes('duckdb')) continue;
    const bytes = await worker.evaluate(() => globalThis.DUCKDB_BINDINGS?.mod?.HEAPU8?.buffer?.byteLength ?? null).catch(() => null);
    if (typeof bytes === 'number') return Math.round(bytes / 1e6);
  }
  return null;
}

/** @returns {Promise<{name: string, value: number, unit: string}[]>} */
export async function bigFileRows(browser, baseURL) {
  const path = await ensureCsv({ rows: BIG_ROWS, fileName: `${BIG_TABLE}.csv` });
  const sizeMB = statSync(path).size / 1e6;
  const { context, page } = await newPage(browser);
  try {
    await coldStart(page, baseURL);
    await settled(page);
    const load = await loadFile(page, path);
    const kind = await scalar(page, `SELECT table_type FROM information_schema.tables WHERE table_name = '${BIG_TABLE}'`);
    if (kind !== 'VIEW') throw new Error(`${BIG_TABLE} was loaded as ${kind}, not as a view over the file`);
    const query = await runQuery(page, `SELECT category, count(*) AS n, avg(price) AS avg_price FROM ${BIG_TABLE} GROUP BY category ORDER BY category`, 8, 0);
    const duckdbMB = Number(await scalar(page, 'SELECT round(sum(memory_usage_bytes) / 1e6)::INTEGER AS mb FROM duckdb_memory()'));
    const peakMB = rendererPeakMB();
    const heapMB = await duckdbHeapMB(page);
    console.log(
      `  ${sizeMB.toFixed(0)} MB CSV as a view: added (one scan) in ${load.ms.toFixed(0)} ms, GROUP BY ${query.firstMs.toFixed(0)} ms; DuckDB holds ${duckdbMB} MB after, its wasm memory peaked at ${heapMB ?? '?'} MB${peakMB === null ? '' : `; the tab's process peaked at ${peakMB} MB resident`}`,
    );
    const label = `${sizeMB.toFixed(0)} MB CSV past the memory ceiling, as a view`;
    const rows = [
      { name: `${label}: add (one scan to count rows)`, value: Math.round(load.ms), unit: 'ms' },
      { name: `${label}: GROUP BY category, streamed from the file`, value: Math.round(query.firstMs), unit: 'ms' },
      { name: `${label}: DuckDB memory in use after the query (file ${sizeMB.toFixed(0)} MB)`, value: duckdbMB, unit: 'MB' },
    ];
    if (heapMB !== null) rows.push({ name: `${label}: DuckDB's wasm memory, its peak (wasm memory never shrinks)`, value: heapMB, unit: 'MB' });
    if (peakMB !== null) rows.push({ name: `${label}: peak resident memory of the tab's process (page and workers), add + query`, value: peakMB, unit: 'MB' });
    return rows;
  } finally {
    await context.close();
  }
}
