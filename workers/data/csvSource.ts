import type { Engine } from './duckdbEngine';
import { HEADROOM_BYTES, WASM_CEILING_BYTES, estimateFootprint } from './footprint';
import { memoryUsed } from './catalog';

/**
 * How a text file is handed to DuckDB for one read. From a buffer, DuckDB reads memory it owns;
 * from a registered File, every block it reads is a synchronous FileReader call. A bare read_csv
 * of the 98 MB bench CSV from a buffer beat the registered File in 9 of 11 paired rounds, ~1.4×
 * (issue #25); so a file is copied into DuckDB's memory whenever that copy still leaves room for
 * the table it becomes, and a file that does not fit that way is read by reference, as before.
 * `npm run bench -- --only=csv-source` times both, the copy apart from the read: re-run it on a
 * quiet machine (on 2026-11-26 at load average 40+ it showed no gain: see the branch's report).
 */
export type SourceKind = 'buffer' | 'file';

/**
 * Whether `sizeBytes` fits as a buffer: the load's usual footprint (footprint.ts) plus the copy
 * itself, on top of what DuckDB already holds, under the ceiling less its headroom.
 */
export function fitsAsBuffer(format: 'csv' | 'tsv', sizeBytes: number, usedBytes: number, ceiling = WASM_CEILING_BYTES): boolean {
  return estimateFootprint(format, sizeBytes) + sizeBytes <= ceiling - HEADROOM_BYTES - usedBytes;
}

/** Registers `blob` at `path` the faster way that fits; the caller drops it when the read is over. */
export async function registerSource(engine: Engine, path: string, blob: Blob, format: 'csv' | 'tsv', ceiling?: number): Promise<SourceKind> {
  if (fitsAsBuffer(format, blob.size, await memoryUsed(engine), ceiling)) {
    await engine.registerBuffer(path, new Uint8Array(await blob.arrayBuffer()));
    return 'buffer';
  }
  await engine.registerBlob(path, blob);
  return 'file';
}
