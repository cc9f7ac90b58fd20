/**
 * The agent graph end to end in Node: the real @langchain/openai client against the scripted
 * endpoint, real DuckDB behind run_sql, IdbSaver on fake-indexeddb for the thread.
 */
import 'fake-indexeddb/auto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { BaseMessage } from '@langchain/core/messages';
import { startMockLlm, type MockLlm, type RecordedRequest, type ScriptedReply } from '../../../testing/mock-llm/server.mjs';
import type { AgentEvent } from '../../../protocol/agent/wire';
import { IdbSaver } from '../checkpoint/IdbSaver';
import { EXAMPLES } from '../examples/library';
import { createAgentGraph } from './graph';
import { createChatModel } from '../llm/chatModel';
import { runTurn } from '../service/run';
import type { ToolHost } from '../tools/execute';
import { duckdbHost } from '../testing/duckdbHost';

const require = createRequire(import.meta.url);
const weatherCsv = join(dirname(require.resolve('vega-datasets')), '..', 'data', 'seattle-weather.csv');

let mock: MockLlm;
let instance: DuckDBInstance;
let conn: DuckDBConnection;

let host: ToolHost;

let dbn = 0;
function setup() {
  const saver = new IdbSaver({ dbName: `graph-test-${Date.now()}-${dbn++}` });
  const model = createChatModel({ baseUrl: `${mock.url}/v1`, apiKey: 'sk-graph', model: 'mock-model' }, { maxRetries: 0 });
  const graph = createAgentGraph({
    model,
    checkpointer: saver,
    now: () => new Date('2026-11-22T12:00:00Z'),
    tools: { host, searchExamples: async (q, k) => EXAMPLES.filter((e) => e.question.toLowerCase().includes(q.toLowerCase())).slice(0, k) },
    context: async () => ({
      datasets: [
        {
          name: 'weather',
          rowCount: 1461,
          columns: [
            { name: 'date', type: 'DATE', samples: ['2012-01-01'] },
            { name: 'temp_max', type: 'DOUBLE', samples: [12.8, 10.6] },
            { name: 'weather', type: 'VARCHAR', samples: ['drizzle', 'rain'] },
          ],
        },
      ],
      pythonPackages: [],
      examples: EXAMPLES.slice(0, 1),
    }),
  });
  return { saver, graph };
}

async function script(replies: ScriptedReply[]) {
  await fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify({ replies, replace: true }) });
}
async function chatRequests(): Promise<{ messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[]; response_format?: { json_schema: { name: string } } }[]> {
  const all = (await (await fetch(`${mock.url}/__requests`)).json()) as RecordedRequest[];
  return all.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as never);
}

beforeAll(async () => {
  mock = await startMockLlm({ port: 0 });
  const { DuckDBInstance } = await import('@duckdb/node-api');
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
  await conn.run(`CREATE TABLE weather AS SELECT * FROM read_csv('${weatherCsv}')`);
  host = duckdbHost(conn);
});
afterAll(async () => {
  conn?.closeSync();
  instance?.closeSync();
  await mock.close();
});
beforeEach(async () => {
  await fetch(`${mock.url}/__reset`, { method: 'POST' });
});

async function meanMax(): Promise<number> {
  return Number((await conn.runAndReadAll('SELECT round(avg(temp_max), 2) FROM weather')).getRowsJS()[0]?.[0]);
}

