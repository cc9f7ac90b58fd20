import type { Engine } from './engine';
import { HEADROOM_BYTES, WASM_CEILING_BYTES, estimateFootprint } from './footprint';
import { memoryUsed } from './catalog';

/**
 * How a text file is handed to DuckDB for one read. From a buffer, DuckDB reads memory it owns;
 * from a registered File, every block it reads is a synchronous FileReader call across workers.
 * The bench measured the buffer ~1.4× faster on the 98 MB CSV (bench/README.md, `--only=csv`),
 * so a file is copied into DuckDB's memory whenever that copy still leaves room for the table it
 * becomes; a file that does not fit that way is read by reference, as before.
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
