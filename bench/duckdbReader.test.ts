import { describe, expect, it } from 'vitest';
import { duckdbReaderRows } from './duckdbReader.mjs';

const native = { parquetLoad: 400, oneThread: { parquetLoad: 700 } };

describe('bench rows for Parquet through DuckDB’s reader', () => {
  it('prints one row with no value and the reason when the parquet extension was not loaded', () => {
    const why = 'parquet: not loaded: https://extensions.duckdb.org/v1.4.3/wasm_eh/parquet.duckdb_extension.wasm could not be fetched (Failed to fetch)';
    const rows = duckdbReaderRows({ warmMs: 2000, duckdbReader: { unavailable: why } }, native);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.value).toBeNull();
    expect(rows[0]?.name).toContain('unavailable');
    expect(rows[0]?.name).toContain(why);
  });

  it('says it failed, not that it was unavailable, when the loaded reader threw', () => {
    const rows = duckdbReaderRows({ warmMs: 2000, duckdbReader: { failed: 'IO Error: boom\nmore' } }, native);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.name).toContain('FAILED');
    expect(rows[0]?.name).toContain('IO Error: boom');
    expect(rows[0]?.name).not.toContain('more');
  });

  it('compares read_parquet with native and with the parquet-wasm path when it ran', () => {
    const rows = duckdbReaderRows({ warmMs: 2000, duckdbReader: { firstMs: 1200, warmMs: 800, rows: 3_000_000 } }, native);
    expect(rows.map((r) => [r.value, r.baseline?.value, r.ratio])).toEqual([
      [1200, 400, 3],
      [800, 400, 2],
      [800, 700, 1.14],
      [800, 2000, 0.4],
    ]);
  });
});
