import { describe, expect, it } from 'vitest';
import { filterRows } from './filterRows';

const rows = [
  ['Adelie', 36500, null],
  ['Gentoo', 4200, 'NULL island'],
  ['chinstrap', null, 'x'],
];
const formats = [{ kind: 'text' as const }, { kind: 'int' as const }, { kind: 'text' as const }];

describe('filterRows', () => {
  it('finds text case-insensitively in any column', () => {
    expect(filterRows(rows, formats, 'GENT')).toEqual([1]);
    expect(filterRows(rows, formats, 'E')).toEqual([0, 1]);
  });
  it('finds numbers as shown and as stored', () => {
    expect(filterRows(rows, formats, '36,5')).toEqual([0]);
    expect(filterRows(rows, formats, '365')).toEqual([0]);
  });
  it('does not match the word NULL in a missing cell, only in a value', () => {
    expect(filterRows(rows, formats, 'null')).toEqual([1]);
  });
  it('keeps every row for blank text', () => {
    expect(filterRows(rows, formats, '  ')).toEqual([0, 1, 2]);
  });
});
