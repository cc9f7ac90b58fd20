/**
 * The knowledge under a small context window (issue 32): when a whole request must be fitted,
 * the datasets block is rebuilt whole by its priorities — never clipped mid-text — and what it
 * left out is named in the prompt, reported for the steps and the page, and comes back when room
 * frees.
 */
import { describe, expect, it } from 'vitest';
import { emptyDictionary, type DataDictionary } from '../../../protocol/agent/knowledge';
import { buildAgentSystemPrompt, type DatasetContext } from '../core/prompts';
import { estimateRequestTokens, fitToWindow } from '../llm/contextWindow';
import { buildWorkspaceContext, type WorkspaceContextInput } from './prompt';
import { fitStep, knowledgeSection, type PromptFit } from './windowFit';

import { REGIONS, survey, surveyDict, wide, wideDict } from '../testing/probeDictionaries';
/** A mid-size table the question does not name: it fits while there is room, and goes first. */
const stations: DatasetContext = {
  name: 'stations',
  rowCount: 300,
  columns: Array.from({ length: 40 }, (_, i) => ({ name: `station_attribute_${i}`, type: 'VARCHAR', samples: [`value ${i}`] })),
};
function stationsDict(): DataDictionary {
  const d = emptyDictionary('stations', stations.columns.map((c) => c.name));
  d.status = 'accepted';
  d.columns = d.columns.map((c, i) => ({ ...c, description: `Attribute ${i} of the weather station, as recorded by the operator at installation`, unit: '', role: 'other' }));
  return d;
}
const SURVEY_FACTS = ['One row: one respondent of wave 3', 'Region of residence', ...REGIONS.map((m, i) => `${i + 1} = ${m}`), 'missing when "9"', 'Yearly net household income', 'unit: thousand EUR', 'missing when "-9"', 'People living in the household', 'unit: persons', 'Survey weight'];
const RULES = ['Answer in euros.', 'Weight every survey average by the weight column.'];
const QUESTION = 'What is the average survey income by region?';

const input = (datasets: DatasetContext[] = [survey, stations, wide]): WorkspaceContextInput => ({
  datasets,
  dictionaries: new Map([
    ['survey', surveyDict()],
    ['sensors', wideDict()],
    ['stations', stationsDict()],
  ]),
  rules: RULES,
  question: QUESTION,
  budgetTokens: 3200,
});

/** A run's request: the system prompt with the block, and `turns` earlier answers with long outputs. */
function request(block: string, outputs: number): Record<string, unknown> {
  const system = buildAgentSystemPrompt({ systemContext: 'You are Dataseer.', datasets: block, python: 'Python: none.', iterationBudget: 5 });
  const messages: Record<string, unknown>[] = [{ role: 'system', content: system }, { role: 'user', content: QUESTION }];
  for (let i = 0; i < outputs; i++) {
    messages.push({ role: 'assistant', content: '', tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'run_sql', arguments: '{"sql":"SELECT region, income FROM survey"}' } }] });
    messages.push({ role: 'tool', tool_call_id: `c${i}`, content: JSON.stringify({ rows: Array.from({ length: 40 }, (_, r) => [r % 4, 30 + r]) }) });
  }
  return { model: 'm', messages, max_tokens: 1024 };
}
const systemOf = (body: Record<string, unknown>) => String((body.messages as { content: string }[])[0]?.content);

function section(datasets?: DatasetContext[]) {
  const i = input(datasets);
  const initial = buildWorkspaceContext(i);
  const fits: { fit: PromptFit; changed: boolean }[] = [];
  return { initial, fits, section: knowledgeSection(i, initial, (fit, changed) => fits.push({ fit, changed })) };
}

