/**
 * A rule's scope follows its table's content (issue 32): a rename keeps the rule, a different
 * file under the same name is offered the rule and does not get it.
 */
import { describe, expect, it } from 'vitest';
import type { WorkspaceRule } from '../../protocol/agent/knowledge';
import { appliedRules, ruleScope, scopeRule } from './ruleScope';

const survey = { name: 'survey', fileName: 'survey.csv', sizeBytes: 4096, columns: [{ name: 'region' }, { name: 'income' }] };
const rule = (text: string): WorkspaceRule => ({ id: text, text, created_at: '2026-01-01T00:00:00Z' });

describe('rule scope by content', () => {
  const scoped = scopeRule(rule('Region 1 is the North.'), survey);

  it('is stamped with the table content, and a rename keeps it', () => {
    expect(scoped).toMatchObject({ dataset: 'survey', fingerprint: expect.stringContaining('survey.csv') });
    expect(ruleScope(scoped, [{ ...survey, name: 'survey_w3' }])).toEqual({ kind: 'dataset', dataset: 'survey_w3' });
    expect(appliedRules([scoped, rule('Answer in euros.')], [{ ...survey, name: 'survey_w3' }])).toEqual(['(for survey_w3) Region 1 is the North.', 'Answer in euros.']);
  });

  it('is offered, not applied, to a different file with the same name', () => {
    const other = { ...survey, sizeBytes: 9000, columns: [{ name: 'region' }, { name: 'age' }] };
    expect(ruleScope(scoped, [other])).toEqual({ kind: 'offered', dataset: 'survey' });
    expect(appliedRules([scoped], [other])).toEqual([]);
    // Applied by the user: scoped to the new content from then on.
    expect(appliedRules([scopeRule(scoped, other)], [other])).toEqual(['(for survey) Region 1 is the North.']);
    expect(ruleScope(scoped, [])).toEqual({ kind: 'not_loaded' });
  });

  it('keeps a rule scoped before fingerprints bound by name, and workspace rules everywhere', () => {
    const legacy = { ...rule('Old rule.'), dataset: 'survey' };
    expect(ruleScope(legacy, [survey])).toEqual({ kind: 'dataset', dataset: 'survey' });
    expect(ruleScope(scopeRule(scoped, undefined), [])).toEqual({ kind: 'workspace' });
    expect(scopeRule(scoped, undefined)).not.toHaveProperty('fingerprint');
  });
});