describe('agent graph', () => {
  it('answers through run_sql, forces validation, streams tokens and persists the thread', async () => {
    const mean = await meanMax();
    const answer = `The average daily maximum temperature is ${mean} °C.`;
    await script([
      { type: 'tool_calls', calls: [{ id: 'q1', name: 'run_sql', arguments: { sql: 'SELECT round(avg(temp_max), 2) AS mean_max FROM weather' } }] },
      { type: 'text', content: answer, chunk_size: 6 },
      { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
    ]);
    const { saver, graph } = setup();
    const events: AgentEvent[] = [];
    const res = await runTurn(graph, { thread_id: 't1', run_id: 'r1', mode: 'agent', question: 'What is the average max temperature?' }, { onEvent: (e) => events.push(e) });

    expect(res.failure).toBeUndefined();
    const types = events.map((e) => (e.type === 'node' ? `node:${e.name}` : e.type === 'status' ? `status:${e.kind}` : e.type)).filter((t) => t !== 'token');
    expect(types).toEqual([
      'run_start', 'node:ingress', 'node:agent', 'node:tools', 'tool_start', 'tool_end', 'node:guard', 'node:agent', 'node:guard',
      'status:validating', 'tool_start', 'tool_end', 'node:finalize', 'final', 'run_end',
    ]);
    const tokens = events.filter((e): e is Extract<AgentEvent, { type: 'token' }> => e.type === 'token').map((e) => e.text);
    expect(tokens.length).toBeGreaterThan(3);
    expect(tokens.join('')).toBe(answer);
    expect(res.final).toMatchObject({ answer, output_type: 'analysis', confidence: 0.9, ungrounded_numbers: [], code: ['SELECT round(avg(temp_max), 2) AS mean_max FROM weather'] });

    const reqs = await chatRequests();
    expect(reqs).toHaveLength(3);
    expect(reqs[0]?.tools?.map((t) => t.function.name).sort()).toEqual(['ask_clarification', 'create_chart', 'describe_columns', 'profile_data', 'run_python', 'run_sql', 'search_examples', 'validate_results']);
    const system = String(reqs[0]?.messages[0]?.content);
    expect(reqs[0]?.messages[0]?.role).toBe('system');
    for (const s of ['weather', 'temp_max DOUBLE', '2026-11-22', 'pandas is NOT available']) expect(system).toContain(s);
    expect(JSON.stringify(reqs[1]?.messages.at(-1))).toContain(String(mean));
    expect(reqs[2]?.response_format?.json_schema.name).toBe('validation_report');

    // Reload: a new saver over the same database sees the whole turn and continues it.
    await saver.close();
    const again = new IdbSaver({ dbName: saver.dbName });
    const state = await createAgentGraph({
      model: createChatModel({ baseUrl: `${mock.url}/v1`, apiKey: 'k', model: 'm' }),
      checkpointer: again,
      tools: { host, searchExamples: async () => [] },
      context: async () => ({ datasets: [], pythonPackages: [], examples: [] }),
    }).getState({ configurable: { thread_id: 't1' } });
    const texts = (state.values.messages as BaseMessage[]).map((m) => `${m.getType()}:${m.text.slice(0, 30)}`);
    expect(texts[0]).toBe(`human:${'What is the average max temperature?'.slice(0, 30)}`);
    expect(texts.at(-1)).toBe(`ai:${answer.slice(0, 30)}`);
    expect(state.values.final?.answer).toBe(answer);
    await again.destroy();
  });

  it('sends malformed tool-call arguments back to the model as an error', async () => {
    await script([
      { type: 'malformed_tool_call', id: 'bad1', name: 'run_sql', arguments_text: '{"sql": SELECT 1}' },
      { type: 'text', content: 'I could not run the query, so I cannot answer yet.' },
    ]);
    const { saver, graph } = setup();
    const events: AgentEvent[] = [];
    const res = await runTurn(graph, { thread_id: 't2', run_id: 'r2', mode: 'agent', question: 'Count rows' }, { onEvent: (e) => events.push(e) });
    const err = events.find((e) => e.type === 'tool_error');
    expect(err).toMatchObject({ call_id: 'bad1', tool: 'run_sql' });
    expect(err?.type === 'tool_error' && err.error).toMatch(/^Error: the arguments of this run_sql call were not valid JSON/);
    const reqs = await chatRequests();
    const toolMsg = reqs[1]?.messages.find((m) => m.role === 'tool');
    expect(String(toolMsg?.content)).toMatch(/not valid JSON/);
    expect(res.final?.output_type).toBe('explanation');
    expect(res.final?.failed_attempts).toHaveLength(1);
    await saver.destroy();
  });

  it('runs at most 10 tool calls of one message and tells the model the rest were not run', { timeout: 60_000 }, async () => {
    const calls = Array.from({ length: 1000 }, (_, i) => ({ id: `c${i}`, name: 'run_sql', arguments: { sql: `SELECT ${i} AS n` } }));
    await script([{ type: 'tool_calls', calls }, { type: 'text', content: 'I ran what I could.' }]);
    const { saver, graph } = setup();
    const events: AgentEvent[] = [];
    await runTurn(graph, { thread_id: 'cap', run_id: 'rc', mode: 'agent', question: 'Run everything' }, { onEvent: (e) => events.push(e) });
    expect(events.filter((e) => e.type === 'tool_start' && e.tool === 'run_sql').map((e) => e.type === 'tool_start' && e.call_id)).toEqual(calls.slice(0, 10).map((c) => c.id));
    const second = (await chatRequests())[1];
    const messages = second?.messages ?? [];
    // The stored assistant message lists only the calls that ran, each answered.
    const assistant = messages.find((m) => m.role === 'assistant') as { tool_calls?: unknown[] } | undefined;
    expect(assistant?.tool_calls).toHaveLength(10);
    expect(messages.filter((m) => m.role === 'tool')).toHaveLength(10);
    const note = messages.at(-1);
    expect(note?.role).toBe('user');
    expect(String(note?.content)).toMatch(/asked for 1000 tool calls; only the first 10 ran.*990 were NOT run/);
    expect(JSON.stringify(messages)).not.toContain('SELECT 10 AS n');
    await saver.destroy();
  });

  it('detects a loop of identical failures and tells the model to diverge', async () => {
    const bad = { type: 'tool_calls' as const, calls: [{ name: 'run_sql', arguments: { sql: 'SELECT avg(temperature) FROM weather' } }] };
    await script([bad, bad, { type: 'text', content: 'The column does not exist; the table has temp_max and temp_min instead.' }]);
    const { saver, graph } = setup();
    const events: AgentEvent[] = [];
    const res = await runTurn(graph, { thread_id: 't3', run_id: 'r3', mode: 'agent', question: 'Average temperature?' }, { onEvent: (e) => events.push(e) });
    expect(events.filter((e) => e.type === 'status').map((e) => e.type === 'status' && e.kind)).toEqual(['loop_detected']);
    const reqs = await chatRequests();
    expect(JSON.stringify(reqs[2]?.messages.at(-1))).toContain('LOOP DETECTED');
    expect(res.final?.failed_attempts).toHaveLength(2);
    expect(res.final?.failed_attempts[0]?.error).toMatch(/temperature/);
    await saver.destroy();
  });

  it('turns a refused key into an error event and still ends the run, keeping the question', async () => {
    await script([{ type: 'error', status: 401 }]);
    const { saver, graph } = setup();
    const events: AgentEvent[] = [];
    const res = await runTurn(graph, { thread_id: 't4', run_id: 'r4', mode: 'agent', question: 'Anything?' }, { onEvent: (e) => events.push(e) });
    expect(res.failure?.kind).toBe('auth');
    expect(events.slice(-2)).toEqual([
      { type: 'error', message: 'The key was refused by the endpoint (HTTP 401: “mock-llm scripted 401”). Change the API key in Settings.', retryable: false, kind: 'auth', status: 401, run_id: 'r4' },
      { type: 'run_end', thread_id: 't4', run_id: 'r4' },
    ]);
    // Every event of the run names it.
    expect(events.every((e) => e.run_id === 'r4')).toBe(true);
    const state = await graph.getState({ configurable: { thread_id: 't4' } });
    expect((state.values.messages as BaseMessage[]).map((m) => m.text)).toEqual(['Anything?']);
    // Resume the same thread once the endpoint works again.
    await script([{ type: 'text', content: 'Here is an answer without data.' }]);
    const resumed = await runTurn(graph, { thread_id: 't4', run_id: 'r5', mode: 'agent' }, { onEvent: () => undefined });
    expect(resumed.final?.answer).toBe('Here is an answer without data.');
    await saver.destroy();
  });

  it('degrades gracefully when the step budget runs out', async () => {
    const probe = { type: 'tool_calls' as const, calls: [{ name: 'profile_data', arguments: { dataset: 'weather' } }] };
    await script([probe, probe, probe, probe, probe, { type: 'text', content: 'I profiled the table but ran out of steps.' }]);
    const { saver, graph } = setup();
    const events: AgentEvent[] = [];
    const res = await runTurn(graph, { thread_id: 't6', run_id: 'r6', mode: 'agent', question: 'How many rows?' }, { onEvent: (e) => events.push(e) });
    expect(events.some((e) => e.type === 'status' && e.kind === 'budget_exhausted')).toBe(true);
    expect(res.final?.answer).toBe('I profiled the table but ran out of steps.');
    expect(res.final?.caveats[0]).toMatch(/step budget \(5\)/);
    const reqs = await chatRequests();
    expect(reqs.at(-1)?.tools).toBeUndefined();
    await saver.destroy();
  });
});

describe('a reply that breaks off after the stream began', () => {
  it('is requested once more, the page told to drop what it showed; a second break ends the run', async () => {
    await script([{ type: 'cut', content: 'The average is about', after_chunks: 3 }, { type: 'text', content: 'Here is an answer without data.' }]);
    const { saver, graph } = setup();
    const events: AgentEvent[] = [];
    const res = await runTurn(graph, { thread_id: 'cut1', run_id: 'c1', mode: 'agent', question: 'Say hello' }, { onEvent: (e) => events.push(e) });
    const restart = events.find((e) => e.type === 'status' && e.discard_partial === true);
    expect(restart).toMatchObject({ kind: 'retrying' });
    expect(res.final?.answer).toBe('Here is an answer without data.');
    // Only the retried reply is stored.
    const state = await graph.getState({ configurable: { thread_id: 'cut1' } });
    expect((state.values.messages as BaseMessage[]).map((m) => m.text)).toEqual(['Say hello', 'Here is an answer without data.']);

    await script([{ type: 'cut', content: 'Once', after_chunks: 3 }, { type: 'cut', content: 'Twice', after_chunks: 3 }]);
    const again: AgentEvent[] = [];
    const failed = await runTurn(graph, { thread_id: 'cut2', run_id: 'c2', mode: 'agent', question: 'Say hello' }, { onEvent: (e) => again.push(e) });
    expect(failed.failure).toMatchObject({ kind: 'network', retryable: true });
    expect((await chatRequests()).length).toBe(4);
    await saver.destroy();
  });
});
