/**
 * Long threads: the cut point and transcript in isolation, then the agent graph against the
 * scripted endpoint — a third question over budget compacts the first two turns, the model gets
 * the summary instead of them, and the thread keeps every message.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { AgentEvent } from '../../../protocol/agent/wire';
import { IdbSaver } from '../checkpoint/IdbSaver';
import { createAgentGraph } from './graph';
import { internalNote } from './nodeKit';
import { createChatModel } from '../llm/chatModel';
import { runTurn } from '../service/run';
import { contextBudget, defaultContextBudget, estimateMessagesTokens, planCut, transcript } from './summarize';
import { useMockEndpoint } from '../testing/mockEndpoint';
import type { ToolHost } from '../tools/execute';

const long = (label: string) => `${label} ${'lorem ipsum dolor sit amet '.repeat(60)}`;

describe('planCut', () => {
  const thread: BaseMessage[] = [
    new HumanMessage('first question'),
    new AIMessage({ content: '', tool_calls: [{ id: 'a', name: 'run_sql', args: { sql: 'SELECT 1' } }] }),
    new ToolMessage({ content: long('rows'), tool_call_id: 'a', name: 'run_sql' }),
    new AIMessage(long('first answer')),
    new HumanMessage('second question'),
    internalNote(long('guard note')),
    new AIMessage(long('second answer')),
    new HumanMessage('third question'),
  ];

  it('does nothing while everything fits', () => {
    expect(planCut(thread, 0, 100, 100_000)).toBeUndefined();
  });

  it('cuts at a question, keeping tool calls with their results', () => {
    const cut = planCut(thread, 0, 100, 800);
    expect(cut).toBeDefined();
    expect(thread[cut ?? 0]?.getType()).toBe('human');
    expect(cut).toBeGreaterThan(2);
    expect(estimateMessagesTokens(thread.slice(cut))).toBeLessThanOrEqual(800 * 0.6);
  });

  it('never cuts past the latest question, and not before the watermark', () => {
    expect(planCut(thread, 0, 100, 50)).toBe(7);
    expect(planCut(thread, 7, 100, 50)).toBeUndefined();
    expect(planCut([new HumanMessage(long('only'))], 0, 100, 50)).toBeUndefined();
  });

  it('renders a transcript without guard notes', () => {
    const text = transcript(thread.slice(0, 7));
    expect(text).toContain('User: first question');
    expect(text).toContain('Assistant called run_sql');
    expect(text).toContain('Tool run_sql returned: rows');
    expect(text).not.toContain('guard note');
  });

  it('takes a configured budget, else one for the model', () => {
    expect(contextBudget('gpt-4o-mini', 3000)).toBe(3000);
    expect(contextBudget('gpt-4o-mini', undefined)).toBe(defaultContextBudget('gpt-4o-mini'));
    expect(defaultContextBudget('gpt-4o-mini')).toBeGreaterThan(defaultContextBudget('some-local-model'));
    expect(contextBudget('x', 10)).toBe(defaultContextBudget('x'));
  });
});

describe('summarize node', () => {
  const mock = useMockEndpoint();

  async function chatBodies(): Promise<{ messages: { role: string; content: unknown }[]; response_format?: { json_schema: { name: string } } }[]> {
    return (await mock.chatRequests()).map((r) => r.body as never);
  }

  const noHost: ToolHost = {
    runSql: async () => ({ ok: false, message: 'no data in this test' }),
    profile: async () => ({ ok: false, message: 'no data in this test' }),
    runPython: async () => ({ ok: false, message: 'no data in this test' }),
  };

  it('compacts older turns over budget, sends the summary instead, and keeps the thread whole', async () => {
    const saver = new IdbSaver({ dbName: `summarize-test-${Date.now()}` });
    const graphWith = (budget: number) =>
      createAgentGraph({
        model: createChatModel({ baseUrl: `${mock.url}/v1`, apiKey: 'k', model: 'mock-model' }, { maxRetries: 0 }),
        checkpointer: saver,
        contextBudget: budget,
        tools: { host: noHost, searchExamples: async () => [] },
        context: async () => ({ datasets: [], pythonPackages: [], examples: [] }),
      });
    const ask = async (budget: number, question: string) => {
      const events: AgentEvent[] = [];
      const res = await runTurn(graphWith(budget), { thread_id: 'long', run_id: question, mode: 'agent', question }, { onEvent: (e) => events.push(e) });
      expect(res.failure).toBeUndefined();
      return events;
    };

    // Two long turns with a roomy budget: no summary.
    await mock.script([{ type: 'text', content: long('Penguins answer ONE-OLDEST') }]);
    let events = await ask(100_000, 'OLDEST question about penguins?');
    expect(events.some((e) => e.type === 'status' && e.kind === 'summarizing')).toBe(false);
    await mock.script([{ type: 'text', content: long('Weather answer TWO') }]);
    await ask(100_000, 'Second question about weather?');

    // The third with a small budget: the summary replaces the first turns.
    const first = await chatBodies();
    const systemTokens = Math.ceil(String(first[0]?.messages[0]?.content).length / 4);
    // No reset mid-thread, so the thread's requests are all recorded (ids never restart: testing/mock-llm/ids.mjs).
    await mock.script([
      { type: 'structured', when: 'conversation_summary', value: { summary: 'SUMMARY-MARK: penguins then weather were discussed.' } },
      { type: 'text', content: 'Third answer.' },
    ]);
    events = await ask(systemTokens + 600, 'Third question: and cars?');
    const status = events.find((e) => e.type === 'status' && e.kind === 'summarizing');
    expect(status).toBeDefined();

    const bodies = (await chatBodies()).slice(first.length);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]?.response_format?.json_schema.name).toBe('conversation_summary');
    expect(JSON.stringify(bodies[0]?.messages)).toContain('OLDEST question about penguins?');
    const sent = JSON.stringify(bodies[1]?.messages);
    expect(sent).toContain('SUMMARY-MARK');
    expect(sent).not.toContain('OLDEST question');
    expect(sent).toContain('Third question: and cars?');
    // No summary JSON leaked into the answer tokens.
    expect(events.filter((e) => e.type === 'token').map((e) => (e.type === 'token' ? e.text : '')).join('')).toBe('Third answer.');

    const state = await graphWith(100_000).getState({ configurable: { thread_id: 'long' } });
    const messages = state.values.messages as BaseMessage[];
    expect(messages[0]?.text).toBe('OLDEST question about penguins?');
    expect(state.values.summary).toContain('SUMMARY-MARK');
    expect(messages[state.values.summarizedThrough as number]?.text).toBe('Third question: and cars?');

    // The next run keeps compacting from the watermark: the summary is carried, not recomputed.
    await mock.script([{ type: 'text', content: 'Fourth answer.' }]);
    await ask(systemTokens + 600, 'Fourth?');
    const after = (await chatBodies()).slice(first.length + bodies.length);
    expect(after).toHaveLength(1);
    expect(JSON.stringify(after[0]?.messages)).toContain('SUMMARY-MARK');
    await saver.close();
  });
});
