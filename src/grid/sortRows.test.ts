import { describe, expect, it } from 'vitest';
import { sortOrder, toTsv } from './sortRows';

describe('sortOrder', () => {
  const rows = [[3, 'b'], [null, 'a10'], [1, 'a2'], [2, null]];
  it('sorts numbers by value and text naturally, NULLs last both ways', () => {
    expect(sortOrder(rows, 0, false)).toEqual([2, 3, 0, 1]);
    expect(sortOrder(rows, 0, true)).toEqual([0, 3, 2, 1]);
    expect(sortOrder(rows, 1, false)).toEqual([2, 1, 0, 3]);
  });
});

describe('toTsv', () => {
  it('writes a header and rows, flattening tabs and newlines', () => {
    expect(toTsv(['a', 'b'], [[1, 'x\ty'], [null, 'l1\nl2']])).toBe('a\tb\n1\tx y\n\tl1 l2');
  });

  it('neutralises formulas as the CSV download does, and keeps numbers', () => {
    const rows = [['=HYPERLINK("http://127.0.0.1:9/?d="&A2,"x")'], ["=cmd|' /C calc'!A0"], ['@SUM(A1)'], ['+1+1'], ['-2'], ['\t=1+1'], [-3], ['safe']];
    expect(toTsv(['=col'], rows).split('\n')).toEqual(["'=col", `'=HYPERLINK("http://127.0.0.1:9/?d="&A2,"x")`, "'=cmd|' /C calc'!A0", "'@SUM(A1)", "'+1+1", '-2', "' =1+1", '-3', 'safe']);
  });
});
