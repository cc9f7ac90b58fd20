/**
 * The knowledge gauntlet (issue 24): twelve questions only the data dictionary or a rule can
 * answer, run through the real agent service (DuckDB-WASM in Node, @langchain/openai against the
 * scripted endpoint) twice — with the workspace's knowledge and without it. The endpoint plays
 * the `reads-context` persona: it writes the knowing SQL only when the request it receives
 * shows the knowledge the item needs, so the score says whether the app put that knowledge in
 * front of the model. Scored on the figure the run's last query returned.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../protocol/agent/wire';
import { dictionaryDraftThread } from '../../../protocol/agent/wire';
import { IdbSaver } from '../../../workers/agent/checkpoint/IdbSaver';
import { ExampleLibrary } from '../../../workers/agent/examples/retrieval';
import { createAgentService } from '../../../workers/agent/service/service';
import { KnowledgeStore } from '../../../shared/knowledge/store';
import { PrivacyLogStore } from '../../../workers/agent/privacy/PrivacyLogStore';
import { useDataWorker } from '../../../workers/agent/testing/dataWorker';
import { useMockEndpoint } from '../../../workers/agent/testing/mockEndpoint';
import { decodeIpc } from '../../../shared/arrowDecode';
import { AMBIGUOUS_ITEMS, KNOWLEDGE_DICTIONARIES, KNOWLEDGE_FILES, KNOWLEDGE_ITEMS, KNOWLEDGE_RULES, choiceRule, knowledgeAnswerMatches, type KnowledgeItem } from './knowledge';

const mock = useMockEndpoint();
const worker = useDataWorker({ text: KNOWLEDGE_FILES['survey.csv'], fileName: 'survey.csv', loadId: 's' });
let n = 0;

async function loadRest(): Promise<void> {
  const names = (await worker.client.call('list', {})).map((d) => d.name);
  for (const file of ['orders.csv', 'customers.csv'] as const) {
    if (names.includes(file.replace('.csv', ''))) continue;
    const out = await worker.loadText(KNOWLEDGE_FILES[file], file);
    if (!out.ok) throw new Error(out.message);
  }
}

async function firstCell(sql: string): Promise<unknown> {
  const out = await worker.client.call('modelQuery', { sql, maxRows: 5 });
  if (!out.ok) return undefined;
  const v = decodeIpc(out.result.ipc).rows[0]?.[0];
  return typeof v === 'bigint' ? Number(v) : v;
}

const settings = () => ({ baseUrl: `${mock.url}/v1`, apiKey: 'sk-k', model: 'mock-model' });

function script(item: KnowledgeItem) {
  return [
    {
      type: 'tool_calls' as const,
      calls: [{ name: 'run_sql', arguments: { sql: item.naiveSql } }],
      if_context: { contains: item.needs, then: { type: 'tool_calls' as const, calls: [{ name: 'run_sql', arguments: { sql: item.knowingSql } }] } },
    },
    { type: 'text' as const, content: 'The query above gives the answer.' },
    { type: 'structured' as const, when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ];
}

async function score(knowledge: KnowledgeStore): Promise<{ correct: string[]; prompts: string[] }> {
  const correct: string[] = [];
  const prompts: string[] = [];
  for (const item of KNOWLEDGE_ITEMS) {
    const events: AgentEvent[] = [];
    const saver = new IdbSaver({ dbName: `kg-${n++}` });
    const service = createAgentService({ data: worker.client, saver, library: new ExampleLibrary(), knowledge, emit: (e) => events.push(e), maxRetries: 0 });
    await mock.reset();
    await mock.script(script(item), { persona: 'reads-context' });
    await service.start({ settings: settings(), thread_id: item.id, question: item.question, mode: 'agent' });
    await service.idle();
    const last = events.filter((e) => e.type === 'tool_end' && e.tool === 'run_sql').at(-1);
    const cell = last?.type === 'tool_end' && last.tool === 'run_sql' ? last.output.rows[0]?.[0] : undefined;
    if (knowledgeAnswerMatches(item, cell)) correct.push(item.id);
    const first = (await mock.chatRequests())[0]?.body as { messages: { content: unknown }[] } | undefined;
    prompts.push(JSON.stringify(first?.messages[0]?.content ?? ''));
    await saver.destroy();
  }
  return { correct, prompts };
}

describe('the knowledge gauntlet', { timeout: 240_000 }, () => {
  it('has at least ten items whose answer needs the knowledge', async () => {
    await loadRest();
    expect(KNOWLEDGE_ITEMS.length).toBeGreaterThanOrEqual(10);
    expect(new Set(KNOWLEDGE_ITEMS.map((i) => i.kind))).toEqual(new Set(['codes', 'placeholder', 'unit', 'join', 'rule'].filter((k) => KNOWLEDGE_ITEMS.some((i) => i.kind === k))));
    for (const item of KNOWLEDGE_ITEMS) {
      expect(knowledgeAnswerMatches(item, await firstCell(item.knowingSql)), `${item.id}: the knowing SQL`).toBe(true);
      expect(knowledgeAnswerMatches(item, await firstCell(item.naiveSql)), `${item.id}: the naive SQL`).toBe(false);
    }
  });

  it('is answered with the dictionary and rules, and not without them', async () => {
    await loadRest();
    const without = await score(new KnowledgeStore({ dbName: 'kg-empty' }));
    const store = new KnowledgeStore({ dbName: 'kg-full' });
    for (const d of KNOWLEDGE_DICTIONARIES) await store.putDictionary(d);
    for (const r of KNOWLEDGE_RULES) await store.putRule(r);
    const withKnowledge = await score(store);
    // The figure the issue asks for, printed for the report.
    console.log(`knowledge gauntlet: with knowledge ${withKnowledge.correct.length}/${KNOWLEDGE_ITEMS.length}, without ${without.correct.length}/${KNOWLEDGE_ITEMS.length}`);
    expect(withKnowledge.correct).toEqual(KNOWLEDGE_ITEMS.map((i) => i.id));
    expect(without.correct).toEqual([]);
    expect(withKnowledge.prompts[0]).toContain('Revenue excludes refunds');
    expect(without.prompts[0]).not.toContain('Revenue excludes refunds');
    // A draft the user has not accepted is not taught.
    await store.putDictionary({ ...(KNOWLEDGE_DICTIONARIES[0] as (typeof KNOWLEDGE_DICTIONARIES)[number]), status: 'draft' });
    await store.deleteRule('rule-revenue');
    await store.deleteRule('rule-fiscal');
    expect((await score(store)).correct).toEqual(['k-completed', 'k-business-orders']);
  });

  it('asks one clarifying question on an ambiguous item, and not once the choice is a rule', async () => {
    await loadRest();
    const store = new KnowledgeStore({ dbName: 'kg-ambiguous' });
    for (const d of KNOWLEDGE_DICTIONARIES) await store.putDictionary(d);
    const run = async (item: (typeof AMBIGUOUS_ITEMS)[number]) => {
      const events: AgentEvent[] = [];
      const saver = new IdbSaver({ dbName: `kg-${n++}` });
      const service = createAgentService({ data: worker.client, saver, library: new ExampleLibrary(), knowledge: store, emit: (e) => events.push(e), maxRetries: 0 });
      await mock.reset();
      await mock.script(
        [
          {
            type: 'tool_calls',
            calls: [{ name: 'ask_clarification', arguments: item.clarify }],
            if_context: { contains: [choiceRule(item)], then: { type: 'tool_calls', calls: [{ name: 'run_sql', arguments: { sql: item.sql } }] } },
          },
          { type: 'text', content: 'The query above gives the answer.' },
          { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
        ],
        { persona: 'reads-context' },
      );
      await service.start({ settings: settings(), thread_id: item.id, question: item.question, mode: 'agent' });
      await service.idle();
      await saver.destroy();
      const final = events.find((e) => e.type === 'final');
      const sql = events.filter((e) => e.type === 'tool_end' && e.tool === 'run_sql').at(-1);
      return { final: final?.type === 'final' ? final.output : undefined, cell: sql?.type === 'tool_end' && sql.tool === 'run_sql' ? sql.output.rows[0]?.[0] : undefined, requests: (await mock.chatRequests()).length };
    };
    let clarified = 0;
    let answered = 0;
    for (const item of AMBIGUOUS_ITEMS) {
      const first = await run(item);
      // The question ends the run: one request, no validation, the question as the answer.
      if (first.final?.clarification?.choices.length && first.final.answer === item.clarify.question && first.requests === 1) clarified++;
      await store.putRule({ id: item.id, text: choiceRule(item), created_at: new Date().toISOString(), source: 'clarification' });
      const again = await run(item);
      if (!again.final?.clarification && knowledgeAnswerMatches({ ...(KNOWLEDGE_ITEMS[0] as KnowledgeItem), expected: item.expected }, again.cell)) answered++;
    }
    console.log(`knowledge gauntlet (ambiguous): clarified ${clarified}/${AMBIGUOUS_ITEMS.length}; answered after the choice became a rule ${answered}/${AMBIGUOUS_ITEMS.length}`);
    expect([clarified, answered]).toEqual([AMBIGUOUS_ITEMS.length, AMBIGUOUS_ITEMS.length]);
  });

  it('drafts a dictionary with one data_dictionary call, logged in the privacy log', async () => {
    await loadRest();
    const privacyLog = new PrivacyLogStore({ dbName: `kg-privacy-${n++}` });
    const saver = new IdbSaver({ dbName: `kg-${n++}` });
    const service = createAgentService({ data: worker.client, saver, library: new ExampleLibrary(), knowledge: new KnowledgeStore({ dbName: 'kg-draft' }), privacyLog, emit: () => undefined, maxRetries: 0 });
    await mock.script([
      {
        type: 'structured',
        when: 'data_dictionary',
        value: {
          row_meaning: 'one order',
          grain: 'order_id',
          caveats: ['Amounts are in cents'],
          columns: [
            { name: 'status', description: 'Order status', unit: '', role: 'dimension', codes: [{ code: 'R', meaning: 'refund' }], missing: [] },
            { name: 'invented', description: 'Not a column', unit: '', role: 'other', codes: [], missing: [] },
          ],
          joins: [
            { column: 'cust_no', other_dataset: 'customers', other_column: 'customer_id' },
            { column: 'cust_no', other_dataset: 'nowhere', other_column: 'x' },
          ],
        },
      },
    ]);
    const { result } = await service.draftDictionary({ settings: settings(), dataset: 'orders' });
    expect(result).toMatchObject({ dataset: 'orders', status: 'draft', source: 'model', row_meaning: 'one order', joins: [{ column: 'cust_no', other_dataset: 'customers', other_column: 'customer_id' }] });
    expect(result.columns.map((c) => c.name)).toEqual(['order_id', 'cust_no', 'amount_cents', 'status', 'order_date']);
    expect(result.columns[3]?.codes).toEqual([{ code: 'R', meaning: 'refund' }]);
    const [request] = await mock.chatRequests();
    const body = JSON.stringify(request?.body);
    expect(body).toContain('data_dictionary');
    // The profile and a few values, and the other tables' columns for join keys.
    expect(body).toContain('amount_cents BIGINT');
    expect(body).toContain('customers: customer_id, segment, country');
    const log = await privacyLog.list(dictionaryDraftThread('orders'));
    expect(log).toHaveLength(1);
    expect(log[0]?.body).toContain('Draft a data dictionary');
    await saver.destroy();
  });
});
