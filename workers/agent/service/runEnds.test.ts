/**
 * Every run ends (issue 30): whatever throws — a structured-output method the library refuses by
 * model name before any request, the model's build, a node — the run ends with a classified
 * `error` and its `run_end`, through the real service, the real @langchain/openai client and the
 * scripted endpoint.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../protocol/agent/wire';
import { IdbSaver } from '../checkpoint/IdbSaver';
import { ExampleLibrary } from '../examples/retrieval';
import type { EndpointProfileStore } from '../llm/endpointProfile';
import { createAgentService, type AgentServiceDeps } from './service';
import { useDataWorker } from '../testing/dataWorker';
import { useMockEndpoint } from '../testing/mockEndpoint';

const mock = useMockEndpoint();
const worker = useDataWorker({ text: 'city,sales\nOslo,3\nLima,5\n', fileName: 'sales.csv', loadId: 's' });
let n = 0;

function makeService(extra: Partial<AgentServiceDeps> = {}) {
  const events: AgentEvent[] = [];
  const saver = new IdbSaver({ dbName: `run-ends-${Date.now()}-${n++}` });
  let id = 0;
  const service = createAgentService({ data: worker.client, saver, library: new ExampleLibrary(), emit: (e) => events.push(e), maxRetries: 0, newId: () => `run-${++id}`, ...extra });
  return { service, events, saver };
}
const settings = (model: string) => ({ baseUrl: `${mock.url}/v1`, apiKey: 'k', model });

describe('a run always ends', { timeout: 60_000 }, () => {
  // @langchain/openai 1.5.8 utils/output.js: `withStructuredOutput(…, { method: 'jsonSchema' })`
  // throws "JSON Schema is not supported for model "gpt-3.5-turbo"" when it is built, before any
  // request (the run never ended). Pipeline mode's first call is the structured `execution_plan`.
  it('with model gpt-3.5-turbo the plan comes by another rung and the run ends with an answer', async () => {
    const { service, events, saver } = makeService();
    await mock.script([
      { type: 'structured', when: 'execution_plan', value: { needs_code: false, needs_evaluation: false, needs_explanation: true, reasoning: 'explain' } },
      { type: 'text', content: 'Two cities are listed.' },
    ]);
    await service.start({ settings: settings('gpt-3.5-turbo'), thread_id: 'p35', question: 'What is in the data?', mode: 'pipeline' });
    await service.idle();
    expect(events.at(-1)).toMatchObject({ type: 'run_end', run_id: 'run-1' });
    expect(events.find((e) => e.type === 'final')).toBeDefined();
    // The endpoint, not the model's name, decided: the plan was asked for with a JSON schema, and this endpoint gave it.
    const first = (await mock.chatRequests())[0]?.body as { response_format?: { type?: string; json_schema?: { name?: string } } };
    expect(first.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'execution_plan' } });
    await saver.destroy();
  });

  it('with model gpt-3.5-turbo and an endpoint that answers nothing usable, the run ends with the reason', async () => {
    const { service, events, saver } = makeService();
    await mock.script([
      { type: 'error', status: 400, message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model." },
      { type: 'error', status: 400, message: 'tool_choice object is not supported' },
      { type: 'error', status: 400, message: "'response_format' is not supported" },
      { type: 'text', content: 'no JSON here' },
    ]);
    await service.start({ settings: settings('gpt-3.5-turbo'), thread_id: 'p35b', question: 'What is in the data?', mode: 'pipeline' });
    await service.idle();
    const error = events.find((e) => e.type === 'error');
    expect(error?.type === 'error' && error.message).toMatch(/execution_plan.*json_schema.*not supported/);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', run_id: 'run-1' });
    // The conversation keeps the question and can be continued.
    expect((await service.loadThread({ thread_id: 'p35b' })).result).toMatchObject({ messages: [{ role: 'user', content: 'What is in the data?' }] });
    await saver.destroy();
  });

  it('a failure building the run (before the graph exists) still ends it with an error and run_end', async () => {
    const broken: EndpointProfileStore = {
      get: () => Promise.resolve({ get refusedParams(): string[] { throw new Error('the profile store broke'); } } as never),
      update: () => Promise.reject(new Error('no')),
      clear: () => Promise.resolve(),
    };
    const { service, events, saver } = makeService({ profiles: broken });
    await service.start({ settings: settings('mock-model'), thread_id: 'b1', question: 'q', mode: 'agent' });
    await service.idle();
    expect(events.map((e) => e.type)).toEqual(['run_start', 'error', 'run_end']);
    expect(events[1]).toMatchObject({ type: 'error', message: expect.stringContaining('the profile store broke') });
    // The slot is free: the next run starts.
    await mock.script([{ type: 'text', content: 'ok' }]);
    const { service: again, events: e2, saver: s2 } = makeService();
    await again.start({ settings: settings('mock-model'), thread_id: 'b2', question: 'q', mode: 'agent' });
    await again.idle();
    expect(e2.at(-1)?.type).toBe('run_end');
    await saver.destroy();
    await s2.destroy();
  });
});
