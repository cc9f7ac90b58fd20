/**
 * The issue's tester probes (issue 32), judged on what reaches the model: every assertion reads
 * the request bodies the scripted endpoint received. A context budget of 8,000 tokens, a survey's
 * dictionary (16 facts) beside a 500-column table's, twelve long rules, a rename, a different
 * file under the same name, a one-column CSV import, and six clarifying questions in a row —
 * through the real agent service, data worker (DuckDB) and knowledge store.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { AgentEvent, EndpointSettings } from '../../../protocol/agent/wire';
import { emptyDictionary, type DataDictionary, type WorkspaceRule } from '../../../protocol/agent/knowledge';
import type { DatasetInfo } from '../../../protocol/data';
import { IdbSaver } from '../checkpoint/IdbSaver';
import { ExampleLibrary } from '../examples/retrieval';
import { createAgentService } from '../service/service';
import { useDataWorker } from '../testing/dataWorker';
import { useMockEndpoint } from '../testing/mockEndpoint';
import { KnowledgeStore } from '../../../shared/knowledge/store';
import { bindDictionaries, datasetFingerprint } from '../../../shared/knowledge/identity';
import { ruleScope, scopeRule } from '../../../shared/knowledge/ruleScope';
import { importDictionary, mergeImport } from '../../../shared/knowledge/dictionaryImport';

const SURVEY_HEADER = 'respondent_id,region,income,household_size,weight';
const surveyRows = Array.from({ length: 24 }, (_, r) => [r + 1, (r % 4) + 1, r % 5 === 0 ? -9 : 30 + r, (r % 5) + 1, (0.8 + (r % 3) * 0.2).toFixed(1)].join(','));
const surveyCsv = `${SURVEY_HEADER}\n${surveyRows.join('\n')}\n`;
const WIDE = 500;
const wideCsv = `${Array.from({ length: WIDE }, (_, i) => `sensor_reading_${i}`).join(',')}\n${Array.from({ length: 10 }, (_, r) => Array.from({ length: WIDE }, (_, i) => (r * 3 + i) % 89).join(',')).join('\n')}\n`;

const REGIONS = ['North', 'South', 'East', 'West'];
function surveyDictionary(ds: DatasetInfo): DataDictionary {
  const d = emptyDictionary(ds.name, ds.columns.map((c) => c.name));
  return {
    ...d,
    status: 'accepted',
    source: 'user',
    fingerprint: datasetFingerprint(ds),
    row_meaning: 'one respondent of wave 3',
    grain: 'respondent',
    caveats: ['Incomes above 500 are top-coded'],
    columns: [
      { name: 'respondent_id', description: 'Respondent number', unit: '', role: 'identifier', codes: [], missing: [] },
      { name: 'region', description: 'Region of residence', unit: '', role: 'dimension', codes: REGIONS.map((m, i) => ({ code: String(i + 1), meaning: m })), missing: ['9'] },
      { name: 'income', description: 'Yearly net household income', unit: 'thousand EUR', role: 'measure', codes: [], missing: ['-9'] },
      { name: 'household_size', description: 'People living in the household', unit: 'persons', role: 'measure', codes: [], missing: [] },
      { name: 'weight', description: 'Survey weight', unit: '', role: 'other', codes: [], missing: [] },
    ],
  };
}
/** The sixteen facts of the survey's dictionary, as the prompt must carry them verbatim. */
const SURVEY_FACTS = [
  'One row: one respondent of wave 3',
  'Grain: respondent',
  'Caveat: Incomes above 500 are top-coded',
  'Respondent number',
  'Region of residence',
  ...REGIONS.map((m, i) => `${i + 1} = ${m}`),
  'missing when "9"',
  'Yearly net household income',
  'unit: thousand EUR',
  'missing when "-9"',
  'People living in the household',
  'unit: persons',
  'Survey weight',
];

function wideDictionary(ds: DatasetInfo): DataDictionary {
  const d = emptyDictionary(ds.name, ds.columns.map((c) => c.name));
  return { ...d, status: 'accepted', source: 'user', fingerprint: datasetFingerprint(ds), columns: d.columns.map((c, i) => ({ ...c, description: `Reading of sensor ${i} on the roof of building ${i % 7}`, unit: 'volt', role: 'measure' })) };
}

const LONG_RULES = Array.from({ length: 12 }, (_, i) => `Rule ${i + 1}: ${'when reporting money state the currency and the year of prices, and round to whole units. '.repeat(14)}End of rule ${i + 1}.`);
const SCOPED = 'In the survey, region 1 is always reported as "the North (wave 3 definition)".';

