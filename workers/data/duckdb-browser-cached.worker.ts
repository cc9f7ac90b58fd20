/// <reference lib="webworker" />
/**
 * DuckDB-WASM's own eh worker, with two changes to how its `.wasm` arrives:
 *
 * - It starts compiling the module as soon as this worker starts, instead of when the data
 *   worker's `instantiate` message arrives: the two overlap. DuckDB's call to
 *   `WebAssembly.instantiateStreaming` is then answered from that compilation.
 * - `TransformStream` is hidden. With it, DuckDB wraps the download in a progress stream, a new
 *   Response that V8 cannot match to the code it cached for the file; the app never reads that
 *   progress. DuckDB uses TransformStream for nothing else (its only two mentions are that check
 *   and that wrapper).
 */
// The import is hoisted above the lines below; that is fine, as DuckDB looks at both only when
// it is told to instantiate.
import '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js';
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';

Reflect.deleteProperty(self, 'TransformStream');

const wasmUrl = new URL(ehWasm, self.location.href).href;
// A failed early compile (no streaming support, a wrong MIME type) is not an error here: DuckDB
// then compiles the file itself, as it would have, and reports what goes wrong.
const early: Promise<WebAssembly.Module | undefined> = WebAssembly.compileStreaming(fetch(wasmUrl)).catch(() => undefined);

const instantiateStreaming = WebAssembly.instantiateStreaming.bind(WebAssembly);
WebAssembly.instantiateStreaming = async (source, imports) => {
  const response = await source;
  if (response.url !== wasmUrl) return instantiateStreaming(response, imports);
  // DuckDB's own download of the file being compiled already: stopped at once, so a first
  // visit does not fetch 34 MB twice over.
  response.body?.cancel().catch(() => {});
  const module = await early;
  if (module) return { module, instance: await WebAssembly.instantiate(module, imports) };
  return instantiateStreaming(fetch(wasmUrl), imports);
};
