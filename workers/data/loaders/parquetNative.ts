import type { Engine } from '../engine/duckdbEngine';
import { quoteIdent, quoteLiteral } from '../../../shared/sql';

/**
 * Parquet through DuckDB's own reader, when its Parquet extension was loaded at set-up: the file is
 * registered by reference and read by read_parquet, as native DuckDB reads it. Without the
 * extension, Parquet goes through parquet-wasm → Arrow (loaders/parquet.ts).
 */
export async function ingestParquetNative(engine: Engine, blob: Blob, table: string, path: string): Promise<void> {
  await engine.registerBlob(path, blob);
  try {
    await engine.query(`CREATE TABLE ${quoteIdent(table)} AS SELECT * FROM read_parquet(${quoteLiteral(path)})`);
  } finally {
    await engine.dropFile(path).catch(() => undefined);
  }
}
