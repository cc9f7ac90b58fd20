/**
 * Fitting the knowledge block by priority (issue 32): a tight budget with several accepted
 * dictionaries keeps what the question needs, keeps rules whole, and names what it left out.
 */
import { describe, expect, it } from 'vitest';
import { type DatasetContext } from '../core/prompts';
import { buildWorkspaceContext } from './prompt';
import { REGIONS, survey, surveyDict, wide, wideDict } from '../testing/probeDictionaries';

/** The facts of the survey's dictionary that must reach the model verbatim. */
const SURVEY_FACTS = ['One row: one respondent of wave 3', 'Region of residence', ...REGIONS.map((m, i) => `${i + 1} = ${m}`), 'missing when "9"', 'Yearly net household income', 'unit: thousand EUR', 'missing when "-9"', 'People living in the household', 'unit: persons', 'Survey weight'];

const longRules = Array.from({ length: 12 }, (_, i) => `Rule ${i}: ${'when reporting money always state the currency and the year of prices, and round to whole units. '.repeat(16)}end of rule ${i}.`);

const dicts = () => new Map([['survey', surveyDict()], ['sensors', wideDict()]]);

describe('the knowledge block under a tight budget', () => {
  it("keeps a small survey's accepted codes and units beside a 500-column dictionary, and names what it left out", () => {
    const ctx = buildWorkspaceContext({ datasets: [survey, wide], dictionaries: dicts(), rules: ['Answer in euros'], budgetTokens: 3200 });
    expect(ctx.tokens).toBeLessThanOrEqual(3200);
    for (const fact of SURVEY_FACTS) expect(ctx.text).toContain(fact);
    expect(ctx.levels.survey).toBe('full');
    expect(ctx.levels.sensors).not.toBe('full');
    expect(ctx.text).toContain('- Answer in euros');
    expect(ctx.text).toMatch(/Also available in less detail[^\n]*call describe_columns[^\n]*sensors \(/);
    expect(ctx.leftOut.map((l) => l.what)).toEqual(['sensors']);
  });

  it('gives the table the question names room first, by a column or a dictionary term', () => {
    const byColumn = buildWorkspaceContext({ datasets: [survey, wide], dictionaries: dicts(), budgetTokens: 3200, question: 'Plot sensor_reading_12 over time' });
    expect(byColumn.named).toEqual(['sensors']);
    expect(byColumn.text).toContain('Columns the question names:\nsensor_reading_12 DOUBLE — Reading of sensor 12 on the roof of building 5; unit: volt');
    const byTerm = buildWorkspaceContext({ datasets: [wide, survey], dictionaries: dicts(), budgetTokens: 600, question: 'What is the average income in the North?' });
    expect(byTerm.named[0]).toBe('survey');
    expect(byTerm.tokens).toBeLessThanOrEqual(600);
    for (const fact of SURVEY_FACTS) expect(byTerm.text).toContain(fact);
    expect(byTerm.levels.sensors).toBe('table');
  });

  it('keeps rules whole: the ones that do not fit are left out whole and counted, never clipped', () => {
    const ctx = buildWorkspaceContext({ datasets: [survey, wide], dictionaries: dicts(), rules: longRules, budgetTokens: 3200 });
    expect(ctx.tokens).toBeLessThanOrEqual(3200);
    expect(ctx.rulesShown).toBeGreaterThan(0);
    expect(ctx.rulesShown).toBeLessThan(12);
    for (let i = 0; i < ctx.rulesShown; i++) expect(ctx.text).toContain(longRules[i]);
    for (let i = ctx.rulesShown; i < 12; i++) expect(ctx.text).not.toContain(`Rule ${i}:`);
    expect(ctx.text).not.toContain('characters left out');
    expect(ctx.text).toContain(`${12 - ctx.rulesShown} more rules are left out here for lack of room`);
    expect(ctx.leftOut[0]).toEqual({ what: 'rules', detail: `${12 - ctx.rulesShown} of 12 rules left out (rules ${ctx.rulesShown + 1}–12)` });
  });

  it('steps a table back up when room frees', () => {
    const full = buildWorkspaceContext({ datasets: [survey], dictionaries: dicts() }).tokens;
    const rule = [longRules[0] as string];
    const ruleTokens = buildWorkspaceContext({ datasets: [], rules: rule }).tokens;
    // Room for the rule and the sensors' line but not the survey in full: the survey steps down…
    const crowded = buildWorkspaceContext({ datasets: [survey, wide], dictionaries: dicts(), rules: rule, budgetTokens: ruleTokens + full });
    expect(crowded.levels.survey).not.toBe('full');
    expect(crowded.leftOut.map((l) => l.what)).toContain('survey');
    // …and back up once the rule is gone, though the sensors' table is still there.
    const freed = buildWorkspaceContext({ datasets: [survey, wide], dictionaries: dicts(), budgetTokens: ruleTokens + full });
    expect(freed.levels.survey).toBe('full');
    expect(freed.levels.sensors).toBe('table');
  });

  it('names every table even when only their names fit', () => {
    const many: DatasetContext[] = Array.from({ length: 80 }, (_, t) => ({ name: `table_${t}`, rowCount: 10, columns: [{ name: 'a', type: 'BIGINT' }] }));
    const ctx = buildWorkspaceContext({ datasets: [...many, wide], dictionaries: dicts(), budgetTokens: 900 });
    expect(ctx.tokens).toBeLessThanOrEqual(900);
    for (const d of [...many, wide]) expect(ctx.text).toContain(d.name);
    expect(Object.values(ctx.levels)).toContain('omitted');
  });

  it('never exceeds a budget it can meet, whatever the budget', () => {
    const many: DatasetContext[] = Array.from({ length: 30 }, (_, t) => ({ name: `t_${t}`, rowCount: t, columns: Array.from({ length: 3 + (t % 7) * 5 }, (_, i) => ({ name: `c${i}`, type: 'BIGINT', samples: [i] })) }));
    const all = [survey, wide, ...many];
    const args = { datasets: all, dictionaries: dicts(), rules: longRules, metrics: ['- m (table survey) = sum(income)'], trusted: ['- Question: "q"\n  SQL: SELECT 1'], question: 'income by region' };
    const floor = buildWorkspaceContext({ ...args, budgetTokens: 1 }).tokens;
    for (let budget = floor; budget < 12_000; budget += 337) {
      const ctx = buildWorkspaceContext({ ...args, budgetTokens: budget });
      expect(ctx.tokens).toBeLessThanOrEqual(budget);
      // Room left over means nothing more could have been added whole.
      for (const name of ctx.named) expect(ctx.levels[name]).toBeDefined();
    }
  });

  it('fits 500 tables without composing the text per try', () => {
    const many: DatasetContext[] = Array.from({ length: 500 }, (_, t) => ({ name: `table_${t}`, rowCount: 10, columns: Array.from({ length: 12 }, (_, i) => ({ name: `c${i}`, type: 'BIGINT', samples: [1, 2] })) }));
    const ctx = buildWorkspaceContext({ datasets: many, budgetTokens: 3200, question: 'what about table_7 c3?' });
    expect(ctx.tokens).toBeLessThanOrEqual(3200);
    expect(ctx.named[0]).toBe('table_7');
    expect(ctx.levels.table_7).toBe('full');
    for (const d of many) expect(ctx.text).toContain(d.name);
  });

  it('says which codes have no meaning instead of sending "1 = ; 2 = ;"', () => {
    const d = surveyDict();
    d.columns[0] = { ...d.columns[0]!, codes: [{ code: '1', meaning: 'North' }, { code: '7', meaning: '' }, { code: '8', meaning: ' ' }] };
    const ctx = buildWorkspaceContext({ datasets: [survey], dictionaries: new Map([['survey', d]]) });
    expect(ctx.text).toContain('codes: 1 = North; other allowed values (meanings not given): 7, 8');
    expect(ctx.text).not.toMatch(/\d = ;/);
  });
});
