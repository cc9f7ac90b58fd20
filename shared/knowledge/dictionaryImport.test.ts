import { describe, expect, it } from 'vitest';
import { dictionaryToJson, importDictionary, parseCsv } from './dictionaryImport';

describe('parseCsv', () => {
  it('reads RFC 4180 fields: quotes, doubled quotes, commas and line breaks inside quotes, CRLF, a BOM', () => {
    expect(parseCsv('\uFEFFa,b\r\n"x, ""y""","two\nlines"\n\n1,\n3,4')).toEqual([
      ['a', 'b'],
      ['x, "y"', 'two\nlines'],
      ['1', ''],
      ['3', '4'],
    ]);
    expect(parseCsv('a,')).toEqual([['a', '']]);
    expect(parseCsv('a"b,"c"d\n')).toEqual([['a"b', 'cd']]);
    expect(parseCsv('"open')).toEqual([['open']]);
  });
});

// Issue 37: a 5 MB dictionary import blocked the page 12.7 s (CSV) and 29 s (JSON): every entry
// was looked up by scanning the table's columns, and JSON went through the YAML parser.
describe('a codebook of 40,000 entries for a 2,000-column table', () => {
  const columns = Array.from({ length: 2000 }, (_, i) => `var_${i}`);
  const entries = Array.from({ length: 40_000 }, (_, i) => ({ name: `VAR_${i}`, description: `Variable ${i}, as asked`, unit: 'kg', role: 'measure' as const, codes: [], missing: [] }));
  it('reads as CSV and as JSON, matching names case-blind and naming the rest', () => {
    const csv = ['column,description,unit,role', ...entries.map((e) => `${e.name},"${e.description}",kg,measure`)].join('\n');
    const fromCsv = importDictionary(csv, 'book.csv', 'survey', columns);
    expect(fromCsv.dictionary.columns[1999]).toMatchObject({ name: 'var_1999', description: 'Variable 1999, as asked', unit: 'kg' });
    expect(fromCsv.warnings[0]).toMatch(/^Not in survey: VAR_2000, .* and 37980 more\.$/);
    const json = dictionaryToJson({ dataset: 'survey', status: 'draft', source: 'x', updated_at: '', row_meaning: 'one person', grain: '', caveats: [], joins: [], columns: entries });
    const fromJson = importDictionary(json, 'book.json', 'survey', columns);
    expect(fromJson.dictionary).toMatchObject({ row_meaning: 'one person' });
    expect(fromJson.dictionary.columns[5]).toMatchObject({ name: 'var_5', role: 'measure' });
  });
});
