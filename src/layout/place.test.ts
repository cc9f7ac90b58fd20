import { describe, expect, it } from 'vitest';
import { formatPlace, HOME, parsePlace, samePlace } from './place';

describe('place in the hash', () => {
  it('round-trips a full place, with names that need escaping', () => {
    const place = { view: 'sql' as const, conversation: 'c-1 2&x', dataset: 'seattle_weather' };
    expect(formatPlace(place)).toBe('#view=sql&c=c-1+2%26x&d=seattle_weather');
    expect(parsePlace(formatPlace(place))).toEqual(place);
  });

  it('reads the old section anchors as their view', () => {
    expect(parsePlace('#python')).toEqual({ ...HOME, view: 'python' });
    expect(parsePlace('evaluate')).toEqual({ ...HOME, view: 'evaluate' });
  });

  it('falls back to home for an empty or unknown hash, and ignores blank values', () => {
    expect(parsePlace('')).toEqual(HOME);
    expect(parsePlace('#view=nowhere&c=%20&d=')).toEqual(HOME);
    expect(parsePlace('#top')).toEqual(HOME);
  });

  it('compares places field by field', () => {
    expect(samePlace(HOME, { ...HOME })).toBe(true);
    expect(samePlace(HOME, { ...HOME, dataset: 'a' })).toBe(false);
  });
});
