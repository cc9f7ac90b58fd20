import { describe, expect, it } from 'vitest';
import { listWindow, scrollToKeep } from './listWindow';

describe('listWindow', () => {
  const base = { viewportHeight: 256, itemHeight: 40, count: 2000, overscan: 4 };

  it('draws a screenful and the overscan, and accounts for the rest in px', () => {
    const w = listWindow({ ...base, scrollTop: 0 });
    expect(w).toEqual({ start: 0, end: 12, before: 0, after: (2000 - 12) * 40 });
    const mid = listWindow({ ...base, scrollTop: 40 * 1000 });
    expect(mid.start).toBe(996);
    expect(mid.end).toBe(1012);
    expect(mid.before + (mid.end - mid.start) * 40 + mid.after).toBe(2000 * 40);
  });

  it('reaches the last item at the bottom', () => {
    const w = listWindow({ ...base, scrollTop: 2000 * 40 - 256 });
    expect(w.end).toBe(2000);
    expect(w.after).toBe(0);
  });

  it('draws everything of a short list, and nothing of an empty one', () => {
    expect(listWindow({ ...base, count: 5, scrollTop: 0 })).toEqual({ start: 0, end: 5, before: 0, after: 0 });
    expect(listWindow({ ...base, count: 0, scrollTop: 0 })).toEqual({ start: 0, end: 0, before: 0, after: 0 });
  });
});

describe('scrollToKeep', () => {
  const win = { start: 10, end: 30, before: 400, after: 0 };
  it('leaves the scroll alone while the item has drawn neighbours', () => {
    expect(scrollToKeep(20, win, 600, 256, 40)).toBe(600);
  });
  it('centres an item on the window edge, so the next Tab stop is drawn', () => {
    const top = scrollToKeep(29, win, 600, 256, 40);
    const next = listWindow({ scrollTop: top, viewportHeight: 256, itemHeight: 40, count: 2000, overscan: 4 });
    expect(next.start).toBeLessThan(28);
    expect(next.end).toBeGreaterThan(30);
    expect(scrollToKeep(10, win, 600, 256, 40)).toBeLessThan(400);
  });
});
