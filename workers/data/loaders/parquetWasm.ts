/**
 * One-time start-up of the parquet-wasm module. In the worker bundle the wasm file is a Vite asset
 * fetched by URL; Node (tests, scripts) has no fetch for local files, so it hands in the bytes
 * with `setParquetWasmSource` before the first conversion.
 */
import init, { type InitInput } from 'parquet-wasm/esm';
import defaultWasmUrl from 'parquet-wasm/esm/parquet_wasm_bg.wasm?url';
import { messageOf } from '../../../shared/errors';

let source: InitInput = defaultWasmUrl;
let ready: Promise<void> | undefined;

/** Where the wasm comes from: URL, bytes or a compiled module. Only before the first use. */
export function setParquetWasmSource(wasm: InitInput): void {
  if (ready) throw new Error('parquet-wasm is already initialised; set its source before the first conversion');
  source = wasm;
}

export function initParquetWasm(): Promise<void> {
  ready ??= init({ module_or_path: source }).then(
    () => undefined,
    (error: unknown) => {
      // Let a later call retry (say, after a flaky fetch) instead of caching the failure.
      ready = undefined;
      throw new Error(`could not start the Parquet reader (parquet-wasm): ${errorText(error)}`, { cause: error });
    },
  );
  return ready;
}

export function errorText(error: unknown): string {
  return messageOf(error);
}
