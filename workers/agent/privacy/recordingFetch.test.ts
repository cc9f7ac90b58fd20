import { describe, expect, it } from 'vitest';
import { HumanMessage } from '@langchain/core/messages';
import { createChatModel } from '../llm/chatModel';
import { receivedText, createRecordingFetch, usageFromBody, type RequestOutcome, type SentRequest } from './recordingFetch';

const KEY = 'sk-secret-never-logged-42';

function sse(events: unknown[]): string {
  return events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + 'data: [DONE]\n\n';
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

/** A fake endpoint that streams "Hello there" with a usage chunk and remembers what it got. */
function fakeEndpoint(opts: { usage?: boolean } = {}) {
  const seen: { url: string; body: string; auth: string | null }[] = [];
  const fake = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    seen.push({ url: String(input), body: typeof init?.body === 'string' ? init.body : '', auth: headers.get('authorization') });
    const events: unknown[] = [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hello ' }), chunk({ content: 'there' }), chunk({}, 'stop')];
    if (opts.usage !== false) events.push({ ...chunk({}), choices: [], usage: { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 } });
    return new Response(sse(events), { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
  return { fake: fake as typeof fetch, seen };
}

function recorder() {
  const log: (SentRequest & { outcome?: RequestOutcome })[] = [];
  let settle: () => void = () => undefined;
  const done = new Promise<void>((r) => (settle = r));
  const sink = (req: SentRequest) => {
    const entry: SentRequest & { outcome?: RequestOutcome } = { ...req };
    log.push(entry);
    return (o: RequestOutcome) => {
      entry.outcome = o;
      settle();
    };
  };
  return { log, sink, done };
}

describe('createRecordingFetch', () => {
  it('records the exact body and the usage of a streamed reply, and the SDK still gets every token', async () => {
    const { fake, seen } = fakeEndpoint();
    const rec = recorder();
    const model = createChatModel(
      { baseUrl: 'https://llm.example/v1', apiKey: KEY, model: 'gpt-4o-mini' },
      { fetch: createRecordingFetch(fake, rec.sink, { now: () => new Date('2026-01-02T03:04:05Z') }), maxRetries: 0 },
    );
    let text = '';
    for await (const c of await model.stream([new HumanMessage('Say hello')])) text += c.text;
    expect(text).toBe('Hello there');
    await rec.done;

    expect(rec.log).toHaveLength(1);
    const [entry] = rec.log;
    expect(entry?.url).toBe('https://llm.example/v1/chat/completions');
    expect(entry?.method).toBe('POST');
    expect(entry?.at).toBe('2026-01-02T03:04:05.000Z');
    // Byte for byte what the endpoint received.
    expect(entry?.body).toBe(seen[0]?.body);
    expect(JSON.parse(entry?.body ?? '{}')).toMatchObject({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    expect(entry?.outcome).toEqual({ status: 200, usage: { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 } });
    // The key went in the header, and nowhere in what was recorded.
    expect(seen[0]?.auth).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(rec.log)).not.toContain(KEY);
  });

  it('estimates the usage, and says so, when the stream has no usage chunk', async () => {
    const { fake } = fakeEndpoint({ usage: false });
    const rec = recorder();
    const f = createRecordingFetch(fake, rec.sink);
    const res = await f('https://llm.example/v1/chat/completions', { method: 'POST', body: '{"stream":true}' });
    expect(await res.text()).toContain('Hello ');
    await rec.done;
    const usage = rec.log[0]?.outcome?.usage;
    expect(usage).toMatchObject({ estimated: true, prompt_tokens: 4 });
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    expect(rec.log[0]?.body).toBe('{"stream":true}');
  });

  it('records JSON usage, error statuses without usage, and network failures', async () => {
    const rec = recorder();
    const replies = [
      new Response(JSON.stringify({ data: [], usage: { prompt_tokens: 7, total_tokens: 7 } }), { status: 200, headers: { 'content-type': 'application/json' } }),
      new Response('{"error":{"message":"slow down"}}', { status: 429 }),
    ];
    let n = 0;
    const f = createRecordingFetch(async () => {
      const r = replies[n++];
      if (!r) throw new TypeError('fetch failed');
      return r;
    }, rec.sink);
    const bytes = new TextEncoder().encode('{"input":["a"]}');
    await (await f(new URL('https://llm.example/v1/embeddings'), { method: 'post', body: bytes })).json();
    await rec.done;
    await f('https://llm.example/v1/chat/completions', { method: 'POST', body: '{}' });
    await expect(f('https://llm.example/v1/chat/completions', { method: 'POST', body: '{"x":1}' })).rejects.toThrow('fetch failed');
    expect(rec.log.map((e) => [e.method, e.body, e.outcome])).toEqual([
      ['POST', '{"input":["a"]}', { status: 200, usage: { prompt_tokens: 7, completion_tokens: null, total_tokens: 7 } }],
      ['POST', '{}', { status: 429, usage: null }],
      ['POST', '{"x":1}', { status: null, usage: null, error: 'fetch failed' }],
    ]);
  });

  it('records a GET without a body and reads a Request body from a clone', async () => {
    const rec = recorder();
    let received = '';
    const f = createRecordingFetch(async (input) => {
      if (input instanceof Request) received = await input.text();
      return new Response('{}', { status: 200 });
    }, rec.sink);
    await f('https://llm.example/v1/models');
    await f(new Request('https://llm.example/v1/chat/completions', { method: 'POST', body: '{"q":"é"}' }));
    expect(received).toBe('{"q":"é"}');
    expect(rec.log.map((e) => [e.method, e.url, e.body])).toEqual([
      ['GET', 'https://llm.example/v1/models', ''],
      ['POST', 'https://llm.example/v1/chat/completions', '{"q":"é"}'],
    ]);
  });
});

describe('usageFromBody', () => {
  it('takes the last usage of an event stream and ignores what is not JSON', () => {
    const text = ': keep-alive\n\ndata: {"choices":[]}\n\ndata: not json\n\ndata: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}}\n\ndata: [DONE]\n\n';
    expect(usageFromBody(text, 'text/event-stream')).toEqual({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    expect(usageFromBody('data: {"choices":[]}\n\n', '')).toBeNull();
    expect(usageFromBody('{"usage":null}', 'application/json')).toBeNull();
    expect(usageFromBody('<html>', 'text/html')).toBeNull();
  });
});

describe('receivedText', () => {
  it('lists reasoning received in each of the three shapes, apart from the answer', () => {
    const sse = (deltas: object[]) => deltas.map((d) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: d }] })}\n\n`).join('') + 'data: [DONE]\n\n';
    expect(receivedText(sse([{ reasoning_content: 'a' }, { content: 'X' }]), 'text/event-stream')).toEqual({ content: 'X', reasoning: 'a' });
    expect(receivedText(sse([{ reasoning: 'b' }, { content: 'Y' }]), 'text/event-stream')).toEqual({ content: 'Y', reasoning: 'b' });
    expect(receivedText(sse([{ content: '<think>c</think>' }, { content: 'Z' }]), 'text/event-stream')).toEqual({ content: 'Z', reasoning: 'c' });
    expect(receivedText(JSON.stringify({ choices: [{ message: { content: '<think>d</think>W' } }] }), 'application/json')).toEqual({ content: 'W', reasoning: 'd' });
  });
});
