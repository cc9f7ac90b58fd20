import { describe, expect, it } from 'vitest';
import { emptyDictionary, type DataDictionary } from '../../protocol/agent/knowledge';
import { ruleConflicts, statedCodes } from './ruleConflicts';
import { sortRules } from './store';

function survey(status: DataDictionary['status'] = 'accepted'): DataDictionary {
  const d = emptyDictionary('survey', ['region', 'sex']);
  d.status = status;
  d.columns[0] = { ...d.columns[0]!, codes: [{ code: '1', meaning: 'North' }, { code: '2', meaning: 'South' }] };
  d.columns[1] = { ...d.columns[1]!, codes: [{ code: '1', meaning: 'female' }, { code: '2', meaning: 'male' }] };
  return d;
}

describe('a rule against the accepted dictionary', () => {
  it('flags "1 means East" beside region 1 = North, on the column the rule names', () => {
    const c = ruleConflicts('In region, 1 means East', [survey()]);
    expect(c).toEqual([{ dataset: 'survey', column: 'region', code: '1', rule: 'East', dictionary: 'North' }]);
  });

  it('compares every coded column when the rule names none', () => {
    expect(ruleConflicts('Treat 2 = West.', [survey()]).map((c) => c.column)).toEqual(['region', 'sex']);
  });

  it('says nothing when the rule agrees, when the dictionary is a draft, or when no code is stated', () => {
    expect(ruleConflicts('region 1 means the North', [survey()])).toEqual([]);
    expect(ruleConflicts('1 means East', [survey('draft')])).toEqual([]);
    expect(ruleConflicts('Revenue excludes refunds', [survey()])).toEqual([]);
  });

  it('reads the plain forms people write', () => {
    expect(statedCodes('code 9 is missing; 1 stands for urban and 2 = rural')).toEqual([
      { code: '9', meaning: 'missing' },
      { code: '1', meaning: 'urban' },
      { code: '2', meaning: 'rural' },
    ]);
  });
});

describe('rule order', () => {
  it("is the user's order, then age", () => {
    const r = (id: string, created: string, order?: number) => ({ id, text: id, created_at: created, ...(order !== undefined ? { order } : {}) });
    expect(sortRules([r('a', '2026-01-01'), r('b', '2026-01-02'), r('c', '2026-01-03', -1)]).map((x) => x.id)).toEqual(['c', 'a', 'b']);
  });
});