describe('the knowledge in a request fitted to the window', () => {
  it('is refitted whole by priority: the other table goes first, the survey keeps its 16 facts and the rules, nothing is cut mid-text', () => {
    const { initial, fits, section: s } = section();
    expect(initial.levels.survey).toBe('full');
    const body = request(initial.text, 8);
    const window = 3400;
    expect(estimateRequestTokens(body)).toBeGreaterThan(window);

    // Without the section the old last resort clips the system prompt, knowledge and all.
    const blind = systemOf(fitToWindow(body, window).body);
    expect(blind).toContain('characters left out to fit the context window');

    const out = fitToWindow(body, window, s);
    const system = systemOf(out.body);
    expect(out.changes).toContain('knowledge shown in less detail');
    expect(system).not.toContain('characters left out');
    for (const fact of SURVEY_FACTS) expect(system).toContain(fact);
    for (const rule of RULES) expect(system).toContain(`- ${rule}`);
    // The table left out is named in the prompt, with the way to the rest.
    expect(system).toMatch(/Also available in less detail[^\n]*call describe_columns[^\n]*sensors \(/);
    expect(estimateRequestTokens(out.body)).toBeLessThanOrEqual(window);
    // …and reported: the steps and the page say what the prompt carried.
    const last = fits.at(-1);
    expect(last?.changed).toBe(true);
    expect(last?.fit.levels.survey).toBe('full');
    expect(last?.fit.leftOut.map((l) => l.what)).toContain('sensors');
    expect(last?.fit.essentialLeftOut).toEqual([]);
    expect(last?.fit.described.survey).toEqual({ shown: 4, total: 4 });
    expect(fitStep(last!.fit)).toMatch(/^To fit the context window, the prompt carried less: .*sensors \(/);
  });

  it('steps back up when room frees: a shorter conversation gets the block as it was built', () => {
    const { initial, fits, section: s } = section();
    const window = 3400;
    const long = fitToWindow(request(initial.text, 8), window, s);
    expect(systemOf(long.body)).not.toContain(initial.text);
    const short = fitToWindow(request(initial.text, 0), window, s);
    expect(systemOf(short.body)).toContain(initial.text);
    expect(fits.map((f) => f.changed)).toEqual([true, true]);
    expect(fits[1]?.fit.leftOut).toEqual(initial.leftOut);
    // The same fit again is not said again.
    fitToWindow(request(initial.text, 0), window, s);
    expect(fits[2]?.changed).toBe(false);
  });

  it('steps a table back up when a dataset is removed', () => {
    const { budgetTokens: _unbounded, ...both } = input([survey, stations]);
    const alone = buildWorkspaceContext(both);
    const room = alone.tokens + 40;
    const others: DatasetContext[] = Array.from({ length: 20 }, (_, t) => ({ name: `extract_${t}`, rowCount: 10, columns: [{ name: 'a', type: 'BIGINT' }] }));
    const crowded = buildWorkspaceContext({ ...input([survey, stations, ...others]), budgetTokens: room });
    expect(crowded.levels.survey).toBe('full');
    expect(crowded.levels.stations).not.toBe('full');
    expect(crowded.leftOut.map((l) => l.what)).toContain('stations');
    // The twenty extracts removed: the same budget has stations in full again.
    const freed = buildWorkspaceContext({ ...input([survey, stations]), budgetTokens: room });
    expect(freed.levels.stations).toBe('full');
    expect(freed.leftOut).toEqual([]);
  });

  it("says so when even the question's own knowledge does not fit, and still cuts nothing mid-text", () => {
    const { initial, fits, section: s } = section();
    const out = fitToWindow(request(initial.text, 2), 900, s);
    const system = systemOf(out.body);
    expect(out.changes).toContain('knowledge shown in less detail');
    const fit = fits.at(-1)!.fit;
    expect(fit.essentialLeftOut.length).toBeGreaterThan(0);
    expect(fitStep(fit)).toContain('Even the rules and the accepted knowledge of the tables the question names did not fit whole: survey (');
    // The block is one the knowledge builder wrote (whole items), not a clipped one.
    const block = system.slice(system.indexOf('Datasets ('));
    expect(block).not.toContain('characters left out');
    for (const rule of RULES) expect(system.includes(`- ${rule}`) || !system.includes(rule.slice(0, 12))).toBe(true);
    expect(system).toMatch(/survey/);
  });
});
