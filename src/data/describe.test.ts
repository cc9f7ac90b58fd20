import { describe, expect, it } from 'vitest';
import { columnSummary, describeSize, pastedFileName } from './describe';

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

describe('columnSummary', () => {
  it('says distinct and missing values and the range, or the commonest value', () => {
    expect(columnSummary({ name: 'mass', type: 'DOUBLE', nulls: 2, distinct: 94, min: 2700, max: 6300.5 }, 344)).toBe('94 distinct · 2 missing (1%) · 2,700 – 6301');
    expect(columnSummary({ name: 'island', type: 'VARCHAR', nulls: 0, distinct: 3, top: [{ value: 'Biscoe', count: 168 }] }, 344)).toBe('3 distinct · most often Biscoe');
  });
});
