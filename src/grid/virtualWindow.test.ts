import { describe, expect, it } from 'vitest';
import { columnEdges, columnWindow, rowWindow } from './virtualWindow';

describe('rowWindow', () => {
  it('draws only the visible rows plus overscan', () => {
    const w = rowWindow({ scrollTop: 0, viewportHeight: 280, rowHeight: 28, rowCount: 1000, overscan: 2 });
    expect(w).toEqual({ start: 0, end: 13, totalHeight: 28_000, offsetY: 0 });
  });

  it('follows the scroll position', () => {
    const w = rowWindow({ scrollTop: 2800, viewportHeight: 280, rowHeight: 28, rowCount: 1000, overscan: 2 });
    expect(w.start).toBe(98);
    expect(w.end).toBe(113);
    expect(w.offsetY).toBe(98 * 28);
  });

  it('clamps at the end of the list', () => {
    const w = rowWindow({ scrollTop: 1e9, viewportHeight: 280, rowHeight: 28, rowCount: 1000, overscan: 2 });
    expect(w.end).toBe(1000);
    expect(w.start).toBeLessThan(1000 - 10 + 1);
    // The last row's bottom lines up with the bottom of the spacer.
    expect(w.offsetY + (w.end - w.start) * 28).toBe(w.totalHeight);
  });

  it('handles fewer rows than the viewport holds', () => {
    expect(rowWindow({ scrollTop: 0, viewportHeight: 500, rowHeight: 28, rowCount: 3 })).toEqual({
      start: 0,
      end: 3,
      totalHeight: 84,
      offsetY: 0,
    });
  });

  it('is empty for no rows', () => {
    expect(rowWindow({ scrollTop: 10, viewportHeight: 500, rowHeight: 28, rowCount: 0 }).end).toBe(0);
  });

  it('compresses very tall lists and still reaches the last row', () => {
    const rowCount = 10_000_000;
    const input = { viewportHeight: 300, rowHeight: 30, rowCount, overscan: 0, maxHeight: 1_000_000 };
    const top = rowWindow({ ...input, scrollTop: 0 });
    expect(top.totalHeight).toBe(1_000_000);
    expect(top.start).toBe(0);
    const bottom = rowWindow({ ...input, scrollTop: 1_000_000 - 300 });
    expect(bottom.end).toBe(rowCount);
    // Drawn rows sit inside the viewport at the current scroll position.
    expect(bottom.offsetY).toBeGreaterThanOrEqual(1_000_000 - 300 - 30);
    const middle = rowWindow({ ...input, scrollTop: (1_000_000 - 300) / 2 });
    expect(Math.abs(middle.start - rowCount / 2)).toBeLessThan(10);
  });
});

describe('columnWindow', () => {
  const widths = Array.from({ length: 2000 }, () => 100);
  const edges = columnEdges(widths);

  it('sums the widths into edges', () => {
    expect(columnEdges([10, 20, 30])).toEqual([0, 10, 30, 60]);
    expect(columnEdges([])).toEqual([0]);
  });

  it('draws the columns in view plus the overscan on each side', () => {
    expect(columnWindow({ edges, scrollLeft: 0, viewportWidth: 450, overscanPx: 0 })).toEqual({ start: 0, end: 5, before: 0 });
    expect(columnWindow({ edges, scrollLeft: 1000, viewportWidth: 450, overscanPx: 200 })).toEqual({ start: 8, end: 17, before: 800 });
  });

  it('reaches the last of 2,000 columns', () => {
    const w = columnWindow({ edges, scrollLeft: 1e9, viewportWidth: 800, overscanPx: 100 });
    expect(w.end).toBe(2000);
    expect(w.start).toBe(2000 - 9);
    expect(w.before).toBe(w.start * 100);
  });

  it('follows variable widths', () => {
    const e = columnEdges([50, 400, 50, 50, 400]);
    expect(columnWindow({ edges: e, scrollLeft: 60, viewportWidth: 100 })).toEqual({ start: 1, end: 2, before: 50 });
    expect(columnWindow({ edges: e, scrollLeft: 460, viewportWidth: 100 })).toEqual({ start: 2, end: 5, before: 450 });
  });

  it('draws at least one column, and nothing for no columns', () => {
    expect(columnWindow({ edges: columnEdges([300]), scrollLeft: 0, viewportWidth: 0 })).toEqual({ start: 0, end: 1, before: 0 });
    expect(columnWindow({ edges: [0], scrollLeft: 0, viewportWidth: 500 })).toEqual({ start: 0, end: 0, before: 0 });
  });

  it('clamps a scroll position past the end (the last columns stay drawn)', () => {
    const w = columnWindow({ edges: columnEdges([100, 100, 100]), scrollLeft: 5000, viewportWidth: 150 });
    expect(w).toEqual({ start: 1, end: 3, before: 100 });
  });
});
