import { describe, expect, it } from 'vitest';
import { checkFootprint, estimateFootprint } from './footprint';

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
});
