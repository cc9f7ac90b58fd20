import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { emptyDictionary, type DataDictionary } from '../../../protocol/agent/knowledge';
import { estimateTokens, type DatasetContext } from '../core/prompts';
import { buildWorkspaceContext } from './prompt';
import { dictionaryToJson, importDictionary, parseCsv } from '../../../shared/knowledge/dictionaryImport';
import { KnowledgeStore } from '../../../shared/knowledge/store';
import { knowledgeContext } from './runContext';
import { datasetFingerprint } from '../../../shared/knowledge/identity';

const survey: DatasetContext = {
  name: 'survey',
  rowCount: 12,
  columns: [
    { name: 'region', type: 'BIGINT', samples: [1, 2, 3] },
    { name: 'income', type: 'BIGINT', samples: [52, -9, 40] },
  ],
};

function dict(over: Partial<DataDictionary> = {}): DataDictionary {
  const d = emptyDictionary('survey', ['region', 'income']);
  d.status = 'accepted';
  d.row_meaning = 'one respondent';
  d.columns[0] = { name: 'region', description: 'Region of residence', unit: '', role: 'dimension', codes: [{ code: '1', meaning: 'North' }, { code: '2', meaning: 'South' }], missing: [] };
  d.columns[1] = { name: 'income', description: 'Yearly net income', unit: 'thousand EUR', role: 'measure', codes: [], missing: ['-9'] };
  return { ...d, ...over };
}

describe('the datasets block with knowledge', () => {
  it('is the raw schema with samples when nothing is known', () => {
    const { text, levels } = buildWorkspaceContext({ datasets: [survey] });
    expect(text).toContain('### survey (12 rows, 2 columns)\nregion BIGINT: 1, 2, 3\nincome BIGINT: 52, -9, 40');
    expect(text).not.toContain('data dictionary');
    expect(levels).toEqual({ survey: 'full' });
  });

  it("carries the rules, the row's meaning, codes, units and placeholders", () => {
    const { text } = buildWorkspaceContext({ datasets: [survey], dictionaries: new Map([['survey', dict()]]), rules: ['Answer in euros', '  '] });
    expect(text).toContain("## The user's rules for this workspace");
    expect(text).toContain('- Answer in euros');
    expect(text).not.toContain('-  \n');
    expect(text).toContain('One row: one respondent');
    expect(text).toContain('region BIGINT — Region of residence; codes: 1 = North; 2 = South: 1, 2, 3');
    expect(text).toContain('income BIGINT — Yearly net income; unit: thousand EUR; missing when "-9"');
    expect(text).toContain('exclude the placeholders');
  });

  it('fits a 500-column table and 50 datasets into a small budget, pointing at describe_columns', () => {
    const wide: DatasetContext = { name: 'wide', rowCount: 1000, columns: Array.from({ length: 500 }, (_, i) => ({ name: `measurement_${i}`, type: 'DOUBLE', samples: [i * 1.5, i * 2.5] })) };
    const many: DatasetContext[] = Array.from({ length: 50 }, (_, t) => ({
      name: `table_${t}`,
      rowCount: 100 + t,
      columns: Array.from({ length: 10 }, (_, i) => ({ name: `field_${i}`, type: i % 2 ? 'VARCHAR' : 'BIGINT', samples: ['abc', 'def'] })),
    }));
    const unlimited = buildWorkspaceContext({ datasets: [wide, ...many] });
    expect(unlimited.tokens).toBeGreaterThan(6000);
    const fitted = buildWorkspaceContext({ datasets: [wide, ...many], budgetTokens: 3200 });
    expect(fitted.tokens).toBeLessThanOrEqual(3200);
    expect(estimateTokens(fitted.text)).toBe(fitted.tokens);
    // The widest table collapses first; every table is still named.
    expect(fitted.levels.wide).toBe('table');
    for (const d of many) expect(fitted.text).toContain(`### ${d.name} (`);
    expect(fitted.text).toContain('call describe_columns with dataset "wide"');
  });

  it('keeps the dictionary in the compact index as one-line descriptions', () => {
    const long = `A long explanation of what this coded column records, how it was collected and why it matters here. ${'More detail. '.repeat(10)}`;
    const d = dict();
    const cols = Array.from({ length: 20 }, (_, i) => ({ name: `q${i}`, type: 'BIGINT', samples: [1, 2, 3] }));
    d.columns = cols.map((c) => ({ name: c.name, description: long, unit: '', role: 'dimension' as const, codes: [{ code: '1', meaning: 'yes' }], missing: ['9'] }));
    const ds = { ...survey, columns: cols };
    const full = buildWorkspaceContext({ datasets: [ds], dictionaries: new Map([['survey', d]]) });
    const fitted = buildWorkspaceContext({ datasets: [ds], dictionaries: new Map([['survey', d]]), budgetTokens: Math.floor(full.tokens * 0.7) });
    expect(fitted.levels.survey).toBe('index');
    expect(fitted.tokens).toBeLessThan(full.tokens * 0.7);
    expect(fitted.text).toContain('q0 BIGINT — A long explanation of what this coded column records, how it was coll…; coded (see describe_columns); missing when "9"');
  });

  it('never grows a block to make it fit', () => {
    const small = buildWorkspaceContext({ datasets: [survey], budgetTokens: 10 });
    expect(small.levels.survey).toBe('no_samples');
    expect(small.tokens).toBeLessThan(buildWorkspaceContext({ datasets: [survey] }).tokens);
  });
});