const mock = useMockEndpoint();
const worker = useDataWorker({ text: surveyCsv, fileName: 'survey.csv', loadId: 'survey' });
const settings: EndpointSettings = { baseUrl: '', apiKey: 'k', model: 'mock-model', contextTokens: 8000 };

const answer = (text: string) => [
  { type: 'text' as const, content: text },
  { type: 'structured' as const, when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
];
const systemOf = (body: unknown): string => {
  const m = (body as { messages: { role: string; content: unknown }[] }).messages.find((x) => x.role === 'system' || x.role === 'developer');
  return typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content ?? '');
};

describe('knowledge probes, judged on the requests the endpoint receives', { timeout: 240_000 }, () => {
  it('budget 8,000: survey facts, whole rules, rename, another survey.csv, a one-column import, six clarifications', async () => {
    expect((await worker.loadText(wideCsv, 'sensors.csv')).ok).toBe(true);
    const list = async () => (await worker.client.call('list', {})) as DatasetInfo[];
    const byName = async (name: string) => (await list()).find((d) => d.name === name) as DatasetInfo;
    const knowledge = new KnowledgeStore({ dbName: `probes-knowledge-${Date.now()}` });
    const survey = await byName('survey');
    await knowledge.putDictionary(surveyDictionary(survey));
    await knowledge.putDictionary(wideDictionary(await byName('sensors')));

    const events: AgentEvent[] = [];
    const saver = new IdbSaver({ dbName: `probes-saver-${Date.now()}` });
    const service = createAgentService({ data: worker.client, saver, library: new ExampleLibrary(), knowledge, emit: (e) => events.push(e), maxRetries: 0 });
    const s = () => ({ ...settings, baseUrl: `${mock.url}/v1` });
    const ask = async (thread: string, question: string, replies: unknown[]) => {
      await mock.reset();
      await mock.script(replies as never);
      events.length = 0;
      await service.start({ settings: s(), thread_id: thread, question, mode: 'agent' });
      await service.idle();
      expect(events.find((e) => e.type === 'error')).toBeUndefined();
      return (await mock.chatRequests()).map((r) => r.body);
    };

    // 1. Two accepted dictionaries, one of 500 columns: the survey's 16 facts reach the model.
    const [first] = await ask('p1', 'What is the average income by region in the survey?', answer('Incomes by region are as queried.'));
    const sys1 = systemOf(first);
    for (const fact of SURVEY_FACTS) expect(sys1, fact).toContain(fact);
    expect(sys1).toMatch(/Also available in less detail[^\n]*call describe_columns[^\n]*sensors \(/);

    // 2. Twelve long rules: each whole or left out, and the left-out ones named as such.
    for (const [i, text] of LONG_RULES.entries()) await knowledge.putRule({ id: `long-${i}`, text, created_at: `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`, order: i });
    const [second] = await ask('p2', 'What is the average survey income?', answer('The average is as queried.'));
    const sys2 = systemOf(second);
    expect(sys2).not.toContain('characters left out');
    const shown = LONG_RULES.filter((r) => sys2.includes(r));
    for (let i = 0; i < 12; i++) if (!sys2.includes(LONG_RULES[i] as string)) expect(sys2).not.toContain(`Rule ${i + 1}: `);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(12);
    expect(sys2).toContain(`${12 - shown.length} more rules are left out here for lack of room`);
    const step = events.find((e) => e.type === 'status' && e.kind === 'context_fitted');
    expect(step?.type === 'status' && step.detail).toContain(`rules (${12 - shown.length} of 12 rules left out`);
    for (const fact of SURVEY_FACTS) expect(sys2, fact).toContain(fact);

    // 2b. The same rules in a run whose wide query results fill the 8,000-token window: each
    // request is fitted, and the knowledge in it is rebuilt whole (never clipped), by priority.
    const wideQuery = (i: number) => ({ type: 'tool_calls' as const, calls: [{ name: 'run_sql', arguments: { sql: `SELECT * FROM sensors LIMIT ${5 + i}` } }] });
    const long = await ask('p2b', 'Compare the survey income with the sensors.', [wideQuery(0), wideQuery(1), wideQuery(2), wideQuery(3), ...answer('Compared.')]);
    const withKnowledge = long.map(systemOf).filter((sys) => sys.includes('### survey ('));
    expect(withKnowledge.length).toBeGreaterThanOrEqual(4);
    for (const sys of withKnowledge) {
      expect(sys).not.toContain('characters left out');
      for (let i = 0; i < 12; i++) if (!sys.includes(LONG_RULES[i] as string)) expect(sys).not.toContain(`Rule ${i + 1}: `);
      expect(sys).toMatch(/\d+ more rules? (is|are) left out here for lack of room/);
      for (const fact of SURVEY_FACTS) expect(sys, fact).toContain(fact);
    }
    // The window took more rules out than the run's first step said: a step says so.
    const windowStep = events.find((e) => e.type === 'status' && e.kind === 'context_fitted' && e.detail.startsWith('To fit the context window'));
    expect(windowStep?.type === 'status' && windowStep.detail).toMatch(/rules \(\d+ of 12 rules left out/);
    for (let i = 0; i < 12; i++) await knowledge.deleteRule(`long-${i}`);

    // 3. A one-column CSV import merges: the new income text, every other fact untouched.
    const stored = (await knowledge.dictionaries()).find((d) => d.dataset === 'survey') as DataDictionary;
    const imported = importDictionary('column,description\nincome,Yearly net household income after taxes\n', 'partial.csv', 'survey', survey.columns.map((c) => c.name));
    const merged = mergeImport(stored, imported);
    expect(merged.preview.changed.map((c) => c.column)).toEqual(['income']);
    expect(merged.preview.untouched.length).toBe(4);
    await knowledge.putDictionary({ ...merged.dictionary, status: 'accepted' });
    const scoped: WorkspaceRule = scopeRule({ id: 'scoped', text: SCOPED, created_at: '2026-01-02T00:00:00Z' }, survey);
    await knowledge.putRule(scoped);
    const [third] = await ask('p3', 'What is the average survey income?', answer('As queried.'));
    const sys3 = systemOf(third);
    expect(sys3).toContain('Yearly net household income after taxes');
    for (const fact of SURVEY_FACTS.filter((f) => !f.startsWith('Yearly'))) expect(sys3, fact).toContain(fact);
    expect(sys3).toContain(`(for survey) ${SCOPED}`);

    // 4. Rename survey → survey_w3: the dictionary and the scoped rule follow, no new draft.
    await worker.rename('survey', 'survey_w3');
    const [fourth] = await ask('p4', 'What is the average income in survey_w3?', answer('As queried.'));
    const sys4 = systemOf(fourth);
    expect(sys4).toContain('### survey_w3 (');
    for (const fact of SURVEY_FACTS.filter((f) => !f.startsWith('Yearly'))) expect(sys4, fact).toContain(fact);
    expect(sys4).toContain(`(for survey_w3) ${SCOPED}`);

    // 5. A different survey.csv: offered the old dictionary and rule, given neither.
    await worker.remove('survey_w3');
    const otherCsv = `respondent_id,region,age\n${Array.from({ length: 30 }, (_, r) => `${r + 1},${(r % 3) + 1},${20 + r}`).join('\n')}\n`;
    expect((await worker.loadText(otherCsv, 'survey.csv')).ok).toBe(true);
    const other = await byName('survey');
    const [fifth] = await ask('p5', 'What is the average age in the survey?', answer('As queried.'));
    const sys5 = systemOf(fifth);
    expect(sys5).toContain('### survey (');
    expect(sys5).not.toContain('1 = North');
    expect(sys5).not.toContain('Region of residence');
    expect(sys5).not.toContain(SCOPED);
    const binding = bindDictionaries(await knowledge.dictionaries(), [other]).get('survey');
    expect(binding?.own).toBeUndefined();
    expect(binding?.offered?.reason).toBe('same_name');
    expect(ruleScope(scoped, [other])).toEqual({ kind: 'offered', dataset: 'survey' });

    // 6. Six clarifying questions in a row: one reaches the user, the rest are refused.
    const clarify = (i: number) => ({ type: 'tool_calls' as const, calls: [{ name: 'ask_clarification', arguments: { question: `Which definition of income, take ${i}?`, choices: ['Gross', 'Net'] } }] });
    await ask('p6', 'What is the income?', [clarify(1)]);
    const asked = events.filter((e) => e.type === 'final' && e.output.clarification);
    expect(asked).toHaveLength(1);
    const bodies = await ask('p6', 'Net', [clarify(2), clarify(3), clarify(4), clarify(5), clarify(6), ...answer('Assuming net income, the answer is as queried.')]);
    const finals = events.filter((e) => e.type === 'final');
    expect(finals).toHaveLength(1);
    expect(finals[0]?.type === 'final' && finals[0].output.clarification).toBeFalsy();
    expect(events.filter((e) => e.type === 'tool_error' && e.tool === 'ask_clarification').length).toBeGreaterThanOrEqual(1);
    // What the model was told after its refused question: not to ask again.
    expect(JSON.stringify(bodies.at(-2) ?? bodies.at(-1))).toMatch(/already answered a clarifying question|Do not ask again/);
    await saver.destroy();
  });
});
