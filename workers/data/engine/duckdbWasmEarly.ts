/// <reference lib="webworker" />
/**
 * Starts compiling DuckDB's `.wasm` the moment its worker runs, and answers DuckDB's own
 * `WebAssembly.instantiateStreaming` call from that compilation. Imported by
 * duckdb-browser-cached.worker.ts before DuckDB's worker code, so this runs before that code is
 * evaluated, and the compile overlaps the rest of the start (the data worker's `instantiate`
 * message, DuckDB's own set-up).
 */
import ehWasm from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';

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
