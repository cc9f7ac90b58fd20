/// <reference lib="webworker" />
// DuckDB-WASM by itself, eh or threaded (coi) build, booted the same bare way for both (no
// extensions, no early compile: those are the app's and would apply to either), then the user's
// first load and first query on it. Times are ms from the page's navigation start.
import * as duckdb from '@duckdb/duckdb-wasm';
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import ehWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import coiWasm from '@duckdb/duckdb-wasm/dist/duckdb-coi.wasm?url';
import coiWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-coi.worker.js?url';
import coiPthread from '@duckdb/duckdb-wasm/dist/duckdb-browser-coi.pthread.worker.js?url';
import { ENGINE_SETUP_SQL } from '../../workers/data/engine/duckdbEngine';
import { readCsvSql } from '../../workers/data/engine/csvOptions';

export type CompareReply =
  | { ok: true; bundle: string; source: string; threads: string; bootMs: number; fileAt: number; loadMs: number; registerMs: number; queryMs: number; rows: number; version: string }
  | { ok: false; error: string };

let pageOrigin = performance.timeOrigin;
const sincePage = () => performance.timeOrigin + performance.now() - pageOrigin;
let booting: Promise<{ db: duckdb.AsyncDuckDB; conn: duckdb.AsyncDuckDBConnection; bootMs: number; bundle: string }> | undefined;

async function boot(bundle: 'eh' | 'coi') {
  const worker = new Worker(bundle === 'coi' ? coiWorker : ehWorker);
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker);
  if (bundle === 'coi') await db.instantiate(coiWasm, coiPthread);
  else await db.instantiate(ehWasm);
  await db.open({
    query: { castBigIntToDouble: true, castDecimalToDouble: true },
    ...(bundle === 'coi' ? { maximumThreads: self.navigator.hardwareConcurrency } : {}),
  });
  const conn = await db.connect();
  for (const sql of ENGINE_SETUP_SQL) await conn.query(sql);
  return { db, conn, bootMs: sincePage(), bundle };
}

const GROUP_BY = 'SELECT category, count(*) AS n, sum(qty) AS total_qty, avg(price) AS avg_price, avg(score) AS avg_score FROM t GROUP BY category ORDER BY category';

self.addEventListener('message', (ev: MessageEvent<{ kind: 'boot'; bundle: 'eh' | 'coi'; pageOrigin: number } | { kind: 'file'; file: File; source: 'file' | 'buffer' }>) => {
  const m = ev.data;
  if (m.kind === 'boot') {
    pageOrigin = m.pageOrigin;
    booting = boot(m.bundle);
    booting.catch(() => {});
    return;
  }
  void (async () => {
    if (!booting) throw new Error('no boot message came first');
    const fileAt = sincePage();
    const { db, conn, bootMs, bundle } = await booting;
    const t0 = performance.now();
    const path = '/dataseer/compare.csv';
    // Timed with the registration: the buffer's copy is part of its cost.
    if (m.source === 'buffer') await db.registerFileBuffer(path, new Uint8Array(await m.file.arrayBuffer()));
    else await db.registerFileHandle(path, m.file, duckdb.DuckDBDataProtocol.BROWSER_FILEREADER, true);
    const registerMs = performance.now() - t0;
    await conn.query(`CREATE TABLE t AS SELECT * FROM ${readCsvSql(path, { encoding: 'utf-8', tsv: false, fullSample: false })}`);
    await db.dropFile(path);
    const loadMs = performance.now() - t0;
    const t1 = performance.now();
    await conn.query(GROUP_BY);
    const queryMs = performance.now() - t1;
    const rows = Number((await conn.query('SELECT count(*)::DOUBLE AS n FROM t')).getChild('n')?.get(0));
    const threads = String((await conn.query("SELECT current_setting('threads')::VARCHAR AS t")).getChild('t')?.get(0));
    const version = await db.getVersion();
    self.postMessage({ ok: true, bundle, source: m.source, threads, bootMs, fileAt, loadMs, registerMs, queryMs, rows, version } satisfies CompareReply);
  })().catch((err: unknown) => self.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) } satisfies CompareReply));
});
