import { describe, expect, it } from 'vitest';
import { fitSampleRows, fitWidth, MAX_FIT, summaryFit } from './columnFit';

describe('column fit', () => {
  it('reads fewer rows of a wide result, never fewer than three', () => {
    expect(fitSampleRows(10)).toBe(50);
    expect(fitSampleRows(2000)).toBe(5);
    expect(fitSampleRows(100_000)).toBe(3);
  });

  it('gives a header its stats on two lines (no "BIGIN…")', () => {
    const line = 'BIGINT · 0 missing · 0 – 96';
    const width = fitWidth({ name: 'item_2000', type: 'BIGINT' }, 0, { kind: 'int' }, [[1], [22]], line);
    expect(width).toBeGreaterThanOrEqual(summaryFit(line));
    expect(summaryFit('')).toBe(0);
  });

  it('grows with the longest value, within bounds', () => {
    const narrow = fitWidth({ name: 'a', type: 'VARCHAR' }, 0, { kind: 'text' }, [['x']], undefined);
    const wide = fitWidth({ name: 'a', type: 'VARCHAR' }, 0, { kind: 'text' }, [['x'.repeat(30)]], undefined);
    const huge = fitWidth({ name: 'a', type: 'VARCHAR' }, 0, { kind: 'text' }, [['x'.repeat(5000)]], undefined);
    expect(wide).toBeGreaterThan(narrow);
    expect(huge).toBe(MAX_FIT);
  });
});
