/**
 * Pipeline mode end to end in Node: scripted endpoint, real @langchain/openai client, native
 * DuckDB behind run_sql, IdbSaver on fake-indexeddb.
 */
import 'fake-indexeddb/auto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { startMockLlm, type MockLlm, type RecordedRequest, type ScriptedReply } from '../../../testing/mock-llm/server.mjs';
import type { AgentEvent } from '../../../protocol/agent/wire';
import { IdbSaver } from '../checkpoint/IdbSaver';
import { createChatModel } from '../llm/chatModel';
import { createPipelineGraph } from './pipeline';
import { runTurn } from '../service/run';
import { duckdbHost } from '../testing/duckdbHost';

const require = createRequire(import.meta.url);
const weatherCsv = join(dirname(require.resolve('vega-datasets')), '..', 'data', 'seattle-weather.csv');

let mock: MockLlm;
let instance: DuckDBInstance;
let conn: DuckDBConnection;
let n = 0;

beforeAll(async () => {
  mock = await startMockLlm({ port: 0 });
  const { DuckDBInstance } = await import('@duckdb/node-api');
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
  await conn.run(`CREATE TABLE weather AS SELECT * FROM read_csv('${weatherCsv}')`);
});
afterAll(async () => {
  conn?.closeSync();
  instance?.closeSync();
  await mock.close();
});
beforeEach(async () => {
  await fetch(`${mock.url}/__reset`, { method: 'POST' });
});

function setup() {
  const saver = new IdbSaver({ dbName: `pipeline-${Date.now()}-${n++}` });
  const graph = createPipelineGraph({
    model: createChatModel({ baseUrl: `${mock.url}/v1`, apiKey: 'k', model: 'mock-model' }, { maxRetries: 0 }),
    checkpointer: saver,
    tools: { host: duckdbHost(conn), searchExamples: async () => [] },
    context: async () => ({
      datasets: [{ name: 'weather', rowCount: 1461, columns: [{ name: 'temp_max', type: 'DOUBLE' }, { name: 'weather', type: 'VARCHAR' }] }],
      pythonPackages: [],
      examples: [],
    }),
  });
  return { saver, graph };
}
async function script(replies: ScriptedReply[]) {
  await fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify({ replies, replace: true }) });
}
async function chatBodies(): Promise<Record<string, unknown>[]> {
  const all = (await (await fetch(`${mock.url}/__requests`)).json()) as RecordedRequest[];
  return all.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as Record<string, unknown>);
}
const plan = (needs_code: boolean, needs_evaluation = true) => ({
  type: 'structured' as const,
  when: 'execution_plan',
  value: { needs_code, needs_evaluation, needs_explanation: true, reasoning: 'scripted' },
});
const sql = (q: string) => ({ type: 'tool_calls' as const, calls: [{ name: 'run_sql', arguments: { sql: q } }] });

describe('pipeline mode', () => {
  it('plans, fixes failed code with the error, evaluates and explains', async () => {
    const max = Number((await conn.runAndReadAll('SELECT max(temp_max) FROM weather')).getRowsJS()[0]?.[0]);
    await script([
      plan(true),
      sql('SELECT max(temperature) AS hottest FROM weather'),
      sql('SELECT max(temp_max) AS hottest FROM weather'),
      { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.8 } },
      { type: 'text', content: `The hottest day reached ${max} °C.` },
    ]);
    const { saver, graph } = setup();
    const events: AgentEvent[] = [];
    const res = await runTurn(graph, { thread_id: 'p1', run_id: 'r1', mode: 'pipeline', question: 'What was the hottest day?' }, { onEvent: (e) => events.push(e) });
    const nodes = events.filter((e) => e.type === 'node').map((e) => e.type === 'node' && e.name);
    expect(nodes).toEqual(['ingress', 'plan', 'code', 'code', 'evaluate', 'explain', 'finalize']);
    expect(events.filter((e) => e.type === 'status').map((e) => e.type === 'status' && e.kind)).toEqual(['retrying', 'validating']);
    expect(res.final).toMatchObject({ answer: `The hottest day reached ${max} °C.`, output_type: 'analysis', confidence: 0.8, ungrounded_numbers: [] });
    expect(res.final?.failed_attempts).toHaveLength(1);
    expect(events.filter((e) => e.type === 'token').map((e) => e.type === 'token' && e.text).join('')).toBe(`The hottest day reached ${max} °C.`);

    const bodies = await chatBodies();
    expect((bodies[0]?.response_format as { json_schema: { name: string } }).json_schema.name).toBe('execution_plan');
    expect(bodies[1]?.tool_choice).toBe('required');
    expect((bodies[1]?.tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual(['run_sql', 'run_python', 'create_chart']);
    // the retry prompt carries the failed code and its error
    expect(JSON.stringify(bodies[2]?.messages)).toMatch(/FAILED[\s\S]*max\(temperature\)/);
    await saver.destroy();
  });

  it('gives up after 3 failed attempts through the error node', async () => {
    const bad = sql('SELECT nope FROM weather');
    await script([plan(true), bad, bad, bad]);
    const { saver, graph } = setup();
    const events: AgentEvent[] = [];
    const res = await runTurn(graph, { thread_id: 'p2', run_id: 'r2', mode: 'pipeline', question: 'Anything' }, { onEvent: (e) => events.push(e) });
    expect(res.final?.output_type).toBe('error');
    expect(res.final?.failed_attempts).toHaveLength(3);
    expect(res.final?.answer).toMatch(/^I could not compute an answer: 3 attempts failed\./);
    expect(events.filter((e) => e.type === 'token').map((e) => e.type === 'token' && e.text).join('')).toBe(res.final?.answer);
    expect(await chatBodies()).toHaveLength(4);
    await saver.destroy();
  });

  it('explains directly when the plan needs no code', async () => {
    await script([plan(false, false), { type: 'text', content: 'A median is the middle value.' }]);
    const { saver, graph } = setup();
    const res = await runTurn(graph, { thread_id: 'p3', run_id: 'r3', mode: 'pipeline', question: 'What is a median?' }, { onEvent: () => undefined });
    expect(res.final).toMatchObject({ answer: 'A median is the middle value.', output_type: 'explanation' });
    await saver.destroy();
  });
});
