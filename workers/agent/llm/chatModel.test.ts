/**
 * The real @langchain/openai client against the scripted endpoint (e2e/mock-llm/server.mjs):
 * streaming, tool calls, structured outputs by name, retries, failures. These pin down how the
 * library behaves here, which the agent graph relies on.
 */
import { describe, expect, it } from 'vitest';
import { HumanMessage, type AIMessageChunk } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { RunSqlArgsSchema } from '../../../protocol/agent/tools';
import { ValidationReportSchema } from '../../../protocol/agent/structured';
import { buildHumanMessage } from '../core/humanMessage';
import { useMockEndpoint } from '../testing/mockEndpoint';
import { baseUrlProblem, classifyLlmError, createChatModel, type RetryInfo } from './chatModel';

const mock = useMockEndpoint();
const settings = () => ({ baseUrl: `${mock.url}/v1`, apiKey: 'sk-test-123', model: 'gpt-5-codex' });

const chatBodies = async () => (await mock.chatRequests()).map((r) => r.body as Record<string, unknown>);

const runSql = tool(async () => '', { name: 'run_sql', description: 'Run DuckDB SQL', schema: RunSqlArgsSchema });

describe('ChatOpenAI (Chat Completions) against the mock endpoint', () => {
  it('streams content tokens and uses chat completions even for a codex model name', async () => {
    await mock.script([{ type: 'text', content: 'The mean is 3700.66 g.', chunk_size: 3 }]);
    const model = createChatModel(settings());
    const tokens: string[] = [];
    for await (const chunk of await model.stream([new HumanMessage('mean?')])) tokens.push(chunk.text);
    expect(tokens.join('')).toBe('The mean is 3700.66 g.');
    expect(tokens.filter((t) => t.length > 0).length).toBeGreaterThan(3);
    const reqs = await mock.recorded();
    expect(reqs.map((r) => r.path)).toEqual(['/v1/chat/completions']);
    expect(reqs[0]?.headers.authorization).toBe('Bearer sk-test-123');
    expect(JSON.stringify(reqs[0]?.body)).not.toContain('sk-test-123');
    expect((reqs[0]?.body as { stream: boolean }).stream).toBe(true);
  });

  it('binds the tools and reassembles tool-call arguments split across chunks', async () => {
    await mock.script([{ type: 'tool_calls', calls: [{ id: 'c1', name: 'run_sql', arguments: { sql: 'SELECT avg(body_mass_g) FROM penguins', max_rows: 5 } }] }]);
    const model = createChatModel(settings()).bindTools([runSql]);
    let full: AIMessageChunk | undefined;
    for await (const chunk of await model.stream([new HumanMessage('q')])) full = full ? full.concat(chunk) : chunk;
    expect(full?.tool_calls).toEqual([
      { id: 'c1', name: 'run_sql', args: { sql: 'SELECT avg(body_mass_g) FROM penguins', max_rows: 5 }, type: 'tool_call' },
    ]);
    const [body] = await chatBodies();
    const tools = body?.tools as { function: { name: string; parameters: { required: string[] } } }[];
    expect(tools.map((t) => t.function.name)).toEqual(['run_sql']);
    expect(tools[0]?.function.parameters.required).toEqual(['sql']);
  });

  it('puts malformed tool-call JSON in invalid_tool_calls without throwing', async () => {
    await mock.script([
      { type: 'malformed_tool_call', name: 'run_sql', arguments_text: '{"sql": "SELECT 1' },
      { type: 'malformed_tool_call', name: 'run_sql', arguments_text: '{"sql": SELECT 1}' },
      { type: 'malformed_tool_call', name: 'run_sql', arguments_text: '{"sql": "SELECT 1' },
    ]);
    const model = createChatModel(settings()).bindTools([runSql]);
    // Whole response: anything that is not JSON is invalid.
    const whole = await model.invoke([new HumanMessage('q')]);
    expect(whole.tool_calls ?? []).toEqual([]);
    expect(whole.invalid_tool_calls?.[0]).toMatchObject({ name: 'run_sql', args: '{"sql": "SELECT 1' });
    // Streamed: JSON that cannot be completed is invalid too…
    let full: AIMessageChunk | undefined;
    for await (const chunk of await model.stream([new HumanMessage('q')])) full = full ? full.concat(chunk) : chunk;
    expect(full?.tool_calls ?? []).toEqual([]);
    expect(full?.invalid_tool_calls?.[0]).toMatchObject({ name: 'run_sql', args: '{"sql": SELECT 1}' });
    // …but a merely truncated object is completed by the partial-JSON parser (a silent repair
    // the agent cannot tell from a real call: its tool must validate arguments itself).
    let healed: AIMessageChunk | undefined;
    for await (const chunk of await model.stream([new HumanMessage('q')])) healed = healed ? healed.concat(chunk) : chunk;
    expect(healed?.tool_calls?.[0]).toMatchObject({ name: 'run_sql', args: { sql: 'SELECT 1' } });
  });

  it('answers withStructuredOutput by name (json_schema), also non-streaming', async () => {
    const report = { is_valid: true, issues: [], suggestions: ['report n'], confidence: 0.8 };
    await mock.script([{ type: 'structured', value: report, when: 'validation_report' }]);
    const critic = createChatModel(settings()).withStructuredOutput(ValidationReportSchema, { name: 'validation_report' });
    await expect(critic.invoke([new HumanMessage('check')])).resolves.toEqual(report);
    const [body] = await chatBodies();
    expect((body?.response_format as { json_schema: { name: string } }).json_schema.name).toBe('validation_report');
  });

  it('answers a forced tool (functionCalling method) with that tool', async () => {
    const plan = { summary: 'User asked about penguins; mean mass 3700.66 g.' };
    await mock.script([{ type: 'structured', value: plan, when: 'conversation_summary' }, { type: 'text', content: 'unused' }]);
    const { ConversationSummarySchema } = await import('../../../protocol/agent/structured');
    const summarizer = createChatModel(settings()).withStructuredOutput(ConversationSummarySchema, {
      name: 'conversation_summary',
      method: 'functionCalling',
    });
    await expect(summarizer.invoke([new HumanMessage('summarize')])).resolves.toEqual(plan);
    const [body] = await chatBodies();
    expect((body?.tool_choice as { function: { name: string } }).function.name).toBe('conversation_summary');
  });

  it('retries a 429 after the Retry-After wait, reporting the retry', async () => {
    await mock.script([{ type: 'error', status: 429, retry_after: 1 }, { type: 'text', content: 'ok after wait' }]);
    const retries: RetryInfo[] = [];
    const model = createChatModel(settings(), { maxRetries: 1, onRetry: (r) => retries.push(r) });
    const t0 = Date.now();
    const msg = await model.invoke([new HumanMessage('q')]);
    expect(msg.text).toBe('ok after wait');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 1, status: 429, retryAfterMs: 1000 });
    expect(await chatBodies()).toHaveLength(2);
  });

  it('gives up after maxRetries on repeated 500s and classifies the failure', async () => {
    await mock.script([
      { type: 'error', status: 500 },
      { type: 'error', status: 500 },
      { type: 'text', content: 'never reached' },
    ]);
    const retries: RetryInfo[] = [];
    const model = createChatModel(settings(), { maxRetries: 1, onRetry: (r) => retries.push(r) });
    const err = await model.invoke([new HumanMessage('q')]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(classifyLlmError(err)).toMatchObject({ kind: 'server', status: 500, retryable: true });
    expect(await chatBodies()).toHaveLength(2);
    // one retry happened, and only that one is reported
    expect(retries.map((r) => [r.attempt, r.status])).toEqual([[1, 500]]);
  });

  it('sends images as image_url parts, and a vision refusal says the model does not accept images', async () => {
    await mock.script([{ type: 'error', status: 400, message: 'Invalid content type. image_url is only supported by certain models.' }]);
    const model = createChatModel(settings(), { maxRetries: 2 });
    const question = buildHumanMessage('What is in this picture?', [{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }]);
    const err = await model.invoke([question]).catch((e: unknown) => e);
    const failure = classifyLlmError(err);
    expect(failure).toMatchObject({ kind: 'no_images', status: 400, retryable: false });
    expect(failure.message).toMatch(/^This model does not accept images/);
    const bodies = await chatBodies();
    expect(bodies).toHaveLength(1);
    expect((bodies[0]?.messages as { content: unknown }[])[0]?.content).toEqual([
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
    ]);
  });

  it('classifies a tool refusal as no_tools, not as an image refusal', () => {
    const err = Object.assign(new Error('400 tools are not supported for this model'), { status: 400 });
    expect(classifyLlmError(err).kind).toBe('no_tools');
    const vision = Object.assign(new Error('400 model does not support multimodal input'), { status: 400 });
    expect(classifyLlmError(vision).kind).toBe('no_images');
  });

  it('does not retry a 401 and says the key was refused', async () => {
    await mock.script([{ type: 'text', content: 'x' }], { require_key: 'sk-right' });
    const retries: RetryInfo[] = [];
    const model = createChatModel(settings(), { maxRetries: 2, onRetry: (r) => retries.push(r) });
    const err = await model.invoke([new HumanMessage('q')]).catch((e: unknown) => e);
    const failure = classifyLlmError(err);
    expect(failure.kind).toBe('auth');
    expect(failure.message).toMatch(/key was refused/);
    expect(retries).toEqual([]);
    expect(await chatBodies()).toHaveLength(1);
  });

  it('keeps the partial text of a stream cut mid-way and then throws', async () => {
    await mock.script([{ type: 'cut', content: 'Partial answer that never finishes', after_chunks: 4 }]);
    const model = createChatModel(settings(), { maxRetries: 0 });
    const got: string[] = [];
    const err = await (async () => {
      for await (const chunk of await model.stream([new HumanMessage('q')])) got.push(chunk.text);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    // 4 SSE events kept: the role chunk and three 4-character pieces.
    expect(got.join('')).toBe('Partial answer that never finishes'.slice(0, 12));
    expect(['network', 'unknown']).toContain(classifyLlmError(err).kind);
  });

  it('aborts an in-flight request', async () => {
    await mock.script([{ type: 'text', content: 'slow', delay_ms: 2000 }]);
    const model = createChatModel(settings(), { maxRetries: 0 });
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(), 100);
    const t0 = Date.now();
    const err = await model.invoke([new HumanMessage('q')], { signal: ctrl.signal }).catch((e: unknown) => e);
    expect(Date.now() - t0).toBeLessThan(1500);
    expect(classifyLlmError(err).kind).toBe('aborted');
  });
});

