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

/**
 * Wasm bytes a delimited file's value takes once typed: 8 for a BIGINT or DOUBLE, with validity
 * masks and the reader's buffers. By size alone a file of short numbers looks small: measured on
 * DuckDB-WASM (bench scale matrix), 10 columns × 10M small integers (341 MB of CSV) peaked at
 * 1.38 GB of wasm memory, and 500 columns × 1M (1.56 GB) ran out of a 3 GiB limit that 1.5× its
 * size said it would fit in.
 */
export const BYTES_PER_VALUE = 12;

/**
 * Values per byte of a delimited file, from its head: delimiters and line ends of its whole lines
 * over their bytes. A quoted delimiter or line end counts as one more value, so it errs high.
 */
export function valuesPerByte(head: Uint8Array, delimiter: ',' | '\t'): number | undefined {
  const d = delimiter.charCodeAt(0);
  let values = 0;
  let end = -1;
  for (let i = 0; i < head.length; i++) {
    const b = head[i];
    if (b === d) values++;
    else if (b === 10) {
      values++;
      end = i;
    }
  }
  if (end < 0) return undefined;
  // Delimiters after the last whole line belong to a line cut off by the head.
  for (let i = end + 1; i < head.length; i++) if (head[i] === d) values--;
  return values / (end + 1);
}

/** `valuesPerByte` (CSV, TSV): the file's values at BYTES_PER_VALUE each, when more than its size says. */
export function estimateFootprint(format: DataFormat, sizeBytes: number, valuesPerByte?: number): number {
  const bySize = Math.ceil(sizeBytes * MULTIPLIER[format]);
  if ((format !== 'csv' && format !== 'tsv') || valuesPerByte === undefined) return bySize;
  return Math.max(bySize, Math.ceil(sizeBytes * valuesPerByte * BYTES_PER_VALUE));
}

export type FootprintCheck = { ok: true; estimate: number } | { ok: false; estimate: number; message: string; suggestion: string };

const mib = (n: number) => `${Math.round(n / 1024 ** 2).toLocaleString('en-US')} MB`;

/** Refuses when the estimate plus what DuckDB already holds would pass the ceiling. */
export function checkFootprint(fileName: string, format: DataFormat, sizeBytes: number, usedBytes: number, ceiling = WASM_CEILING_BYTES, perByte?: number): FootprintCheck {
  const estimate = estimateFootprint(format, sizeBytes, perByte);
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
