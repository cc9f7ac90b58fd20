import { describe, expect, it } from 'vitest';
import { buildAgentSystemPrompt, buildDatasetsContext, buildExamplesContext, EXAMPLES_HEADING } from '../core/prompts';
import { TEXT_PROTOCOL_HEADING, toTextProtocol } from './textTools';
import { estimateRequestTokens, fitToWindow, SUMMARY_HEADING, windowFromModelEntry, windowRefusal } from './contextWindow';
import { withSummary } from '../graph/summarize';

describe('refusals of an over-long prompt', () => {
  it("reads llama-server's exceed_context_size_error, as 400 and as the older 500 (https://github.com/oobabooga/textgen/issues/7257, https://github.com/ggml-org/llama.cpp/pull/15780)", () => {
    const body = { error: { code: 400, message: 'the request exceeds the available context size. try increasing the context size or enable context shift', type: 'exceed_context_size_error', n_prompt_tokens: 14429, n_ctx: 8192 } };
    expect(windowRefusal(400, JSON.stringify(body))).toEqual({ window: 8192, promptTokens: 14429 });
    expect(windowRefusal(500, JSON.stringify({ error: { ...body.error, code: 500, n_ctx: 256, n_prompt_tokens: 1407 } }))).toEqual({ window: 256, promptTokens: 1407 });
  });

  it("reads OpenAI's and vLLM's maximum context length (https://github.com/chathub-dev/chathub/issues/126, https://github.com/conghaonet/hao_chatgpt/issues/4)", () => {
    const openai = { error: { message: "This model's maximum context length is 4097 tokens. However, your messages resulted in 4294 tokens. Please reduce the length of the messages.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } };
    expect(windowRefusal(400, JSON.stringify(openai))).toEqual({ window: 4097, promptTokens: 4294 });
    const vllm = { object: 'error', message: "This model's maximum context length is 4096 tokens. However, you requested 4268 tokens (4012 in the messages, 256 in the completion). Please reduce the length of the messages or completion.", type: 'BadRequestError', param: null, code: 400 };
    expect(windowRefusal(400, JSON.stringify(vllm))?.window).toBe(4096);
  });

  it('knows a refusal that names no size, and leaves other errors alone', () => {
    expect(windowRefusal(400, JSON.stringify({ error: { message: 'too long', code: 'context_length_exceeded' } }))).toEqual({});
    expect(windowRefusal(400, JSON.stringify({ error: { message: "Unsupported parameter: 'temperature'" } }))).toBeUndefined();
    expect(windowRefusal(401, JSON.stringify({ error: { type: 'exceed_context_size_error', n_ctx: 10 } }))).toBeUndefined();
  });
});

describe('windows stated by /models', () => {
  it('reads OpenRouter, vLLM and LM Studio fields, not the training length', () => {
    expect(windowFromModelEntry({ id: 'x', context_length: 200000, top_provider: { context_length: 128000 } })).toBe(128000);
    expect(windowFromModelEntry({ id: 'meta-llama/Meta-Llama-3.1-8B-Instruct', object: 'model', max_model_len: 8096 })).toBe(8096);
    expect(windowFromModelEntry({ id: 'qwen', loaded_context_length: 4096, max_context_length: 32768 })).toBe(4096);
    expect(windowFromModelEntry({ id: 'gguf', meta: { n_ctx_train: 131072 } })).toBeUndefined();
    expect(windowFromModelEntry(undefined)).toBeUndefined();
  });
});

const datasets = buildDatasetsContext([
  {
    name: 'penguins',
    rowCount: 344,
    columns: [
      { name: 'Species', type: 'VARCHAR', samples: ['Adelie', 'Gentoo', 'Chinstrap'] },
      { name: 'Body Mass (g)', type: 'DOUBLE', samples: [3750, 3800, 3250] },
    ],
  },
]);
const examples = buildExamplesContext([{ id: 'e1', question: 'Mean by group?', tags: ['mean'], approach: 'GROUP BY', code_pattern: 'SELECT avg(x) FROM t GROUP BY g'.repeat(40) }]);
const system = buildAgentSystemPrompt({ systemContext: 'You are Dataseer.', datasets, python: 'Python: none.', examples, iterationBudget: 5 });
const bigRows = JSON.stringify({ rows: Array.from({ length: 1500 }, (_, i) => [i, 'Adelie', 3700 + i]) });

function conversation(): Record<string, unknown> {
  return {
    model: 'm',
    stream: true,
    max_tokens: 2048,
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: 'How many rows?' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'a', type: 'function', function: { name: 'run_sql', arguments: '{"sql":"SELECT * FROM penguins"}' } }] },
      { role: 'tool', tool_call_id: 'a', content: bigRows },
      { role: 'assistant', content: 'There are 344 rows.' },
      { role: 'user', content: 'What is the mean body mass of Adelie penguins?' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'b', type: 'function', function: { name: 'run_sql', arguments: '{"sql":"SELECT avg(1)"}' } }] },
      { role: 'tool', tool_call_id: 'b', content: '{"columns":[{"name":"mean_mass"}],"rows":[[3700.66]]}' },
    ],
  };
}

