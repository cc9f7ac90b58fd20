import { describe, expect, it } from 'vitest';
import readXlsxFile from 'read-excel-file/universal';
import { XlsxWorkbook, unescapeXml } from './xlsxReader';
import { makeXlsx, type FixtureCell } from './testing/xlsxFixture';

const rows: FixtureCell[][] = [
  [],
  ['Name', 'Amount', null, 'When', 'Flag', { inline: 'a & b <c>' }],
  ['Zoë', 1.5, null, { date: 45351.25 }, true, 'x'],
  [null, -2, 'gap', { date: 1 }, false, { inline: 'line\nbreak' }],
  [],
  ['tail', 1e21, null, null, null, null],
];

describe('XlsxWorkbook', () => {
  it('reads the same cells as read-excel-file (an independent parser)', async () => {
    const bytes = makeXlsx([
      { name: 'One', rows },
      { name: 'Two "quoted"', rows: [['k'], [1]] },
    ]);
    const workbook = XlsxWorkbook.open(bytes);
    expect(workbook.sheets.map((s) => s.name)).toEqual(['One', 'Two "quoted"']);
    const theirs = await readXlsxFile(new Blob([bytes]), { trim: false });
    for (const [index, sheet] of workbook.sheets.entries()) {
      const ours = workbook.readSheet(sheet);
      const width = Math.max(...ours.map((row) => row.length));
      const padded = ours.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? null));
      // read-excel-file drops trailing empty rows and pads all rows; compare on that footing.
      expect(padded.map((row) => row.map(String))).toEqual(theirs[index]!.data.map((row) => row.map(String)));
    }
  });

  it('turns date-formatted serials into UTC dates and keeps plain numbers', () => {
    const workbook = XlsxWorkbook.open(makeXlsx([{ name: 'S', rows }]));
    const data = workbook.readSheet(workbook.sheets[0]!);
    expect(data[0]).toEqual([]);
    expect(data[2]).toEqual(['Zoë', 1.5, null, new Date(Date.UTC(2024, 1, 29, 6)), true, 'x']);
    expect(data[3]![3]).toEqual(new Date(Date.UTC(1899, 11, 31)));
    expect(data[5]![1]).toBe(1e21);
  });

  it('tells custom date formats from other custom formats', () => {
    const workbook = XlsxWorkbook.open(
      makeXlsx([{ name: 'S', rows: [[{ number: 45351.5, format: 'datetime' }, { number: 1234.5, format: 'euro' }]] }]),
    );
    expect(workbook.readSheet(workbook.sheets[0]!)).toEqual([[new Date(Date.UTC(2024, 1, 29, 12)), 1234.5]]);
  });

  it('unescapes XML entities and Excel _xHHHH_ escapes', () => {
    expect(unescapeXml('a &amp; b &lt;c&gt; &#233; &#x263A; _x000D_')).toBe('a & b <c> é ☺ \r');
  });

  it('rejects what is not a zip or not a workbook', () => {
    expect(() => XlsxWorkbook.open(new TextEncoder().encode('hello'))).toThrow(/not a zip/);
  });
});
