import { describe, expect, it } from 'vitest';
import { emptyDictionary, type DataDictionary } from '../../protocol/agent/knowledge';
import { adoptDictionary, bindDictionaries, datasetFingerprint, type DatasetIdentity } from './identity';

const survey: DatasetIdentity = { name: 'survey', fileName: 'survey.csv', sizeBytes: 4096, columns: [{ name: 'region' }, { name: 'income' }] };

function accepted(ds: DatasetIdentity, over: Partial<DataDictionary> = {}): DataDictionary {
  const d = emptyDictionary(ds.name, ds.columns.map((c) => c.name));
  d.status = 'accepted';
  d.fingerprint = datasetFingerprint(ds);
  d.columns[0] = { name: 'region', description: 'Region', unit: '', role: 'dimension', codes: [{ code: '1', meaning: 'North' }, { code: '2', meaning: 'South' }], missing: [] };
  return { ...d, ...over };
}

describe('a dictionary belongs to its content', () => {
  it('follows a rename: survey → survey_w3 keeps the accepted dictionary, under the new name', () => {
    const renamed = { ...survey, name: 'survey_w3' };
    const b = bindDictionaries([accepted(survey)], [renamed]).get('survey_w3');
    expect(b?.own?.dataset).toBe('survey_w3');
    expect(b?.own?.columns[0]?.codes).toHaveLength(2);
    expect(b?.offered).toBeUndefined();
  });

  it('offers, never applies, the old codes to a different survey.csv', () => {
    const other = { ...survey, sizeBytes: 9000, columns: [{ name: 'region' }, { name: 'age' }] };
    const b = bindDictionaries([accepted(survey)], [other]).get('survey');
    expect(b?.own).toBeUndefined();
    expect(b?.offered?.reason).toBe('same_name');
  });

  it('offers a dictionary to another file with the same columns, once its own table is gone', () => {
    const fresh = { ...survey, name: 'survey_2024', fileName: 'survey_2024.csv', sizeBytes: 5000 };
    expect(bindDictionaries([accepted(survey)], [fresh]).get('survey_2024')?.offered?.reason).toBe('same_columns');
    // While the table it was written for is loaded, it is that table's, and nothing is offered.
    const both = bindDictionaries([accepted(survey)], [fresh, survey]);
    expect(both.get('survey')?.own).toBeDefined();
    expect(both.get('survey_2024')).toEqual({});
  });

  it('binds a dictionary stored before fingerprints by name, as before', () => {
    const legacy = accepted(survey);
    delete legacy.fingerprint;
    expect(bindDictionaries([legacy], [survey]).get('survey')?.own).toBe(legacy);
  });

  it('keeps the same file loaded twice apart: its own name first', () => {
    const twice = { ...survey, name: 'survey_2' };
    const b = bindDictionaries([accepted(survey)], [twice, survey]);
    expect(b.get('survey')?.own?.dataset).toBe('survey');
    expect(b.get('survey_2')?.own).toBeUndefined();
  });

  it('adopting fits the columns and stamps the new content', () => {
    const other = { ...survey, sizeBytes: 1, columns: [{ name: 'income' }, { name: 'age' }] };
    const d = adoptDictionary(accepted(survey), other);
    expect(d.fingerprint).toBe(datasetFingerprint(other));
    expect(d.columns.map((c) => c.name)).toEqual(['income', 'age']);
  });
});
