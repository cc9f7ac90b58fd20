import { describe, expect, it } from 'vitest';
import { WindowReads } from './windowReads';

describe('the preview grid’s window reads', () => {
  it('a block scrolled out of view is aborted, one still in view is not', () => {
    const reads = new WindowReads();
    const near = reads.start(0);
    const far = reads.start(25_000);
    expect(reads.supersede([0, 1])).toEqual([25_000]);
    expect(far.aborted).toBe(true);
    expect(near.aborted).toBe(false);
    expect(reads.size).toBe(1);
  });

  it('a finished read is forgotten; a stale finish does not forget a newer read of the block', () => {
    const reads = new WindowReads();
    const first = reads.start(3);
    const second = reads.start(3);
    expect(first.aborted).toBe(true);
    reads.finish(3, first);
    expect(reads.size).toBe(1);
    reads.finish(3, second);
    expect(reads.size).toBe(0);
    expect(second.aborted).toBe(false);
  });

  it('Cancel aborts every read and holds the view until it moves', () => {
    const reads = new WindowReads();
    const a = reads.start(1);
    const b = reads.start(2);
    expect(reads.cancel('40:80').sort()).toEqual([1, 2]);
    expect([a.aborted, b.aborted]).toEqual([true, true]);
    // The grid asks again for the same rows when it redraws: they stay unread.
    expect(reads.holds('40:80')).toBe(true);
    expect(reads.holds('40:80')).toBe(true);
    // Scrolled: the hold ends, also when the view comes back.
    expect(reads.holds('60:100')).toBe(false);
    expect(reads.holds('40:80')).toBe(false);
  });
});
