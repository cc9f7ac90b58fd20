/**
 * The page's workers, each created here and nowhere else (Vite bundles a worker from the
 * `new Worker(new URL(…))` or `?worker` form it finds in this file).
 */
import PythonWorker from '../../workers/python/python.worker.ts?worker';
import duckdbEhWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import { DUCKDB_PORT, type DuckDBPortMessage } from '../../protocol/duckdbPort';
import { WORKSPACE_DATA_WORKER } from '../../protocol/workspace';

/**
 * DuckDB's exception-handling build needs wasm exceptions: the probe module DuckDB's own
 * selectBundle validates. Where it fails, the data worker picks DuckDB's fallback build itself.
 */
const WASM_EXCEPTIONS_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 8, 1, 6, 0, 6, 64, 25, 11, 11]);

let earlyDuckDB: Worker | undefined;

/** Starts DuckDB's own worker before the data worker exists (early.ts); the first data worker takes it over. */
export function startDuckDBEarly(): void {
  if (earlyDuckDB || typeof WebAssembly === 'undefined' || !WebAssembly.validate(WASM_EXCEPTIONS_PROBE)) return;
  performance.mark('dataseer:duckdb:worker');
  earlyDuckDB = new Worker(new URL('../../workers/data/duckdb-browser-cached.worker.ts', import.meta.url), { type: 'module', name: 'duckdb' });
  earlyStarted = true;
}

/**
 * Files the workers started here fetch for themselves, outside the page's own resource timing
 * (the service worker keeps them after a first visit it did not control, src/sw/register.ts).
 */
export function workerFetchedFiles(): string[] {
  return earlyStarted ? [new URL(duckdbEhWasm, document.baseURI).href] : [];
}
let earlyStarted = false;

/** The early worker, once: a data worker started later (a restart) starts its own. */
function takeEarlyDuckDB(): Worker | undefined {
  const w = earlyDuckDB;
  earlyDuckDB = undefined;
  return w;
}

/** The one place the data worker's entry is spawned (the user's, or a benchmark's workspace). */
const newDataWorker = (name: string): Worker => new Worker(new URL('../../workers/data/data.worker.ts', import.meta.url), { type: 'module', name });

export const spawnDataWorker = (): Worker => {
  // The first step of DuckDB's start on the page's timeline (the others: DataClient's marks).
  performance.mark('dataseer:duckdb:spawn');
  const worker = newDataWorker('dataseer-data');
  const duckdb = takeEarlyDuckDB();
  if (!duckdb) {
    worker.postMessage({ kind: DUCKDB_PORT, port: null } satisfies DuckDBPortMessage);
    return worker;
  }
  const { port1, port2 } = new MessageChannel();
  duckdb.postMessage({ kind: DUCKDB_PORT, port: port1 } satisfies DuckDBPortMessage, [port1]);
  worker.postMessage({ kind: DUCKDB_PORT, port: port2 } satisfies DuckDBPortMessage, [port2]);
  // One engine: DuckDB's worker ends with the data worker, and its crash is the data worker's
  // crash (as when DuckDB's worker is nested in it), so the data worker is restarted.
  const terminate = worker.terminate.bind(worker);
  worker.terminate = () => {
    duckdb.terminate();
    terminate();
  };
  duckdb.addEventListener('error', (ev) => {
    worker.dispatchEvent(new ErrorEvent('error', { message: `DuckDB's worker failed: ${ev.message || 'it stopped'}` }));
  });
  return worker;
};

/** A benchmark workspace's data worker: its own DuckDB, no saved datasets (protocol/workspace.ts). */
export const spawnWorkspaceDataWorker = (): Worker => {
  const worker = newDataWorker(WORKSPACE_DATA_WORKER);
  worker.postMessage({ kind: DUCKDB_PORT, port: null } satisfies DuckDBPortMessage);
  return worker;
};

export const spawnAgentWorker = (): Worker =>
  new Worker(new URL('../../workers/agent/agent.worker.ts', import.meta.url), { type: 'module', name: 'agent' });

export const spawnPythonWorker = (): Worker => new PythonWorker({ name: 'python' });

/** The page's decode worker (protocol/decode.ts): Arrow results become grid rows off the main thread. */
export const spawnDecodeWorker = (): Worker => new Worker(new URL('../../workers/decode/decode.worker.ts', import.meta.url), { type: 'module', name: 'decode' });
/** The parse worker (imports off the main thread); one at a time, ended to cancel a parse (src/files/parseClient.ts). */
export const spawnParseWorker = (): Worker => new Worker(new URL('../../workers/parse/parse.worker.ts', import.meta.url), { type: 'module', name: 'parse' });
