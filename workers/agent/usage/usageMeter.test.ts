import { describe, expect, it } from 'vitest';
import { HumanMessage } from '@langchain/core/messages';
import { createChatModel } from '../llm/chatModel';
import { createRecordingFetch, type RequestOutcome, type RequestSink } from '../privacy/recordingFetch';
import { UsageMeter } from './usageMeter';
import { addUsage } from '../../../protocol/agent/usage';

// The shapes are OpenAI's: with `stream_options.include_usage` a last chunk with `choices: []`
// carries the whole request's `usage` (earlier chunks `usage: null`); a non-streamed reply has
// `usage` at the top level. https://platform.openai.com/docs/api-reference/chat/create#chat-create-stream_options
// (as quoted in https://docs.rs/openai-interface/0.4.4-beta.1/openai_interface/chat/request/struct.StreamOptions.html)
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
  usage: null,
});
const sse = (events: unknown[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + 'data: [DONE]\n\n';

function endpoint(reply: 'stream-usage' | 'stream-bare' | 'json') {
  return (async (_input: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { stream?: boolean; stream_options?: { include_usage?: boolean } };
    if (reply === 'json' || !body.stream) {
      return Response.json({
        id: 'x',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Forty-two.' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 120, completion_tokens: 4, total_tokens: 124 },
      });
    }
    const events: unknown[] = [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Forty-' }), chunk({ content: 'two.' }), chunk({}, 'stop')];
    if (reply === 'stream-usage' && body.stream_options?.include_usage) events.push({ ...chunk({}), choices: [], usage: { prompt_tokens: 300, completion_tokens: 7, total_tokens: 307 } });
    return new Response(sse(events), { status: 200, headers: { 'content-type': 'text/event-stream' } });
  }) as typeof fetch;
}

const noLog: RequestSink = () => () => undefined;

async function runTwice(reply: 'stream-usage' | 'stream-bare' | 'json', streamed: boolean) {
  const meter = new UsageMeter();
  const model = createChatModel({ baseUrl: 'https://llm.example/v1', apiKey: 'k', model: 'gpt-4o-mini' }, { fetch: createRecordingFetch(endpoint(reply), meter.wrap(noLog)), maxRetries: 0 });
  for (let i = 0; i < 2; i++) {
    if (streamed) for await (const c of await model.stream([new HumanMessage('What is six times seven?')])) void c;
    else await model.invoke([new HumanMessage('What is six times seven?')]);
  }
  await meter.settled(2000);
  return meter.total('gpt-4o-mini', 'https://llm.example/v1');
}

describe('UsageMeter', () => {
  it('sums the usage chunk of each streamed request', async () => {
    expect(await runTwice('stream-usage', true)).toEqual({ input_tokens: 600, output_tokens: 14, requests: 2, estimated: false, model: 'gpt-4o-mini', base_url: 'https://llm.example/v1' });
  });

  it('sums the usage of non-streamed replies', async () => {
    expect(await runTwice('json', false)).toMatchObject({ input_tokens: 240, output_tokens: 8, requests: 2, estimated: false });
  });

  it('estimates from text length, and says so, when the stream carries no usage', async () => {
    const u = await runTwice('stream-bare', true);
    expect(u?.estimated).toBe(true);
    expect(u?.requests).toBe(2);
    // About four characters a token: the request body is far longer than the reply.
    expect(u?.input_tokens).toBeGreaterThan(20);
    expect(u?.output_tokens).toBe(2 * Math.ceil('Forty-two.'.length / 4));
  });

  it('counts a request that failed without tokens, and passes every outcome on to the log', async () => {
    const seen: RequestOutcome[] = [];
    const meter = new UsageMeter();
    const sink = meter.wrap(() => (o) => void seen.push(o));
    sink({ at: '', url: 'u', method: 'POST', body: '' })({ status: 500, usage: null });
    const finish = sink({ at: '', url: 'u', method: 'POST', body: '' });
    finish({ status: 200, usage: { prompt_tokens: 10, completion_tokens: null, total_tokens: null } });
    await meter.settled(10);
    expect(meter.total('m', 'b')).toEqual({ input_tokens: 10, output_tokens: 0, requests: 2, estimated: false, model: 'm', base_url: 'b' });
    expect(seen).toHaveLength(2);
  });

  it('reports nothing for a run that sent nothing, and waits no longer than told for an outcome', async () => {
    const meter = new UsageMeter();
    expect(meter.total('m', 'b')).toBeUndefined();
    meter.wrap(noLog)({ at: '', url: 'u', method: 'POST', body: '' });
    await meter.settled(5);
    expect(meter.total('m', 'b')).toMatchObject({ requests: 1, input_tokens: 0 });
  });
});

describe('addUsage', () => {
  it('adds a resumed run to the question it continues', () => {
    const a = { input_tokens: 1, output_tokens: 2, requests: 1, estimated: false, model: 'a', base_url: 'x' };
    expect(addUsage(undefined, a)).toEqual(a);
    expect(addUsage(a, { ...a, estimated: true, model: 'b' })).toEqual({ input_tokens: 2, output_tokens: 4, requests: 2, estimated: true, model: 'b', base_url: 'x' });
  });
});
