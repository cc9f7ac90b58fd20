import type { DataFormat } from '../../../protocol/data';

/**
 * Guesses how much wasm memory a load will need, so a file that cannot fit is refused up front
 * with advice instead of crashing DuckDB halfway. DuckDB-WASM's heap cannot grow past 4 GiB
 * (wasm32); we keep headroom for query working memory.
 */

export const WASM_CEILING_BYTES = 4 * 1024 ** 3;
export const HEADROOM_BYTES = 768 * 1024 ** 2;

/**
 * Peak bytes in wasm per source byte. Text formats shrink into typed columns but the in-memory
 * table plus parse buffers peak around 1.5×; Parquet and .xlsx are compressed (often 3–10×),
 * and the JS readers hand DuckDB Arrow copies batch by batch, so their peak is wider still.
 */
const MULTIPLIER: Record<DataFormat, number> = {
  csv: 1.5,
  tsv: 1.5,
  json: 1.2,
  ndjson: 1.2,
  arrow: 2,
  parquet: 6,
  xlsx: 10,
};

export function estimateFootprint(format: DataFormat, sizeBytes: number): number {
  return Math.ceil(sizeBytes * MULTIPLIER[format]);
}

export type FootprintCheck = { ok: true; estimate: number } | { ok: false; estimate: number; message: string; suggestion: string };

const mib = (n: number) => `${Math.round(n / 1024 ** 2).toLocaleString('en-US')} MB`;

/** Refuses when the estimate plus what DuckDB already holds would pass the ceiling. */
export function checkFootprint(fileName: string, format: DataFormat, sizeBytes: number, usedBytes: number, ceiling = WASM_CEILING_BYTES): FootprintCheck {
  const estimate = estimateFootprint(format, sizeBytes);
  const available = ceiling - HEADROOM_BYTES - usedBytes;
  if (estimate <= available) return { ok: true, estimate };
  return {
    ok: false,
    estimate,
    message: `${fileName} (${mib(sizeBytes)}) would need about ${mib(estimate)} of memory in the browser; about ${mib(Math.max(0, available))} is left under the 4 GB WebAssembly limit.`,
    suggestion:
      usedBytes > 0
        ? 'Remove datasets you no longer need, or load a sample of the file (fewer rows) or only the columns you need.'
        : 'Load a sample of the file (fewer rows) or only the columns you need, e.g. split it or export a subset first.',
  };
}