describe('prepareMessages', () => {
  it('rewrites the messages of plain, tool-bound and structured calls alike', async () => {
    const report = { is_valid: true, issues: [], suggestions: [], confidence: 0.5 };
    await mock.script([{ type: 'text', content: 'a' }, { type: 'text', content: 'b' }, { type: 'structured', value: report, when: 'validation_report' }]);
    const model = createChatModel(settings(), { prepareMessages: (ms) => ms.map((m) => new HumanMessage(`prepared: ${m.text}`)) });
    await model.invoke([new HumanMessage('one')]);
    for await (const _ of await model.bindTools([runSql]).stream([new HumanMessage('two')])) void _;
    await model.withStructuredOutput(ValidationReportSchema, { name: 'validation_report' }).invoke([new HumanMessage('three')]);
    const sent = (await chatBodies()).map((b) => (b.messages as { content: string }[])[0]?.content);
    expect(sent).toEqual(['prepared: one', 'prepared: two', 'prepared: three']);
  });
});

describe('inside a LangGraph node', () => {
  it('streams tokens in "messages" mode when the node passes its config, without a tiktoken fetch', async () => {
    await mock.script([{ type: 'text', content: 'Streamed through the graph.', chunk_size: 5 }]);
    const { END, MessagesAnnotation, START, StateGraph } = await import('@langchain/langgraph/web');
    const model = createChatModel(settings());
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('agent', async (state: typeof MessagesAnnotation.State, config) => ({
        messages: [await model.invoke(state.messages, config)],
      }))
      .addEdge(START, 'agent')
      .addEdge('agent', END)
      .compile();
    const tokens: string[] = [];
    for await (const [chunk] of await graph.stream({ messages: [new HumanMessage('q')] }, { streamMode: 'messages' })) {
      if (chunk.text) tokens.push(chunk.text);
    }
    expect(tokens.length).toBeGreaterThan(3);
    expect(tokens.join('')).toBe('Streamed through the graph.');
    const [body] = await chatBodies();
    expect(body?.stream).toBe(true);
  });
});

