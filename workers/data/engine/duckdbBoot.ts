import * as duckdb from '@duckdb/duckdb-wasm';
import type { RecordBatch } from 'apache-arrow';
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import mvpWasm from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url';
import mvpWorker from '@duckdb/duckdb-wasm/dist/duckdb-browser-mvp.worker.js?url';
import { memoryLimitSql } from './memoryBudget';
import { ENGINE_CONFIG_SQL, ENGINE_LOCK_SQL, type Engine, type ExtensionState, type ResultStream, type ScriptTokens, type StartPhase } from './duckdbEngine';
import { prefetchExtensions } from './extensions';
import { portAsWorker } from './duckdbPort';
import { UTC_ONLY_SQL } from './timeZones';

/**
 * Starts DuckDB-WASM from the assets Vite copies out of the npm package (no CDN). AsyncDuckDB runs
 * the engine in a worker nested inside the data worker: our worker stays responsive (list, assess,
 * progress events) while a long ingest or query runs, and a File handed to it is passed by
 * reference, never read into a JS string.
 *
 * The threaded (coi) build is not used. `npm run bench -- --only=csv` (bench/csvFloor.mjs) times
 * a user's first load and first query with each build, boot included: on 2026-11-26 (2 cores,
 * load average 30–37) the coi build took 3.3× the eh build's boot (28.7 s vs 8.6 s), its ingest of
 * the 98 MB CSV from a buffer was no faster (18.1 s vs 11.8 s) nor its first GROUP BY (1.07 s vs
 * 0.72 s), so page → first answer was 2.1× longer (44.6 s vs 21.5 s). And it cannot read a large
 * registered File at all ("No HTML5 file registered", duckdb-wasm #2243; 1 of 1 there), which the
 * view over a file bigger than memory depends on. It also needs SharedArrayBuffer wherever the app
 * is hosted. Worth measuring again on an idle many-core machine if DuckDB-WASM fixes #2243.
 *
 * DuckDB-WASM stays at 1.32.0 (npm's `latest`; DuckDB v1.4.3), not a 1.33.1-dev build. Tried on
 * 2026-11-26 from a scratch install: 1.32.1-dev1 and 1.33.1-dev5 embed v1.4.3 too, dev20 v1.4.4,
 * dev45 v1.5.1, dev57 v1.5.4, dev64 v1.5.5, dev65 v1.5.6 (`PRAGMA version`). None links Parquet,
 * JSON or ICU (`duckdb_extensions()`: only core_functions); each LOADs them from the repository
 * path of its own DuckDB version (dev65 asks for `/v1.5.6/wasm_eh/…`), so a newer build gains the
 * app no capability. Against it, for dev65:
 * - no faster for the user: `BENCH_DUCKDB_WASM=<its folder> node bench/run.mjs
 *   --only=duckdb-candidate` (eh build, the 98 MB CSV from a registered File, fresh pages, paired
 *   rounds in alternating order), median of the per-round ratios dev65 ÷ 1.32.0 in three passes
 *   (5 rounds at load average 11.7–13.2, 6 at 7.8–11.3, 6 at 21.5–23.7): page → DuckDB open
 *   1.34 / 1.10 / 1.08, first read_csv 1.09 / 1.16 / 1.04, first GROUP BY 1.22 / 1.20 / 0.89,
 *   page → first answer 1.22 / 1.03 / 0.98;
 * - its threaded build has the same #2243 fault: a registered File is posted only to the pthreads
 *   running at registration, so a scan on another one fails "No HTML5 file registered" (dev65 5 of
 *   5 runs; 1.32.0 failed 3, hung 1 and read it once, of 5);
 * - DuckDB 1.5 names tables catalog-qualified in `EXPLAIN (FORMAT JSON)` (`memory.main.t`), so
 *   modelSql.ts would refuse every model query (4 workers/data unit tests fail with it, besides
 *   the DUCKDB_VERSION check);
 * - its eh .wasm is 1.75 MB larger (36.0 vs 34.2 MB; gzip 8.14 vs 7.70 MB), and it is a prerelease.
 */

// The eh bundle's worker is our wrapper of DuckDB's (duckdb-browser-cached.worker.ts), started
// by URL below; selectBundle only needs to know it exists.
const BUNDLES: duckdb.DuckDBBundles = {
  mvp: { mainModule: mvpWasm, mainWorker: mvpWorker },
  eh: { mainModule: ehWasm, mainWorker: 'duckdb-browser-cached.worker' },
};

/** Exposes DuckDB's execution-progress callback, which AsyncDuckDB keeps protected. */
class ProgressDuckDB extends duckdb.AsyncDuckDB {
  onExecutionProgress(handler: (p: duckdb.ProgressEntry) => void): void {
    this._onExecutionProgress.push(handler);
  }
}

