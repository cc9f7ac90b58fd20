import { describe, expect, it } from 'vitest';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { createAdaptFetch, profileAdaptMemory, transientAdaptMemory } from './adaptFetch';
import { createChatModel } from './chatModel';
import { MemoryEndpointProfileStore } from './endpointProfile';
import { estimateRequestTokens } from './contextWindow';

type Body = Record<string, unknown> & { messages: { role: string; content: unknown }[] };
const URL_ = 'http://127.0.0.1:1/v1/chat/completions';
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function completion(content: string) {
  return { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
}

/**
 * vLLM without --enable-auto-tool-choice: 400 for tools with "auto" or no tool_choice
 * (https://github.com/langchain4j/langchain4j/issues/3475); a Qwen-style model then writes its call
 * in <tool_call> tags.
 */
function vllmWithoutAutoTools(sent: Body[]): typeof fetch {
  return (async (_input: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as Body;
    sent.push(body);
    if (Array.isArray(body.tools) && (body.tool_choice === undefined || body.tool_choice === 'auto')) {
      return json(400, { object: 'error', message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', type: 'BadRequestError', param: null, code: 400 });
    }
    return json(200, completion('Querying.\n<tool_call>\n{"name": "run_sql", "arguments": {"sql": "SELECT 42"}}\n</tool_call>'));
  }) as typeof fetch;
}

const runSql = tool(async () => '', { name: 'run_sql', description: 'Runs SQL.', schema: z.object({ sql: z.string() }) });

describe('a server without automatic tool calls', () => {
  it('is learned from its refusal, said once, and the call is read from the text', async () => {
    const sent: Body[] = [];
    const notes: string[] = [];
    const memory = transientAdaptMemory();
    const model = createChatModel({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: '', model: 'qwen' }, { fetch: vllmWithoutAutoTools(sent), adapt: memory, onAdapt: (d) => notes.push(d), maxRetries: 0 });
    const withTools = model.bindTools([runSql]);
    const reply = await withTools.invoke([new SystemMessage('You are Dataseer.'), new HumanMessage('What is the answer?')]);
    expect(reply.tool_calls?.map((c) => [c.name, c.args])).toEqual([['run_sql', { sql: 'SELECT 42' }]]);
    expect(sent).toHaveLength(2);
    expect(sent[1]).not.toHaveProperty('tools');
    expect(String(sent[1]?.messages[0]?.content)).toContain('<tool_call>');
    expect(memory.learned.toolMode).toBe('text');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('does not take automatic tool calls');

    // Streamed, and the next request: straight to text, no refusal, nothing said again.
    const chunks = [];
    for await (const c of await withTools.stream([new HumanMessage('Again?')])) chunks.push(c);
    const calls = chunks.flatMap((c) => c.tool_call_chunks ?? []);
    expect(calls.map((c) => c.name)).toContain('run_sql');
    expect(sent).toHaveLength(3);
    expect(sent[2]?.stream).toBe(false);
    expect(notes).toHaveLength(1);
  });

  it('keeps structured calls with a forced tool as they are (the ladder decides those)', async () => {
    const sent: Body[] = [];
    const f = createAdaptFetch(vllmWithoutAutoTools(sent), { memory: transientAdaptMemory() });
    const body = { model: 'm', messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: { name: 'validation_report', parameters: {} } }], tool_choice: { type: 'function', function: { name: 'validation_report' } } };
    const res = await f(URL_, { method: 'POST', body: JSON.stringify(body) });
    expect(res.status).toBe(200);
    expect(sent[0]).toEqual(body);
  });

  it('stores what it learned in the endpoint profile', async () => {
    const store = new MemoryEndpointProfileStore();
    const settings = { baseUrl: 'http://h/v1', model: 'qwen' };
    const memory = profileAdaptMemory(store, settings, undefined);
    const f = createAdaptFetch(vllmWithoutAutoTools([]), { memory });
    await f(URL_, { method: 'POST', body: JSON.stringify({ model: 'qwen', messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: { name: 'run_sql', parameters: {} } }] }) });
    await new Promise((r) => setTimeout(r, 0));
    expect((await store.get(settings.baseUrl, settings.model))?.toolMode).toBe('text');
    expect(profileAdaptMemory(store, { ...settings, contextTokens: 3000 }, { contextWindow: 5000 }).window()).toBe(3000);
  });
});

/**
 * llama-server started with a 2k context: `exceed_context_size_error` with `n_ctx` and
 * `n_prompt_tokens` (https://github.com/oobabooga/textgen/issues/7257); it counts a token per 2.5
 * characters here, more than the app's estimate, so the learned window must allow for that.
 */
function smallLlamaServer(sent: Body[], nCtx = 2048): typeof fetch {
  return (async (_input: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as Body;
    sent.push(body);
    const tokens = Math.ceil(JSON.stringify(body.messages).length / 2.5);
    if (tokens > nCtx) {
      return json(400, { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: tokens, n_ctx: nCtx } });
    }
    return json(200, completion('fine'));
  }) as typeof fetch;
}

describe('a small context window', () => {
  const long = { model: 'm', messages: [{ role: 'system', content: 'S'.repeat(2000) }, { role: 'user', content: 'old question' }, { role: 'assistant', content: 'A'.repeat(6000) }, { role: 'tool', tool_call_id: 'x', content: 'T'.repeat(9000) }, { role: 'user', content: 'the question' }] };

  it('is learned from the refusal; the request is fitted and sent again once', async () => {
    const sent: Body[] = [];
    const notes: string[] = [];
    const memory = transientAdaptMemory();
    const f = createAdaptFetch(smallLlamaServer(sent), { memory, onAdapt: (d) => notes.push(d) });
    const res = await f(URL_, { method: 'POST', body: JSON.stringify(long) });
    expect(res.status).toBe(200);
    expect(sent).toHaveLength(2);
    expect(memory.learned.window).toBeLessThan(2048);
    expect(JSON.stringify(sent[1]?.messages).length / 2.5).toBeLessThanOrEqual(2048);
    expect(sent[1]?.messages[sent[1].messages.length - 1]?.content).toBe('the question');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('context window of 2048 tokens');

    // Later requests are fitted before they are sent.
    await f(URL_, { method: 'POST', body: JSON.stringify(long) });
    expect(sent).toHaveLength(3);
    expect(notes).toHaveLength(1);
  });

  it('gives up after one retry and passes the refusal on', async () => {
    const sent: Body[] = [];
    const f = createAdaptFetch(smallLlamaServer(sent, 10), { memory: transientAdaptMemory() });
    const res = await f(URL_, { method: 'POST', body: JSON.stringify(long) });
    expect(res.status).toBe(400);
    expect(sent).toHaveLength(2);
  });

  it('fits to the window Settings give before anything is refused', async () => {
    const sent: Body[] = [];
    const f = createAdaptFetch(smallLlamaServer(sent), { memory: transientAdaptMemory(1500) });
    await f(URL_, { method: 'POST', body: JSON.stringify(long) });
    expect(sent).toHaveLength(1);
    expect(estimateRequestTokens(sent[0] as Body)).toBeLessThanOrEqual(1500);
  });
});
