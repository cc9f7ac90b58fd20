import { describe, expect, it } from 'vitest';
import { BYTES_PER_VALUE, checkFootprint, estimateFootprint, valuesPerByte } from './footprint';

const MB = 1024 ** 2;
const GB = 1024 ** 3;

describe('footprint', () => {
  it('scales by format', () => {
    expect(estimateFootprint('csv', 100 * MB)).toBe(150 * MB);
    expect(estimateFootprint('parquet', 100 * MB)).toBeGreaterThan(estimateFootprint('csv', 100 * MB));
  });
  it('accepts a 100 MB CSV', () => {
    expect(checkFootprint('big.csv', 'csv', 100 * MB, 0).ok).toBe(true);
  });
  it('refuses a 3 GB CSV with a message naming the file and a suggestion', () => {
    const r = checkFootprint('huge.csv', 'csv', 3 * GB, 0);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.message).toMatch(/^huge\.csv \(3,072 MB\) would need about 4,608 MB/);
      expect(r.suggestion).toMatch(/sample/);
    }
  });
  it('counts what is already loaded', () => {
    expect(checkFootprint('a.parquet', 'parquet', 300 * MB, 0).ok).toBe(true);
    const r = checkFootprint('a.parquet', 'parquet', 300 * MB, 2 * GB);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.suggestion).toMatch(/Remove datasets/);
  });
  // The bench's scale matrix: 500 columns × 1M small numbers (1.56 GB of CSV) passed the check at
  // 1.5× its size and then ran out of DuckDB's 3 GiB limit while loading. Counted by values, it
  // goes to a view; a file of long text values is still judged by its size.
  it('counts a delimited file by its values when they outweigh its size', () => {
    const enc = new TextEncoder();
    const wide = enc.encode(`${Array.from({ length: 500 }, (_, i) => `c${i}`).join(',')}\n${Array.from({ length: 40 }, (_, r) => Array.from({ length: 500 }, (_, i) => String((r * i) % 97)).join(',')).join('\n')}\n12,3`);
    const perByte = valuesPerByte(wide, ',') ?? 0;
    expect(perByte).toBeGreaterThan(0.3);
    const size = 1.56e9;
    expect(estimateFootprint('csv', size, perByte)).toBeGreaterThan(size * perByte * (BYTES_PER_VALUE - 1));
    // The app's limit on a big device: 3 GiB, with 768 MiB of headroom above it.
    expect(checkFootprint('scale_500c_1m.csv', 'csv', size, 0, 3 * GB + 768 * MB, perByte).ok).toBe(false);
    expect(checkFootprint('scale_500c_1m.csv', 'csv', size, 0, 3 * GB + 768 * MB, undefined).ok).toBe(true);
    const text = enc.encode(`id,note\n${Array.from({ length: 200 }, (_, i) => `${i},"a long note about row ${i}, with words in it"`).join('\n')}\n`);
    expect(estimateFootprint('csv', 100 * MB, valuesPerByte(text, ','))).toBe(150 * MB);
    expect(valuesPerByte(enc.encode('no line end yet'), ',')).toBeUndefined();
    expect(estimateFootprint('parquet', 100 * MB, 1)).toBe(estimateFootprint('parquet', 100 * MB));
  });
});

