import { describe, expect, it } from 'vitest';
import { SPLIT_MAX, SPLIT_MIN, readSplit } from './WorkbenchState.svelte';

describe('the stored conversation width', () => {
  it('is used when it lies within the splitter’s range', () => {
    expect(readSplit(String(SPLIT_MIN))).toBe(SPLIT_MIN);
    expect(readSplit('61.5')).toBe(61.5);
    expect(readSplit(String(SPLIT_MAX))).toBe(SPLIT_MAX);
  });

  it('falls back to the default when missing, out of range or not a number', () => {
    for (const raw of [null, '', '12', '95', 'wide', 'NaN']) expect(readSplit(raw)).toBe(52);
  });
});