describe('knowledge for a run', () => {
  it('reads accepted dictionaries and the rules from IndexedDB; a draft is not taught', async () => {
    const store = new KnowledgeStore({ dbName: `k-${Date.now()}` });
    await store.putDictionary(dict());
    await store.putRule({ id: 'r1', text: 'Revenue excludes refunds', created_at: '2026-01-01T00:00:00Z' });
    let { datasetsText } = await knowledgeContext(store, [survey]);
    expect(datasetsText).toContain('Revenue excludes refunds');
    expect(datasetsText).toContain('Yearly net income');
    await store.putDictionary(dict({ status: 'draft' }));
    ({ datasetsText } = await knowledgeContext(store, [survey]));
    expect(datasetsText).not.toContain('Yearly net income');
    expect(await store.rules()).toHaveLength(1);
    await store.deleteRule('r1');
    expect(await store.rules()).toEqual([]);
    await store.close();
  });
});

describe('importing a dictionary', () => {
  const cols = ['region', 'income', 'Visit Date'];

  it('reads CSV with quoted cells, codes and placeholders', () => {
    const csv = 'column,description,unit,codes,missing\nregion,"Region, as coded",,"1=North; 2=South",\nincome,Net income,thousand EUR,,"-9, ."\nvisit date,When,,,\nextra,Not here,,,\n';
    const { dictionary, warnings } = importDictionary(csv, 'dict.csv', 'survey', cols);
    expect(dictionary.columns[0]).toMatchObject({ name: 'region', description: 'Region, as coded', codes: [{ code: '1', meaning: 'North' }, { code: '2', meaning: 'South' }] });
    expect(dictionary.columns[1]).toMatchObject({ unit: 'thousand EUR', missing: ['-9', '.'] });
    expect(dictionary.columns[2]).toMatchObject({ name: 'Visit Date', description: 'When' });
    expect(dictionary).toMatchObject({ status: 'draft', source: 'dict.csv' });
    expect(warnings).toEqual(['Not in survey: extra.']);
    expect(parseCsv('a,"b ""q""\nc"\r\nd,e')).toEqual([['a', 'b "q"\nc'], ['d', 'e']]);
  });

  it("reads dbt's schema.yml: the model named like the dataset, meta and accepted_values", () => {
    const yml = stringify({
      version: 2,
      models: [
        { name: 'other', columns: [{ name: 'x' }] },
        {
          name: 'survey',
          description: 'One respondent per row',
          columns: [
            { name: 'region', description: 'Region code', data_tests: [{ accepted_values: { values: [1, 2, 3, 4] } }] },
            { name: 'income', description: 'Income', meta: { unit: 'kEUR', missing: ['-9'] } },
          ],
        },
      ],
    });
    const { dictionary } = importDictionary(yml, 'schema.yml', 'survey', cols);
    expect(dictionary.row_meaning).toBe('One respondent per row');
    expect(dictionary.columns[0]?.codes.map((c) => c.code)).toEqual(['1', '2', '3', '4']);
    expect(dictionary.columns[1]).toMatchObject({ unit: 'kEUR', missing: ['-9'] });
    expect(() => importDictionary(stringify({ version: 2, models: [{ name: 'other', columns: [{ name: 'x' }] }] }), 'schema.yml', 'survey', cols)).toThrow(/describes none/);
  });

  it('reads back its own JSON export, and a { column: description } map', () => {
    const d = dict();
    const again = importDictionary(dictionaryToJson(d), 'survey.dictionary.json', 'survey', ['region', 'income']).dictionary;
    expect({ ...again, updated_at: '', status: 'accepted', source: '' }).toEqual({ ...d, updated_at: '', source: '' });
    expect(importDictionary('{"income": "Net income"}', 'm.json', 'survey', cols).dictionary.columns[1]?.description).toBe('Net income');
    expect(() => importDictionary('{"income": [', 'm.json', 'survey', cols)).toThrow(/could not be read as JSON/);
  });
});

