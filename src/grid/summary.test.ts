import { describe, expect, it } from 'vitest';
import { summarizeRows, summarizeRowsSliced, summaryFromProfile, summaryText } from './summary';
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
  it('are the same in slices, and dropped once no longer wanted', async () => {
    expect(await summarizeRowsSliced(columns, rows, () => true, 0)).toEqual(summarizeRows(columns, rows));
    let wanted = true;
    const pending = summarizeRowsSliced(columns, rows, () => wanted, 0);
    wanted = false;
    expect(await pending).toBeNull();
  });
  it('in slices, leave the task that asked before the first column', async () => {
    let done = false;
    const pending = summarizeRowsSliced(columns, rows, () => true, 1_000).then((s) => ((done = true), s));
    for (let i = 0; i < 20; i++) await Promise.resolve(); // every microtask, no new task
    expect(done).toBe(false);
    expect(await pending).toEqual(summarizeRows(columns, rows));
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
  it('show instants in a profile as the cells do: zoned ones in the user\'s zone, UTC-stored ones with +00:00', () => {
    const cols = [
      { name: 'at', type: 'TIMESTAMP WITH TIME ZONE' },
      { name: 'utc', type: 'TIMESTAMP' },
      { name: 'local', type: 'TIMESTAMP' },
    ];
    const range = (min: string, max: string) => ({ nulls: 0, distinct: 2, min, max });
    const s = summaryFromProfile(
      cols,
      {
        name: 'z',
        rowCount: 2,
        elapsedMs: 1,
        columns: [
          { name: 'at', type: cols[0]!.type, ...range('2024-03-10 01:30:00+00', '2024-07-01 12:00:00.5+00') },
          { name: 'utc', type: 'TIMESTAMP', ...range('2024-03-10 01:30:00', '2024-03-10 02:00:00') },
          { name: 'local', type: 'TIMESTAMP', ...range('2024-03-10 01:30:00', '2024-03-10 02:00:00') },
        ],
      },
      { timeZone: 'America/New_York', utcColumns: ['utc'] },
    );
    const line = (i: number) => summaryText(s[i]!, { kind: 'text' });
    // 01:30 UTC on 10 March is 20:30 the day before in New York (EST); in July it is EDT.
    expect(line(0)).toBe('TIMESTAMP WITH TIME ZONE · none missing · 2024-03-09 20:30:00-05:00 – 2024-07-01 08:00:00.500-04:00');
    expect(line(1)).toBe('TIMESTAMP · none missing · 2024-03-10 01:30:00+00:00 – 2024-03-10 02:00:00+00:00');
    // A plain timestamp from a file without zones is wall time, shown as DuckDB wrote it.
    expect(line(2)).toBe('TIMESTAMP · none missing · 2024-03-10 01:30:00 – 2024-03-10 02:00:00');
  });
});
