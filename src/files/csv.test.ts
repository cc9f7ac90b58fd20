import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvField, toCsv } from './csv';
import { parseCsv } from '../export/testing/csv';

describe('csv', () => {
  it('quotes what RFC 4180 requires, doubles quotes, ends lines with CRLF, leads with a BOM', () => {
    const text = toCsv(['name', 'note'], [['a,b', 'say "hi"'], ['line\nbreak', null], ['plain', 3.5]]);
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(text.slice(1)).toBe('name,note\r\n"a,b","say ""hi"""\r\n"line\nbreak",\r\nplain,3.5\r\n');
    expect(parseCsv(text.slice(1))).toEqual([['name', 'note'], ['a,b', 'say "hi"'], ['line\nbreak', ''], ['plain', '3.5']]);
  });

  it('leaves the BOM out when asked', () => {
    expect(toCsv(['a'], [[1]], { bom: false })).toBe('a\r\n1\r\n');
  });

  it('defuses spreadsheet formulas in text but never changes numbers', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+1+cmd')).toBe("'+1+cmd");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('\tx')).toBe("'\tx");
    expect(csvField(-5)).toBe('-5');
    expect(csvField('-12.5')).toBe('-12.5');
    expect(csvField('+3e5')).toBe('+3e5');
    expect(csvField('=1', false)).toBe('=1');
  });

  it('writes booleans, nested values as JSON, missing cells as empty, and protects headers too', () => {
    expect(toCsv(['=a', 'b', 'c'], [[true, { k: [1] }]], { bom: false })).toBe(`'=a,b,c\r\ntrue,"{""k"":[1]}",\r\n`);
  });

  it('keeps unicode as is and quotes leading or trailing spaces', () => {
    expect(toCsv(['x'], [['Zürich 東京'], [' pad ']], { bom: false })).toBe('x\r\nZürich 東京\r\n" pad "\r\n');
  });
});