describe('knowledge bound by content (issue 32)', () => {
  const file = { fileName: 'survey.csv', sizeBytes: 2048 };
  it('follows a rename into the prompt, and keeps another survey.csv from inheriting the codes', async () => {
    const store = new KnowledgeStore({ dbName: `k-id-${Date.now()}` });
    await store.putDictionary({ ...dict(), fingerprint: datasetFingerprint({ name: 'survey', ...file, columns: survey.columns }) });
    const renamed = { ...survey, ...file, name: 'survey_w3' };
    const { datasetsText } = await knowledgeContext(store, [renamed]);
    expect(datasetsText).toContain('### survey_w3 (');
    expect(datasetsText).toContain('codes: 1 = North; 2 = South');
    const different = { ...survey, fileName: 'survey.csv', sizeBytes: 999 };
    const other = await knowledgeContext(store, [different]);
    expect(other.datasetsText).not.toContain('North');
    expect(other.datasetsText).not.toContain('Yearly net income');
    await store.close();
  });
});

describe('rules for a run (issue 32)', () => {
  it("keeps the user's order, sends a table's rules only while it is loaded, and records what was sent", async () => {
    const store = new KnowledgeStore({ dbName: `k-rules-${Date.now()}` });
    await store.putRule({ id: 'a', text: 'Older rule', created_at: '2026-01-01T00:00:00Z', order: 1 });
    await store.putRule({ id: 'b', text: 'Moved first', created_at: '2026-01-02T00:00:00Z', order: 0 });
    await store.putRule({ id: 'c', text: 'Weights apply', created_at: '2026-01-03T00:00:00Z', order: 2, dataset: 'survey' });
    await store.putRule({ id: 'd', text: 'Only for sales', created_at: '2026-01-04T00:00:00Z', order: 3, dataset: 'sales' });
    const ctx = await knowledgeContext(store, [survey]);
    expect(ctx.rulesGiven).toEqual(['Moved first', 'Older rule', '(for survey) Weights apply']);
    expect(ctx.datasetsText).toContain("- Moved first\n- Older rule\n- (for survey) Weights apply\n");
    expect(ctx.datasetsText).not.toContain('Only for sales');
    await store.close();
  });
});