const now = (): number => performance.timeOrigin + performance.now();

export interface BootedEngine extends Engine {
  readonly startPhases: readonly StartPhase[];
  /** Percentage (0..100) of the running statement, when DuckDB reports one. */
  onProgress(handler: (percentage: number) => void): void;
}

/**
 * `port`: DuckDB's eh worker, already started by the page (duckdbPort.ts; the page starts it only
 * where the eh build runs, so no bundle choice is left to make); absent, DuckDB's worker is
 * started here, nested in this one.
 */
export async function bootDuckDB(port?: MessagePort | null, memoryLimitBytes?: number): Promise<BootedEngine> {
  const phases: StartPhase[] = [{ phase: 'boot', at: now() }];
  const bundle = port ? { mainModule: ehWasm, mainWorker: null, pthreadWorker: null } : await duckdb.selectBundle(BUNDLES);
  // DuckDB's extensions are fetched while its .wasm compiles; they are LOADed before the lock.
  const extensions = prefetchExtensions({
    fetch: (url, init) => fetch(url, init),
    platform: bundle.mainModule === ehWasm ? 'wasm_eh' : 'wasm_mvp',
    online: self.navigator.onLine,
  });
  const worker = port
    ? portAsWorker(port)
    : bundle.mainModule === ehWasm
      ? new Worker(new URL('../duckdb-browser-cached.worker.ts', import.meta.url), { type: 'module', name: 'duckdb' })
      : new Worker(bundle.mainWorker ?? mvpWorker);
  const db = new ProgressDuckDB(new duckdb.VoidLogger(), worker);
  await db.instantiate(bundle.mainModule, bundle.pthreadWorker);
  // Its worker's script, the .wasm download and compile, and the module's own start-up.
  phases.push({ phase: 'instantiated', at: now() });
  await db.open({
    // Numbers the UI and the agent can show and JSON-encode: BIGINT/HUGEINT/DECIMAL results
    // arrive as doubles (exact to 2^53), not BigInt or DecimalBigNum.
    query: { castBigIntToDouble: true, castDecimalToDouble: true },
  });
  phases.push({ phase: 'opened', at: now() });
  const conn = await db.connect();
  for (const sql of ENGINE_CONFIG_SQL) await conn.query(sql);
  if (memoryLimitBytes !== undefined) await conn.query(memoryLimitSql(memoryLimitBytes));
  const loaded = await extensions.load((sql) => conn.query(sql)).catch((e: unknown) => ({ icu: false, json: false, parquet: false, detail: [`not loaded: ${String(e)}`] }));
  // Without ICU, AT TIME ZONE and current_setting('TimeZone') answer for UTC and say what needs ICU.
  if (!loaded.icu) for (const sql of UTC_ONLY_SQL) await conn.query(sql).catch(() => undefined);
  phases.push({ phase: 'extensions', at: now() });
  for (const sql of ENGINE_LOCK_SQL) await conn.query(sql);
  phases.push({ phase: 'configured', at: now() });
  return new AsyncEngine(db, conn, phases, loaded);
}

class AsyncEngine implements BootedEngine {
  calls = 0;

  constructor(
    private readonly db: ProgressDuckDB,
    private readonly conn: duckdb.AsyncDuckDBConnection,
    readonly startPhases: readonly StartPhase[],
    readonly extensions: ExtensionState,
  ) {}

  version(): Promise<string> {
    return this.db.getVersion();
  }

  query(sql: string) {
    this.calls++;
    return this.conn.query(sql);
  }

  async send(sql: string): Promise<ResultStream> {
    this.calls++;
    const reader = await this.conn.send(sql, true);
    await reader.open();
    return { schema: reader.schema, batches: reader as AsyncIterable<RecordBatch> };
  }

  async cancel(): Promise<void> {
    await this.conn.cancelSent();
  }

  async tokenize(sql: string): Promise<ScriptTokens> {
    const t = await this.db.tokenize(sql);
    return { offsets: [...t.offsets], types: [...t.types] };
  }

  insertArrowStream(ipc: Uint8Array, table: string, create: boolean): Promise<void> {
    this.calls++;
    return this.conn.insertArrowFromIPCStream(ipc, { name: table, create });
  }

  registerBlob(name: string, blob: Blob): Promise<void> {
    return this.db.registerFileHandle(name, blob, duckdb.DuckDBDataProtocol.BROWSER_FILEREADER, true);
  }

  async dropFile(name: string): Promise<void> {
    await this.db.dropFile(name);
  }

  onProgress(handler: (percentage: number) => void): void {
    this.db.onExecutionProgress((p) => {
      const pct = Number(p.percentage);
      if (Number.isFinite(pct) && pct >= 0) handler(pct);
    });
  }
}
