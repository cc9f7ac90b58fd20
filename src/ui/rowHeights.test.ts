import { describe, expect, it } from 'vitest';
import { RowHeights } from './rowHeights';

describe('RowHeights', () => {
  it('windows estimated rows as a fixed-height list would', () => {
    const h = new RowHeights(2_000, 24);
    expect(h.window(0, 240, 4)).toEqual({ start: 0, end: 15, before: 0, after: (2_000 - 15) * 24 });
    const mid = h.window(24 * 1_000, 240, 4);
    expect(mid.start).toBe(996);
    expect(mid.end).toBe(1_015);
    expect(mid.before + h.offset(mid.end) - h.offset(mid.start) + mid.after).toBe(2_000 * 24);
  });

  it('takes measured heights into the offsets; rows not drawn yet count as the mean of those measured', () => {
    const h = new RowHeights(100, 24);
    expect(h.set(0, 24)).toBe(true);
    expect(h.set(1, 24)).toBe(true);
    expect(h.set(2, 72)).toBe(true);
    expect(h.set(2, 72)).toBe(false);
    expect(h.offset(3)).toBe(24 * 2 + 72);
    expect(h.offset(100)).toBe(24 * 2 + 72 + 97 * 40);
    expect(h.indexAt(24 * 2 + 71)).toBe(2);
    expect(h.indexAt(24 * 2 + 72)).toBe(3);
    // A tall row in view leaves fewer rows to draw below it.
    expect(h.window(0, 96, 0)).toEqual({ start: 0, end: 3, before: 0, after: h.offset(100) - h.offset(3) });
    // Measured again (the list got wider): the mean follows.
    expect(h.set(2, 24)).toBe(true);
    expect(h.offset(100)).toBe(100 * 24);
  });

  it('reaches the last row at the bottom, and is empty when there are none', () => {
    const h = new RowHeights(50, 20);
    const w = h.window(50 * 20 - 100, 100, 2);
    expect(w.end).toBe(50);
    expect(w.after).toBe(0);
    expect(h.indexAt(1e9)).toBe(49);
    expect(new RowHeights(0, 20).window(0, 100, 2)).toEqual({ start: 0, end: 0, before: 0, after: 0 });
  });
});
