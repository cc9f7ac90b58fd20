import { describe, expect, it } from 'vitest';
import { partialCsv } from './partialCsv';

describe('a CSV of a capped result', () => {
  it('says in its file name and note that the query had more rows than the file', () => {
    const p = partialCsv('orders', 10_000, 10_000);
    expect(p.name).toBe('orders-first-10000-rows');
    expect(p.note).toBe(
      "Saved 10,000 rows: the result holds only the query's first 10,000, so its other rows are not in the file. Narrow the query (WHERE, GROUP BY) to download all it returns.",
    );
    // Filtered in the grid: the rows saved are fewer than the cap, still from the first 10,000.
    expect(partialCsv('orders', 12, 10_000).note).toMatch(/^Saved 12 rows: the result holds only the query's first 10,000/);
  });

  it('a whole result keeps its name and says nothing', () => {
    expect(partialCsv('orders', 42, undefined)).toEqual({ name: 'orders', note: '' });
  });
});
