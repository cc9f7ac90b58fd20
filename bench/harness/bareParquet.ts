// Parquet through the app's own reader and Arrow insert, with none of the rest of the load path:
// decode alone, then decode + insert cold (the engine's first Arrow insert) and warm; and DuckDB's
// own read_parquet, where the engine's set-up loaded the parquet extension (extensions.ts).
import { REGISTERED_DIR, type Engine } from '../../workers/data/engine/duckdbEngine';
import { ingestParquetNative } from '../../workers/data/loaders/parquetNative';
import { ingestArrowStreams } from '../../workers/data/loaders/arrowIngest';
import { convertParquet } from '../../workers/data/loaders/parquet';

export interface ParquetTimes {
  decodeMs: number;
  coldMs: number;
  warmMs: number;
  rows: number;
  /** Warm loads with other batch sizes (rows per Arrow batch → ms). */
  byBatchRows: Record<number, number>;
  /**
   * DuckDB's read_parquet through the app's own path for it (parquetNative.ts): first, then warm;
   * or why it could not run (the parquet extension was not loaded, and what extensions.ts said);
   * or how it failed once loaded (kept apart, so the other Parquet rows still print).
   */
  duckdbReader: { firstMs: number; warmMs: number; rows: number } | { unavailable: string } | { failed: string };
}

const BATCH_SIZES = [32_768, 131_072, 524_288, 1_048_576, 3_000_000];

async function decodeOnly(file: File): Promise<number> {
  const t0 = performance.now();
  for (const table of await convertParquet(file, {})) for await (const _ of table.batches) void _;
  return performance.now() - t0;
}

async function load(engine: Engine, file: File, name: string, batchRows?: number): Promise<number> {
  const t0 = performance.now();
  const [table] = await convertParquet(file, batchRows ? { batchRows } : {});
  if (!table) throw new Error('no table in the file');
  await ingestArrowStreams(engine, table, name, `${name}_scratch`, () => {});
  return performance.now() - t0;
}

async function loadNative(engine: Engine, file: File, name: string): Promise<number> {
  const t0 = performance.now();
  await ingestParquetNative(engine, file, name, `${REGISTERED_DIR}bench_${name}.parquet`);
  return performance.now() - t0;
}

async function timeDuckdbReader(engine: Engine, file: File): Promise<ParquetTimes['duckdbReader']> {
  if (!engine.extensions?.parquet) {
    const why = engine.extensions?.detail.find((d) => d.startsWith('parquet')) ?? engine.extensions?.detail[0] ?? 'this engine loads no extensions';
    return { unavailable: why };
  }
  const firstMs = await loadNative(engine, file, 'pq_native_first');
  const rows = Number((await engine.query('SELECT count(*)::DOUBLE AS n FROM pq_native_first')).getChild('n')?.get(0));
  await engine.query('DROP TABLE pq_native_first');
  const warmMs = await loadNative(engine, file, 'pq_native_warm');
  await engine.query('DROP TABLE pq_native_warm');
  return { firstMs, warmMs, rows };
}

export async function timeParquet(engine: Engine, file: File): Promise<ParquetTimes> {
  // DuckDB's reader first: on a fresh engine, as a page's first Parquet load would be.
  const duckdbReader = await timeDuckdbReader(engine, file).catch((e: unknown) => ({ failed: e instanceof Error ? e.message : String(e) }));
  const decodeMs = await decodeOnly(file);
  const coldMs = await load(engine, file, 'pq_cold');
  const rows = Number((await engine.query('SELECT count(*)::DOUBLE AS n FROM pq_cold')).getChild('n')?.get(0));
  await engine.query('DROP TABLE pq_cold');
  const warmMs = await load(engine, file, 'pq_warm');
  await engine.query('DROP TABLE pq_warm');
  const byBatchRows: Record<number, number> = {};
  for (const n of BATCH_SIZES) {
    byBatchRows[n] = await load(engine, file, 'pq_batch', n);
    await engine.query('DROP TABLE pq_batch');
  }
  return { decodeMs, coldMs, warmMs, rows, byBatchRows, duckdbReader };
}
