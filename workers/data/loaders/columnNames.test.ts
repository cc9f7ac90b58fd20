import { describe, expect, it } from 'vitest';
import { uniqueColumnNames } from './columnNames';

describe('uniqueColumnNames', () => {
  it('names blank columns by position', () => {
    expect(uniqueColumnNames(['a', '', null, undefined, '  '])).toEqual([
      'a',
      'column_2',
      'column_3',
      'column_4',
      'column_5',
    ]);
  });

  it('suffixes repeats in order, case-insensitively', () => {
    expect(uniqueColumnNames(['x', 'x', 'X', 'y'])).toEqual(['x', 'x_2', 'X_3', 'y']);
  });

  it('never collides with a real name that looks generated', () => {
    expect(uniqueColumnNames(['x', 'x', 'x_2'])).toEqual(['x', 'x_3', 'x_2']);
    expect(uniqueColumnNames(['', 'column_1'])).toEqual(['column_1', 'column_1_2']);
  });

  it('keeps spaces, quotes, unicode and markup unchanged', () => {
    const names = ['first name', 'say "hi"', "it's", 'café ☕', '<script>alert(1)</script>', '2020'];
    expect(uniqueColumnNames(names)).toEqual(names);
  });
});
