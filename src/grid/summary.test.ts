import { describe, expect, it } from 'vitest';
import { summarizeRows, summaryFromProfile, summaryText } from './summary';
import { columnFormat } from './format';

const columns = [
  { name: 'species', type: 'VARCHAR' },
  { name: 'mass', type: 'INTEGER' },
  { name: 'day', type: 'DATE' },
  { name: 'note', type: 'VARCHAR' },
];
const rows = [
  ['Adelie', 36500, '2024-02-01', 'a'],
  ['Gentoo', null, '2023-12-31', 'b'],
  ['Adelie', 4200, null, null],
];
const text = (i: number, s: ReturnType<typeof summarizeRows>) => summaryText(s[i]!, columnFormat(columns[i]!.name, columns[i]!.type));

describe('column summaries', () => {
  it('summarise held rows: missing, min–max for ordered types, top value for text', () => {
    const s = summarizeRows(columns, rows);
    expect(text(0, s)).toBe('VARCHAR · none missing · top Adelie (2)');
    expect(text(1, s)).toBe('INTEGER · 1 missing · 4200 – 36,500');
    expect(text(2, s)).toBe('DATE · 1 missing · 2023-12-31 – 2024-02-01');
    expect(text(3, s)).toBe('VARCHAR · 1 missing · all distinct');
  });
  it('say when a column is all missing, and nothing about rows of an empty result', () => {
    expect(summaryText(summarizeRows([{ name: 'x', type: 'DOUBLE' }], [[null], [null]])[0]!, { kind: 'double' })).toBe('DOUBLE · all missing');
    expect(summaryText(summarizeRows([{ name: 'x', type: 'DOUBLE' }], [])[0]!, { kind: 'double' })).toBe('DOUBLE');
  });
  it('come from a dataset profile without recounting', () => {
    const s = summaryFromProfile(columns.slice(0, 3), {
      name: 'p',
      rowCount: 344,
      elapsedMs: 1,
      columns: [
        { name: 'species', type: 'VARCHAR', nulls: 0, distinct: 3, top: [{ value: 'Adelie', count: 152 }] },
        { name: 'mass', type: 'INTEGER', nulls: 2, distinct: 94, min: 2700, max: 6300 },
      ],
    });
    expect(text(0, s as never)).toBe('VARCHAR · none missing · top Adelie (152)');
    expect(text(1, s as never)).toBe('INTEGER · 2 missing · 2700 – 6300');
    expect(s[2]).toBeNull();
  });
});
