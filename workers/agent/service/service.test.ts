/**
 * The agent worker's handlers end to end in Node: the real data worker handlers (DuckDB-WASM)
 * over a MessageChannel, the real @langchain/openai client against the scripted endpoint, and
 * IdbSaver on fake-indexeddb.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseAgentEvent, type AgentEvent } from '../../../protocol/agent/wire';
import { IdbSaver } from '../checkpoint/IdbSaver';
import { ExampleLibrary } from '../examples/retrieval';
import { createAgentService, type AgentService } from './service';
import { useDataWorker } from '../testing/dataWorker';
import { useMockEndpoint } from '../testing/mockEndpoint';

const require = createRequire(import.meta.url);
const csv = readFileSync(join(dirname(require.resolve('vega-datasets')), '..', 'data', 'seattle-weather.csv'), 'utf8');

const mock = useMockEndpoint();
const worker = useDataWorker({ text: csv, fileName: 'Seattle-Weather.csv', loadId: 'w' });
let saverN = 0;

function makeService(): { service: AgentService; events: AgentEvent[]; saver: IdbSaver } {
  const events: AgentEvent[] = [];
  const saver = new IdbSaver({ dbName: `service-${Date.now()}-${saverN++}` });
  let id = 0;
  const service = createAgentService({ data: worker.client, saver, library: new ExampleLibrary(), emit: (e) => events.push(e), maxRetries: 1, newId: () => `run-${++id}` });
  return { service, events, saver };
}
const settings = () => ({ baseUrl: `${mock.url}/v1`, apiKey: 'sk-service-key', model: 'mock-model' });

describe('agent service', { timeout: 60_000 }, () => {
  it('answers a question from the loaded data and keeps the thread', async () => {
    const { service, events, saver } = makeService();
    await mock.script([
      { type: 'tool_calls', calls: [{ name: 'run_sql', arguments: { sql: "SELECT count(*) AS rainy_days FROM seattle_weather WHERE weather = 'rain'" } }] },
      { type: 'text', content: 'There were 641 rainy days.' },
      { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.95 } },
    ]);
    const { result } = await service.start({ settings: settings(), thread_id: 'th1', question: 'How many rainy days were there?', mode: 'agent', question_id: 'q-rain' });
    expect(result.run_id).toBe('run-1');
    await service.idle();

    const final = events.find((e) => e.type === 'final');
    expect(final?.type === 'final' && final.output).toMatchObject({ answer: 'There were 641 rainy days.', ungrounded_numbers: [], confidence: 0.95 });
    // The worker sends the nodes' events unparsed: the page's one parse must take every one as it is.
    for (const e of events) expect(parseAgentEvent(e)).toEqual({ ok: true, event: e });
    // run_end carries what every request of the run cost: three requests (two agent turns, the
    // validator), each with the usage chunk the scripted endpoint sends for include_usage.
    const end = events.at(-1);
    expect(end).toMatchObject({ type: 'run_end', thread_id: 'th1', run_id: 'run-1', usage: { requests: 3, estimated: false, model: 'mock-model', base_url: `${mock.url}/v1` } });
    const usage = end?.type === 'run_end' ? end.usage : undefined;
    expect(usage?.input_tokens).toBeGreaterThan(0);
    expect(usage?.output_tokens).toBeGreaterThan(0);

    const reqs = (await mock.recorded()).filter((r) => r.path === '/v1/chat/completions');
    const system = JSON.stringify((reqs[0]?.body as { messages: unknown[] }).messages[0]);
    for (const s of ['seattle_weather (1461 rows, 6 columns)', 'temp_max DOUBLE', 'weather VARCHAR: drizzle, rain']) expect(system).toContain(s);
    // The key travels only in the Authorization header.
    for (const r of reqs) {
      expect(r.headers.authorization).toBe('Bearer sk-service-key');
      expect(JSON.stringify(r.body)).not.toContain('sk-service-key');
    }

    const threads = (await service.listThreads({})).result;
    expect(threads).toMatchObject([{ thread_id: 'th1', title: 'How many rainy days were there?', mode: 'agent' }]);
    const view = (await service.loadThread({ thread_id: 'th1' })).result;
    expect(view?.interrupted).toBe(false);
    expect(view?.finals).toHaveLength(1);
    // Kept with the question it answered, so a reopened conversation shows it again.
    expect(view?.usage).toEqual({ 'q-rain': usage });
    expect(view?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(JSON.stringify(await saver.getTuple({ configurable: { thread_id: 'th1' } }))).not.toContain('sk-service-key');
    await saver.destroy();
  });

  it('shows an interrupted thread after an endpoint failure and resumes it', async () => {
    const { service, events, saver } = makeService();
    await mock.script([{ type: 'error', status: 500 }, { type: 'error', status: 500 }]);
    await service.start({ settings: settings(), thread_id: 'th2', question: 'Average wind?', mode: 'agent' });
    await service.idle();
    expect(events.filter((e) => e.type === 'status').map((e) => e.type === 'status' && e.kind)).toEqual(['retrying']);
    expect(events.find((e) => e.type === 'error')).toMatchObject({ retryable: true });
    expect((await service.loadThread({ thread_id: 'th2' })).result).toMatchObject({ interrupted: true, messages: [{ role: 'user', content: 'Average wind?' }] });

    // The page may name the run; every event of it, the retry status included, carries that id.
    expect(events.every((e) => e.run_id === 'run-1')).toBe(true);
    await mock.script([{ type: 'text', content: 'I need to query the data first.' }]);
    expect((await service.resume({ settings: settings(), thread_id: 'th2', run_id: 'page-named' })).result.run_id).toBe('page-named');
    await service.idle();
    expect(events.filter((e) => e.run_id === 'page-named').map((e) => e.type)).toContain('run_end');
    await expect(service.resume({ settings: settings(), thread_id: 'th2', run_id: 'not a valid id!' })).rejects.toThrow(/run id/);
    expect((await service.loadThread({ thread_id: 'th2' })).result?.interrupted).toBe(false);
    await saver.destroy();
  });

  it('runs a conversation in pipeline mode and lists it as such', async () => {
    const { service, events, saver } = makeService();
    await mock.script([
      { type: 'structured', when: 'execution_plan', value: { needs_code: true, needs_evaluation: false, needs_explanation: true, reasoning: 'count' } },
      { type: 'tool_calls', calls: [{ name: 'run_sql', arguments: { sql: 'SELECT count(*) AS days FROM seattle_weather' } }] },
      { type: 'text', content: 'The data covers 1461 days.' },
    ]);
    await service.start({ settings: settings(), thread_id: 'pipe', question: 'How many days?', mode: 'pipeline' });
    await service.idle();
    const final = events.find((e) => e.type === 'final');
    expect(final?.type === 'final' && final.output).toMatchObject({ answer: 'The data covers 1461 days.', ungrounded_numbers: [] });
    for (const e of events) expect(parseAgentEvent(e)).toEqual({ ok: true, event: e });
    expect((await service.listThreads({})).result).toMatchObject([{ thread_id: 'pipe', mode: 'pipeline' }]);
    await saver.destroy();
  });

  it('refuses bad settings and a second concurrent run; aborts a run', async () => {
    const { service, events, saver } = makeService();
    expect(() => service.start({ settings: { ...settings(), baseUrl: 'http://x' }, thread_id: 't', question: 'q', mode: 'agent' })).toThrow(/\/v1/);
    await mock.script([{ type: 'text', content: 'slow', delay_ms: 3000 }]);
    const { result } = await service.start({ settings: settings(), thread_id: 't3', question: 'q', mode: 'agent' });
    expect(() => service.start({ settings: settings(), thread_id: 't4', question: 'q', mode: 'agent' })).toThrow(/already in progress/);
    // Aborted once the request is on the wire (not after a guessed delay: under load it may not
    // have left yet), while the endpoint is still holding its reply back.
    await vi.waitFor(async () => expect(await mock.chatRequests()).toHaveLength(1), { timeout: 10_000, interval: 20 });
    expect((await service.abort({ run_id: result.run_id })).result.aborted).toBe(true);
    await service.idle();
    // The held-back reply never reached the run: it ended on the abort, not on the reply.
    expect(events.some((e) => e.type === 'token' && JSON.stringify(e).includes('slow'))).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', thread_id: 't3', run_id: result.run_id, usage: { requests: 1, input_tokens: 0, output_tokens: 0 } });
    expect((await service.abort({ run_id: result.run_id })).result.aborted).toBe(false);
    await saver.destroy();
  });

  it('lists the endpoint models, and explains a refused key', async () => {
    const { service, saver } = makeService();
    expect((await service.listModels({ settings: { baseUrl: `${mock.url}/v1`, apiKey: 'k' } })).result).toEqual({ ok: true, models: ['mock-model', 'mock-model-mini'] });
    await mock.script([], { require_key: 'right' });
    expect((await service.listModels({ settings: { baseUrl: `${mock.url}/v1`, apiKey: 'wrong' } })).result).toEqual({ ok: false, status: 401, message: 'The key was refused by the endpoint.' });
    const unreachable = (await service.listModels({ settings: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: '' } })).result;
    expect(unreachable.ok).toBe(false);
    await saver.destroy();
  });
});
