/**
 * Imports that merge (issue 32): a partial file changes only what it gives, dbt doc blocks are
 * resolved, both `accepted_values` spellings and YAML merge keys are read.
 */
import { describe, expect, it } from 'vitest';
import { emptyDictionary, type DataDictionary } from '../../protocol/agent/knowledge';
import { acceptedValues, dictionaryToJson, importDictionary, mergeImport, parseCsv, readDocBlocks } from './dictionaryImport';

const COLS = ['region', 'income', 'age'];

function accepted(): DataDictionary {
  const d = emptyDictionary('survey', COLS);
  d.status = 'accepted';
  d.row_meaning = 'one respondent';
  d.columns = [
    { name: 'region', description: 'Region of residence', unit: '', role: 'dimension', codes: [{ code: '1', meaning: 'North' }], missing: [] },
    { name: 'income', description: 'Net income', unit: 'kEUR', role: 'measure', codes: [], missing: ['-9'] },
    { name: 'age', description: '', unit: '', role: 'other', codes: [], missing: [] },
  ];
  return d;
}

describe('an import merges into what is there', () => {
  it('a one-column CSV changes that column only: no description blanked, no role reset', () => {
    const imp = importDictionary('column,description\nincome,Yearly net household income\n', 'one.csv', 'survey', COLS);
    const { dictionary, preview } = mergeImport(accepted(), imp);
    expect(dictionary.columns[0]).toEqual(accepted().columns[0]);
    expect(dictionary.columns[1]).toEqual({ ...accepted().columns[1], description: 'Yearly net household income' });
    expect(dictionary.row_meaning).toBe('one respondent');
    expect(dictionary.status).toBe('draft');
    expect(preview).toEqual({ changed: [{ column: 'income', fields: ['description'] }], added: [], untouched: ['region', 'age'], table: [] });
  });

  it('names a column that had nothing as added, and one the file repeats as untouched', () => {
    const imp = importDictionary('column,description,unit\nage,Age in years,years\nregion,Region of residence,\n', 'two.csv', 'survey', COLS);
    expect(mergeImport(accepted(), imp).preview).toEqual({ changed: [], added: ['age'], untouched: ['region', 'income'], table: [] });
  });
});

describe("dbt's schema.yml", () => {
  const schema = `version: 2
column_defaults: &defaults
  meta:
    unit: kEUR
models:
  - name: survey
    description: '{{ doc("survey_rows") }}'
    columns:
      - name: income
        <<: *defaults
        description: "{{ doc('income_desc') }}"
      - name: region
        description: "{{ doc('not_written') }}"
        data_tests:
          - accepted_values:
              arguments:
                values: [1, 2, 3]
      - name: age
        tests:
          - accepted_values:
              values: ['18-29', '30+']
`;
  const docs = readDocBlocks(`Intro\n{% docs survey_rows %}\nOne respondent of wave 3.\n{% enddocs %}\n\n{%- docs income_desc -%}\nYearly net income of the household.\n{%- enddocs -%}\n`);

  it('resolves doc blocks, reads merge keys and both accepted_values spellings', () => {
    const { dictionary, warnings } = importDictionary(schema, 'schema.yml', 'survey', COLS, { docs });
    expect(dictionary.row_meaning).toBe('One respondent of wave 3.');
    expect(dictionary.columns[1]).toMatchObject({ name: 'income', description: 'Yearly net income of the household.', unit: 'kEUR' });
    expect(dictionary.columns[0]?.codes.map((c) => c.code)).toEqual(['1', '2', '3']);
    expect(dictionary.columns[2]?.codes.map((c) => c.code)).toEqual(['18-29', '30+']);
    // A reference without its block is named, and never reaches the dictionary literally.
    expect(dictionary.columns[0]?.description).toBe('');
    expect(warnings.join(' ')).toContain('Doc blocks not found: not_written');
    expect(JSON.stringify(dictionary)).not.toContain('{{');
  });

  it('reads the named test form too', () => {
    expect(acceptedValues({ name: 'region_ok', test_name: 'accepted_values', arguments: { values: ['N', 'S'] } })).toEqual(['N', 'S']);
    expect(acceptedValues({ not_null: {} })).toEqual([]);
  });
});

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