describe('fitting a request to the window', () => {
  it('sends a request that fits unchanged', () => {
    const body = conversation();
    const out = fitToWindow(body, 1_000_000);
    expect(out.body).toBe(body);
    expect(out.changes).toEqual([]);
  });

  it('fits a long conversation into 4k: shorter outputs first, the current question and its results kept', () => {
    const body = conversation();
    expect(estimateRequestTokens(body)).toBeGreaterThan(4096);
    const { body: fitted, changes } = fitToWindow(body, 4096);
    const messages = fitted.messages as { role: string; content: string }[];
    expect(estimateRequestTokens(fitted) + (fitted.max_tokens as number)).toBeLessThanOrEqual(4096);
    expect(changes).toContain('tool outputs shortened');
    expect(messages.some((m) => m.content === 'What is the mean body mass of Adelie penguins?')).toBe(true);
    expect(messages[messages.length - 1]?.content).toContain('3700.66');
    expect(messages[0]?.content).toContain('penguins');
    // The caller's body is never changed.
    expect((body.messages as { content: string }[])[3]?.content).toBe(bigRows);
  });

  it('in a tiny window drops the examples, the samples and earlier turns, never the question', () => {
    const { body: fitted, changes } = fitToWindow(conversation(), 900);
    const messages = fitted.messages as { role: string; content: string }[];
    expect(changes).toEqual(expect.arrayContaining(['examples and sample values left out', '4 earlier messages left out']));
    expect(messages[0]?.content).not.toContain(EXAMPLES_HEADING);
    expect(messages[0]?.content).toContain('Body Mass (g) DOUBLE');
    expect(messages[0]?.content).not.toContain('3750');
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(estimateRequestTokens(fitted)).toBeLessThanOrEqual(900);
  });

  it('keeps the text tool protocol whole when the system prompt must be clipped', () => {
    const body = toTextProtocol({ ...conversation(), tools: [{ type: 'function', function: { name: 'run_sql', description: 'Runs SQL.', parameters: { type: 'object', properties: { sql: { type: 'string' } } } } }] });
    const { body: fitted, changes } = fitToWindow(body, 700);
    const sys = (fitted.messages as { content: string }[])[0]?.content ?? '';
    expect(changes).toContain('system prompt shortened');
    expect(sys).toContain(`${TEXT_PROTOCOL_HEADING}\n`);
    expect(sys).toContain('- run_sql: Runs SQL.');
  });

  it('keeps the summary of earlier turns whole when the system prompt must be clipped (it stands for turns no longer sent)', () => {
    const base = conversation();
    const messages = base.messages as { role: string; content: string }[];
    const summary = `SUMMARY-KEPT: ${'the user asked which datasets exist and none were loaded; '.repeat(8)}`;
    const system = withSummary(messages[0]?.content ?? '', summary);
    const body = { ...base, messages: [{ role: 'system', content: system }, ...messages.slice(1)] };
    const { body: fitted, changes } = fitToWindow(body, 700);
    const sys = (fitted.messages as { content: string }[])[0]?.content ?? '';
    expect(changes).toContain('system prompt shortened');
    expect(sys).toContain(`${SUMMARY_HEADING}\n${summary}`);
  });
});
