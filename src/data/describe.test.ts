import { describe, expect, it } from 'vitest';
import { describeSize, pastedFileName } from './describe';

describe('describeSize', () => {
  it('counts rows and columns', () => {
    expect(describeSize({ rowCount: 1234, columns: [{ name: 'a', type: 'X' }, { name: 'b', type: 'Y' }] })).toBe('1,234 rows × 2 columns');
    expect(describeSize({ rowCount: 1, columns: [{ name: 'a', type: 'X' }] })).toBe('1 row × 1 column');
  });
});

describe('pastedFileName', () => {
  it('names tab-separated text .tsv and anything else .csv', () => {
    expect(pastedFileName('a\tb\n1\t2')).toBe('pasted.tsv');
    expect(pastedFileName('a,b\n1,2')).toBe('pasted.csv');
    expect(pastedFileName('single')).toBe('pasted.csv');
  });
});
