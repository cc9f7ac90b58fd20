import { describe, expect, it } from 'vitest';
import { tableFromArrays, tableToIPC, vectorFromArray, Table, Utf8, Int32, DateMillisecond, Float64 } from 'apache-arrow';
import { decodeColumns } from './arrowColumns';

describe('decodeColumns', () => {
  it('keeps dense numeric columns as typed arrays and nulls as undefined', () => {
    const t = new Table({
      x: vectorFromArray([1.5, 2.5, 3.5]),
      n: vectorFromArray([1, null, 3], new Int32()),
      s: vectorFromArray(['a', null, 'c'], new Utf8()),
    });
    const out = decodeColumns(tableToIPC(t, 'stream'), ['DOUBLE', 'INTEGER', 'VARCHAR']);
    expect(out.columns).toEqual(['x', 'n', 's']);
    expect(out.types).toEqual(['DOUBLE', 'INTEGER', 'VARCHAR']);
    expect(out.rowCount).toBe(3);
    expect(out.values[0]).toBeInstanceOf(Float64Array);
    expect(Array.from(out.values[1] ?? [])).toEqual([1, undefined, 3]);
    expect(Array.from(out.values[2] ?? [])).toEqual(['a', undefined, 'c']);
  });

  it('turns DuckDB integers cast to doubles back into integers', () => {
    const t = new Table({
      n: vectorFromArray([168, 3e10, null], new Float64()),
      m: vectorFromArray([1, 2], new Float64()).concat(vectorFromArray([3], new Float64())),
    });
    const out = decodeColumns(tableToIPC(t, 'stream'), ['BIGINT', 'BIGINT']);
    expect(Array.from(out.values[0] ?? [])).toEqual([168, 3e10, undefined]);
    expect(out.values[1]).toBeInstanceOf(Int32Array);
    expect(Array.from(out.values[1] ?? [])).toEqual([1, 2, 3]);
  });

  it('turns dates into ISO strings', () => {
    const t = new Table({ d: vectorFromArray([new Date('2024-03-01T00:00:00Z')], new DateMillisecond()) });
    const out = decodeColumns(tableToIPC(t, 'stream'));
    expect(out.values[0]?.[0]).toBe('2024-03-01');
  });

  it('decodes a 100k-row stream', () => {
    const n = 100_000;
    const t = tableFromArrays({ i: Int32Array.from({ length: n }, (_, i) => i) });
    const out = decodeColumns(tableToIPC(t, 'stream'));
    expect(out.rowCount).toBe(n);
    expect(out.values[0]?.[n - 1]).toBe(n - 1);
  });
});