describe('mock endpoint extras', () => {
  it('lists models, embeds deterministically and can refuse embeddings', async () => {
    const models = (await (await fetch(`${mock.url}/v1/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).toContain('mock-model');
    const embed = async () =>
      fetch(`${mock.url}/v1/embeddings`, { method: 'POST', body: JSON.stringify({ model: 'e', input: ['a b', 'a b', 'zzz'] }) });
    const body = (await (await embed()).json()) as { data: { embedding: number[] }[] };
    expect(body.data[0]?.embedding).toEqual(body.data[1]?.embedding);
    expect(body.data[0]?.embedding).not.toEqual(body.data[2]?.embedding);
    await mock.script([], { embeddings: false });
    expect((await embed()).status).toBe(404);
  });

  it('answers a CORS preflight echoing the requested headers and exposes Retry-After', async () => {
    const res = await fetch(`${mock.url}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:4173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-stainless-os,x-stainless-retry-count',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:4173');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization,content-type,x-stainless-os,x-stainless-retry-count');
    await mock.script([{ type: 'error', status: 429, retry_after: 3 }]);
    const limited = await fetch(`${mock.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { origin: 'http://127.0.0.1:4173' },
      body: JSON.stringify({ model: 'm', messages: [] }),
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(limited.headers.get('access-control-expose-headers')).toMatch(/Retry-After/);
  });

  it('answers 500 when the script is exhausted', async () => {
    const res = await fetch(`${mock.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [] }) });
    expect(res.status).toBe(500);
    expect(await res.text()).toMatch(/no scripted reply/);
  });
});

describe('baseUrlProblem', () => {
  it('accepts the presets and explains common mistakes', () => {
    expect(baseUrlProblem('https://api.openai.com/v1')).toBeUndefined();
    expect(baseUrlProblem('https://api.groq.com/openai/v1/')).toBeUndefined();
    expect(baseUrlProblem('http://localhost:11434/v1')).toBeUndefined();
    expect(baseUrlProblem('https://api.openai.com/v1/chat/completions')).toMatch(/without/);
    expect(baseUrlProblem('http://localhost:11434')).toMatch(/\/v1/);
    expect(baseUrlProblem('not a url')).toMatch(/valid URL/);
  });
});
