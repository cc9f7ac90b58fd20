// The bench's rows for Parquet through DuckDB's own reader (read_parquet, the parquet extension),
// measured by harness/bareParquet.ts where the engine's set-up could load that extension.

const round = (v) => Math.round(v * 10) / 10;

function row(name, value, baseline) {
  return { name, value: round(value), unit: 'ms', baseline: { name: baseline.name, value: round(baseline.value) }, ratio: Math.round((value / baseline.value) * 100) / 100 };
}

/**
 * When the extension could not be loaded (offline, or the extension repository unreachable, as on
 * the development machine), one row with no value that says why: the run goes on and does not fail.
 * @param {{ warmMs: number, duckdbReader?: { firstMs: number, warmMs: number, rows: number } | { unavailable: string } | { failed: string } }} p
 * @param {{ parquetLoad: number, oneThread: { parquetLoad: number } }} native
 * @returns {{ name: string, value: number | null, unit: string, baseline?: { name: string, value: number }, ratio?: number }[]}
 */
export function duckdbReaderRows(p, native) {
  const r = p.duckdbReader;
  const label = 'flights-3m.parquet: DuckDB’s read_parquet (parquet extension), no load path';
  if (!r) return [{ name: `${label}: not measured`, value: null, unit: 'ms' }];
  if ('unavailable' in r) return [{ name: `${label}: unavailable (${r.unavailable})`, value: null, unit: 'ms' }];
  if ('failed' in r) return [{ name: `${label}: FAILED with the extension loaded (${r.failed.split('\n')[0]})`, value: null, unit: 'ms' }];
  const base = { name: 'native: CREATE TABLE AS read_parquet', value: native.parquetLoad };
  return [
    row(`${label}, the engine's first`, r.firstMs, base),
    row(`${label}, warm`, r.warmMs, base),
    row(`${label}, warm, vs native on one thread`, r.warmMs, { name: 'native, threads = 1: CREATE TABLE AS read_parquet', value: native.oneThread.parquetLoad }),
    row('flights-3m.parquet: DuckDB’s read_parquet vs parquet-wasm decode + Arrow insert (both warm, no load path)', r.warmMs, { name: 'decode + Arrow insert, warm', value: p.warmMs }),
  ];
}
