/**
 * One clarifying question per question (issue 32), through the real graph and the scripted
 * endpoint: the first ends the run with choices; the user's choice is the next run; a second
 * ask_clarification there is refused, and the model goes on with an assumption it states.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm, type RecordedRequest } from '../../../testing/mock-llm/server.mjs';
import type { AgentEvent } from '../../../protocol/agent/wire';
import { IdbSaver } from '../checkpoint/IdbSaver';
import { createAgentGraph } from '../graph/graph';
import { createChatModel } from '../llm/chatModel';
import { runTurn } from '../service/run';
import { ASSUMED_CAVEAT } from './clarifyCap';

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ port: 0 });
});
afterAll(async () => {
  await mock.close();
});
beforeEach(async () => {
  await fetch(`${mock.url}/__reset`, { method: 'POST' });
});

async function script(replies: unknown[]) {
  await fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify({ replies, replace: true }) });
}
async function chatBodies(): Promise<{ messages: { role: string; content: unknown }[] }[]> {
  const all = (await (await fetch(`${mock.url}/__requests`)).json()) as RecordedRequest[];
  return all.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as never);
}

const ask = (id: string, question: string) => ({ type: 'tool_calls', calls: [{ id, name: 'ask_clarification', arguments: { question, choices: ['Include refunds', 'Exclude refunds'] } }] });

describe('clarifying questions', () => {
  it('asks at most one per question, then assumes and says so', async () => {
    const saver = new IdbSaver({ dbName: `clarify-${Date.now()}` });
    const graph = createAgentGraph({
      model: createChatModel({ baseUrl: `${mock.url}/v1`, apiKey: 'k', model: 'm' }, { maxRetries: 0 }),
      checkpointer: saver,
      tools: { host: { query: async () => ({ ok: false, message: 'no data here' }) } as never, searchExamples: async () => [] },
      context: async () => ({ datasets: [], pythonPackages: [], examples: [] }),
    });
    await script([ask('c1', 'Should refunds count?')]);
    const first = await runTurn(graph, { thread_id: 't', run_id: 'r1', mode: 'agent', question: 'What is the total?' }, { onEvent: () => undefined });
    expect(first.final?.clarification?.question).toBe('Should refunds count?');

    // No reset between runs, so the requests of both runs are read below (ids no longer restart
    // on a reset: testing/mock-llm/ids.mjs).
    await script([ask('c2', 'Which currency?'), { type: 'text', content: 'Assuming euros, the total without refunds is unknown here.' }]);
    const events: AgentEvent[] = [];
    const second = await runTurn(graph, { thread_id: 't', run_id: 'r2', mode: 'agent', question: 'Exclude refunds' }, { onEvent: (e) => events.push(e) });
    expect(second.final?.clarification).toBeUndefined();
    expect(second.final?.answer).toContain('Assuming euros');
    expect(second.final?.caveats).toContain(ASSUMED_CAVEAT);
    const refused = events.find((e) => e.type === 'tool_error' && e.tool === 'ask_clarification');
    expect(refused?.type === 'tool_error' && refused.error).toMatch(/already answered a clarifying question/);
    const [, req1, req2] = await chatBodies();
    expect(String(req1?.messages[0]?.content)).toContain('You asked "Should refunds count?"; the user\'s message "Exclude refunds" is their answer');
    expect(JSON.stringify(req2?.messages.at(-1))).toContain('Do not ask again');

    // A new question afterwards may ask again.
    await script([ask('c3', 'Which year?')]);
    const third = await runTurn(graph, { thread_id: 't', run_id: 'r3', mode: 'agent', question: 'And the average?' }, { onEvent: () => undefined });
    expect(third.final?.clarification?.question).toBe('Which year?');
    await saver.destroy();
  });
});
