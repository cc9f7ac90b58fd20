import { describe, expect, it } from 'vitest';
import { isOpenAiReasoningModel, refusedParam, shapeRequest } from './params';

describe('model families', () => {
  it('knows which OpenAI models take only default sampling', () => {
    for (const m of ['gpt-5', 'gpt-5-mini', 'gpt-5.1', 'gpt-5-nano-2025-08-07', 'o1', 'o3-mini', 'o4-mini', 'openai/gpt-5-mini']) expect(isOpenAiReasoningModel(m), m).toBe(true);
    for (const m of ['gpt-5-chat-latest', 'gpt-4o', 'gpt-4.1-mini', 'llama3.1', 'deepseek-chat', 'omni-moderation']) expect(isOpenAiReasoningModel(m), m).toBe(false);
  });
});

describe('shapeRequest', () => {
  const body = { model: 'x', temperature: 0, max_tokens: 100, stream_options: { include_usage: true }, messages: [{ role: 'assistant', content: 'a', reasoning_content: 'r' }] };

  it('sends a reasoning model no temperature and max_completion_tokens', () => {
    const { body: b } = shapeRequest(body, 'gpt-5-mini', new Set());
    expect(b).not.toHaveProperty('temperature');
    expect(b).not.toHaveProperty('max_tokens');
    expect(b.max_completion_tokens).toBe(100);
  });

  it('leaves out what the endpoint refused, and never sends reasoning back', () => {
    const { body: b, changed } = shapeRequest(body, 'deepseek-reasoner', new Set(['stream_options', 'response_format']));
    expect(b).not.toHaveProperty('stream_options');
    expect(b.temperature).toBe(0);
    expect(changed).toEqual(['stream_options']);
    expect(b.messages).toEqual([{ role: 'assistant', content: 'a' }]);
  });
});

describe('refusedParam', () => {
  const sent = { temperature: 0, max_tokens: 5, stream_options: {}, response_format: {}, parallel_tool_calls: false, tool_choice: 'auto' };

  it('reads `param` (OpenAI gpt-5: https://github.com/gabrii/Cursor-Azure-GPT-5/issues/33)', () => {
    const text = JSON.stringify({ error: { message: "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.", type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' } });
    expect(refusedParam(400, text, sent)?.param).toBe('temperature');
  });

  it('reads the name from the message when `param` is null (DeepSeek: https://github.com/llm-exe/llm-exe/issues/662)', () => {
    const text = JSON.stringify({ error: { message: 'This response_format type is unavailable now', type: 'invalid_request_error', param: null, code: 'invalid_request_error' } });
    expect(refusedParam(400, text, sent)?.param).toBe('response_format');
    const vllm = JSON.stringify({ object: 'error', message: '[{"type":"extra_forbidden","loc":["body","stream_options"],"msg":"Extra inputs are not permitted"}]', type: 'BadRequestError', code: 400 });
    expect(refusedParam(400, vllm, sent)?.param).toBe('stream_options');
    expect(refusedParam(400, JSON.stringify({ error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead." } }), sent)?.param).toBe('max_tokens');
  });

  it('ignores other failures and parameters that were not sent', () => {
    expect(refusedParam(401, '{"error":{"param":"temperature"}}', sent)).toBeUndefined();
    expect(refusedParam(400, JSON.stringify({ error: { message: 'context length exceeded' } }), sent)).toBeUndefined();
    expect(refusedParam(400, JSON.stringify({ error: { message: "Unsupported parameter: 'top_p'" } }), sent)).toBeUndefined();
  });
});

describe('refusals in other shapes', () => {
  it("reads Gemini's array-wrapped `Unknown name` body", () => {
    const gemini = JSON.stringify([{ error: { code: 400, message: 'Invalid JSON payload received. Unknown name "parallel_tool_calls": Cannot find field.', status: 'INVALID_ARGUMENT' } }]);
    expect(refusedParam(400, gemini, { parallel_tool_calls: false })?.param).toBe('parallel_tool_calls');
  });

  it('leaves a plain tool_choice out once refused, but not a forced call', () => {
    expect(shapeRequest({ tool_choice: 'required' }, 'm', new Set(['tool_choice'])).body).not.toHaveProperty('tool_choice');
    const forced = { tool_choice: { type: 'function', function: { name: 'validation_report' } } };
    expect(shapeRequest(forced, 'm', new Set(['tool_choice'])).body).toHaveProperty('tool_choice');
  });
});

describe('an error inside a 200 JSON body', () => {
  it('gets the status it names', async () => {
    const { createWireFetch } = await import('./wireFetch');
    const inner = (async () => new Response(JSON.stringify({ error: { code: 429, message: 'busy' } }), { status: 200, headers: { 'content-type': 'application/json' } })) as typeof fetch;
    const f = createWireFetch(inner, { model: 'm', memory: { refused: new Set(), remember: () => undefined } });
    const res = await f('https://x.example/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'm', messages: [] }) });
    expect(res.status).toBe(429);
  });
});
