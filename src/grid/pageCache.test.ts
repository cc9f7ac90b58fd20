import { describe, expect, it } from 'vitest';
import { PageCache } from './pageCache';

describe('PageCache', () => {
  it('lists the blocks a row range needs, skipping loaded and loading ones', () => {
    const c = new PageCache<number>(10, 5);
    expect(c.missing(5, 35, 100)).toEqual([0, 1, 2, 3]);
    c.markLoading(1);
    c.set(2, Array.from({ length: 10 }, (_, i) => 20 + i));
    expect(c.missing(5, 35, 100)).toEqual([0, 3]);
  });

  it('does not ask for blocks past the end of the table', () => {
    const c = new PageCache<number>(10, 5);
    expect(c.missing(0, 50, 12)).toEqual([0, 1]);
    expect(c.missing(20, 30, 12)).toEqual([]);
  });

  it('returns rows by absolute index once loaded', () => {
    const c = new PageCache<string>(10, 5);
    expect(c.get(13)).toBeUndefined();
    c.set(1, Array.from({ length: 10 }, (_, i) => `r${10 + i}`));
    expect(c.get(13)).toBe('r13');
    expect(c.range(1)).toEqual({ offset: 10, limit: 10 });
  });

  it('evicts the least recently used block but keeps the ones on screen', () => {
    const c = new PageCache<number>(1, 2);
    c.set(0, [0]);
    c.set(1, [1]);
    c.get(0); // 0 is now more recent than 1
    c.set(2, [2]);
    expect(c.get(1)).toBeUndefined();
    expect(c.get(0)).toBe(0);
    c.set(3, [3], [0, 2]);
    expect(c.size).toBe(3);
    expect(c.get(0)).toBe(0);
  });

  it('retries a block whose fetch failed', () => {
    const c = new PageCache<number>(10, 5);
    c.markLoading(0);
    expect(c.missing(0, 10, 100)).toEqual([]);
    c.fail(0);
    expect(c.missing(0, 10, 100)).toEqual([0]);
  });
});
