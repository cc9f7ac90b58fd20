/// <reference lib="webworker" />
/**
 * DuckDB-WASM's own eh worker, with two changes to how its `.wasm` arrives:
 *
 * - The module is compiled from the moment this worker starts (duckdbWasmEarly.ts, imported
 *   first so it runs before DuckDB's code is evaluated), not when the data worker's
 *   `instantiate` message arrives.
 * - `TransformStream` is hidden. With it, DuckDB wraps the download in a progress stream, a new
 *   Response that V8 cannot match to the code it cached for the file; the app never reads that
 *   progress. DuckDB uses TransformStream for nothing else (its only two mentions are that check
 *   and that wrapper), and looks only when told to instantiate, after this module has run.
 * - Started by the page (src/engines/early.ts), it serves the data worker through a port
 *   (duckdbPortBridge.ts, imported before DuckDB's code so it sees the port first).
 */
import './engine/duckdbPortBridge';
import './engine/duckdbWasmEarly';
import '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js';

Reflect.deleteProperty(self, 'TransformStream');
