import { describe, expect, it } from 'vitest';
import { columnPages, pageOfColumn, pageRange } from './profilePages';

const named = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `c${i + 1}` }));

describe('profile pages', () => {
  it('cuts 2,000 columns into pages of 300, the last one short', () => {
    const pages = columnPages(2000, 300);
    expect(pages).toHaveLength(7);
    expect(pages[1]).toEqual({ from: 300, to: 600 });
    expect(pages[6]).toEqual({ from: 1800, to: 2000 });
    expect(pages.reduce((n, p) => n + p.to - p.from, 0)).toBe(2000);
  });

  it('gives a narrow table one page', () => {
    expect(columnPages(7, 300)).toEqual([{ from: 0, to: 7 }]);
    expect(columnPages(0, 300)).toEqual([{ from: 0, to: 0 }]);
  });

  it('finds the page that holds a column by its name', () => {
    const columns = named(2000);
    expect(pageOfColumn(columns, 'c1500', 300)).toBe(1200);
    expect(pageOfColumn(columns, 'c1501', 300)).toBe(1500);
    expect(pageOfColumn(columns, 'c1', 300)).toBe(0);
    expect(pageOfColumn(columns, 'nope', 300)).toBeUndefined();
  });

  it('clamps a page start into the table', () => {
    expect(pageRange(1234, 2000, 300)).toEqual({ from: 1200, to: 1500 });
    expect(pageRange(5000, 2000, 300)).toEqual({ from: 1800, to: 2000 });
    expect(pageRange(-3, 2000, 300)).toEqual({ from: 0, to: 300 });
  });
});
