/**
 * Personas replaying providers' documented wire behaviour (issue #10). Each cites where the
 * behaviour is documented or was reported by the provider's users. Built from the materialised
 * reply `out` ({ content, toolCalls: [{ id, name, argsText }], reasoning? }).
 */

const err = (status, error) => ({ status, body: { error } });

/** The text split into pieces of `size` characters. */
function pieces(text, size) {
  const out = [];
  for (let i = 0; i < (text ?? '').length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * Standard SSE events for `out`, with reasoning as `field` deltas (or none).
 * @param {{ out: any, chunk: (delta: object, finish?: string | null, extra?: object) => any, body: any }} stream
 * @param {{ reasoningField?: string, size?: number, usage?: boolean }} [options]
 */
function standardEvents({ out, chunk, body }, { reasoningField, size = 5, usage = true } = {}) {
  const events = [chunk({ role: 'assistant', content: '' })];
  if (out.reasoning && reasoningField) for (const p of pieces(out.reasoning, 7)) events.push(chunk({ [reasoningField]: p }));
  for (const p of pieces(out.content, size)) events.push(chunk({ content: p }));
  out.toolCalls.forEach((tc, index) => {
    events.push(chunk({ tool_calls: [{ index, id: tc.id, type: 'function', function: { name: tc.name, arguments: '' } }] }));
    for (const p of pieces(tc.argsText, Math.max(1, Math.ceil(tc.argsText.length / 3)))) events.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
  });
  events.push(chunk({}, out.toolCalls.length ? 'tool_calls' : 'stop'));
  if (usage && body.stream_options?.include_usage) {
    const u = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    events.push({ data: { ...chunk({}).data, choices: [], usage: u } });
  }
  events.push({ done: true });
  return events;
}

export const providerPersonas = {
  /**
   * OpenAI gpt-5 / o-series: only the default temperature, `max_completion_tokens` instead of
   * `max_tokens`. Bodies as reported: https://github.com/gabrii/Cursor-Azure-GPT-5/issues/33,
   * https://github.com/QwenLM/qwen-code/issues/921 (gpt-5-mini); reference:
   * https://platform.openai.com/docs/guides/reasoning
   */
  'openai-reasoning': {
    doc: 'https://platform.openai.com/docs/guides/reasoning',
    refuse(body) {
      if (body.temperature !== undefined && body.temperature !== 1) {
        return err(400, {
          message: `Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`,
          type: 'invalid_request_error',
          param: 'temperature',
          code: 'unsupported_value',
        });
      }
      if (body.max_tokens !== undefined) {
        return err(400, {
          message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          type: 'invalid_request_error',
          param: 'max_tokens',
          code: 'unsupported_parameter',
        });
      }
      return undefined;
    },
  },

  /**
   * A gateway that does not know `stream_options`: "Unknown parameter: 'stream_options'" with
   * `param` set (https://github.com/QuantumNous/new-api/issues/418); such servers send no usage.
   */
  'no-stream-options': {
    doc: 'https://github.com/QuantumNous/new-api/issues/418',
    refuse(body) {
      if (body.stream_options !== undefined) {
        return err(400, { message: "Unknown parameter: 'stream_options'.", type: 'invalid_request_error', param: 'stream_options', code: 'unknown_parameter' });
      }
      return undefined;
    },
    stream: (_events, ctx) => standardEvents(ctx, { usage: false }),
  },

  /**
   * DeepSeek: `response_format` only `text`/`json_object` ("This response_format type is
   * unavailable now", https://github.com/llm-exe/llm-exe/issues/662; reference
   * https://api-docs.deepseek.com/api/create-chat-completion); deepseek-reasoner streams
   * `reasoning_content` and answers 400 when `reasoning_content` is sent back in the input
   * (https://api-docs.deepseek.com/guides/reasoning_model).
   */
  deepseek: {
    doc: 'https://api-docs.deepseek.com/guides/reasoning_model',
    refuse(body) {
      if (body.response_format && body.response_format.type !== 'text' && body.response_format.type !== 'json_object') {
        return err(400, { message: 'This response_format type is unavailable now', type: 'invalid_request_error', param: null, code: 'invalid_request_error' });
      }
      if ((body.messages ?? []).some((m) => m && 'reasoning_content' in m)) {
        return err(400, { message: 'The reasoning_content is an intermediate result for display purposes only and will not be included in the context for inference. Please remove the reasoning_content from your message to reduce network traffic.', type: 'invalid_request_error', param: null, code: 'invalid_request_error' });
      }
      return undefined;
    },
    stream: (_events, ctx) => standardEvents(ctx, { reasoningField: 'reasoning_content' }),
    whole(json, { out }) {
      if (out.reasoning) json.choices[0].message.reasoning_content = out.reasoning;
      return json;
    },
  },

  /**
   * OpenRouter: SSE comment keep-alives (`: OPENROUTER PROCESSING`), reasoning as `reasoning`
   * deltas, and errors after streaming began as a data event with an `error` object
   * (https://openrouter.ai/docs/api-reference/streaming,
   * https://openrouter.ai/docs/api/reference/errors-and-debugging). No usage chunk here, as with
   * routers that do not honour `stream_options`.
   */
  openrouter: {
    doc: 'https://openrouter.ai/docs/api-reference/streaming',
    stream(_events, ctx) {
      const events = standardEvents(ctx, { reasoningField: 'reasoning', usage: false });
      const out = [{ raw: ': OPENROUTER PROCESSING\n\n' }];
      events.forEach((e, i) => {
        out.push(e);
        if (i % 3 === 1) out.push({ raw: ': OPENROUTER PROCESSING\n\n' });
      });
      return out;
    },
  },

  /**
   * OpenRouter's mid-stream failure: HTTP 200, a few chunks, then
   * `{"error":{"code":429,…},"choices":[{"finish_reason":"error"}]}`
   * (https://openrouter.ai/docs/api/reference/errors-and-debugging).
   */
  'openrouter-midstream-error': {
    doc: 'https://openrouter.ai/docs/api/reference/errors-and-debugging',
    stream(events, { chunk }) {
      const head = events.slice(0, 3);
      const fail = { data: { ...chunk({}, 'error').data, error: { code: 429, message: 'Rate limit exceeded: upstream provider is busy', metadata: {} } } };
      return [...head, fail, { done: true }];
    },
  },

  /**
   * Reasoning models (qwen3, deepseek-r1 distills, QwQ) behind Ollama / llama.cpp / vLLM without
   * a reasoning parser: `<think>…</think>` inline at the start of `content`, tags split across
   * chunks, then tool calls (https://github.com/ovh/public-cloud-roadmap/issues/1123,
   * https://github.com/bold84/cot_proxy/issues/3). Ollama sends a tool call whole, in one chunk.
   */
  'inline-think': {
    doc: 'https://github.com/ovh/public-cloud-roadmap/issues/1123',
    stream(_events, { out, chunk, body }) {
      const thought = `<think>\n${out.reasoning ?? 'Let me look at the data. The answer might be 999999.'}\n</think>\n\n`;
      const events = [chunk({ role: 'assistant', content: '' })];
      for (const p of pieces(thought + out.content, 3)) events.push(chunk({ content: p }));
      out.toolCalls.forEach((tc, index) => events.push(chunk({ tool_calls: [{ index, id: tc.id, type: 'function', function: { name: tc.name, arguments: tc.argsText } }] })));
      events.push(chunk({}, out.toolCalls.length ? 'tool_calls' : 'stop'));
      if (body.stream_options?.include_usage) events.push({ data: { ...chunk({}).data, choices: [], usage: { prompt_tokens: 9, completion_tokens: 9, total_tokens: 18 } } });
      events.push({ done: true });
      return events;
    },
    whole(json, { out }) {
      const m = json.choices[0].message;
      if (typeof m.content === 'string' || m.content === null) m.content = `<think>\n${out.reasoning ?? 'thinking about 999999'}\n</think>\n\n${m.content ?? ''}`;
      return json;
    },
  },

  /**
   * Groq: a tool call the model wrote badly is refused with HTTP 400 `tool_use_failed` and the
   * text in `failed_generation`, e.g. `<function=web_search>{…}</function>`
   * (https://github.com/groq/groq-typescript/issues/28, https://github.com/huggingface/smolagents/issues/1119).
   * Every other tool call here fails that way once (per tool call count), the next attempt works.
   */
  'groq-tool-use-failed': {
    doc: 'https://github.com/groq/groq-typescript/issues/28',
    shape(out, { state }) {
      if (!out.toolCalls.length || out.toolCalls[0].name === 'validation_report') return out;
      state.memo.calls = (state.memo.calls ?? 0) + 1;
      if (state.memo.calls % 2 === 1) {
        const tc = out.toolCalls[0];
        // Odd calls fail: the first recognisably, later ones with text that is no call at all.
        out.groqFailure = state.memo.calls === 1 ? `<function=${tc.name}>${tc.argsText}</function>` : 'Tool use failed: JSON does not match the expected schema for tool calls';
        out.refusal = err(400, { message: "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.", type: 'invalid_request_error', code: 'tool_use_failed', failed_generation: out.groqFailure });
      }
      return out;
    },
    stream(events, { out }) {
      if (!out.groqFailure) return events;
      // https://github.com/anomalyco/opencode/issues/1018: the same refusal as an SSE `error` event.
      return [{ raw: `event: error\ndata: ${JSON.stringify({ error: { message: "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.", type: 'invalid_request_error', code: 'tool_use_failed', failed_generation: out.groqFailure, status_code: 400 } })}\n\n` }];
    },
  },

  /**
   * Small local models (llama3.2:3b, phi, gemma through Ollama/LM Studio) often write the call
   * as JSON text instead of a tool call, in or out of a code fence
   * (https://github.com/ollama/ollama/issues/13519: llama3.2:3b writes ```json {"name": …, "parameters": …}```
   * in content).
   */
  'json-in-text': {
    doc: 'https://github.com/ollama/ollama/issues/13519',
    shape(out) {
      if (!out.toolCalls.length) return out;
      const tc = out.toolCalls[0];
      const call = { name: tc.name, parameters: JSON.parse(tc.argsText) };
      return { ...out, content: `\`\`\`json\n${JSON.stringify(call, null, 1)}\n\`\`\``, toolCalls: [] };
    },
  },

  /**
   * Tool-call streaming shapes of compatible servers: the whole call in one chunk, no `index`,
   * an empty `id`, arguments as an object, and `finish_reason: "stop"` with calls
   * (no index: https://github.com/ollama/ollama/issues/7881 and Gemini's endpoint,
   * https://github.com/openai/openai-python/issues/2806; calls with `finish_reason: "stop"`:
   * https://github.com/jundot/omlx/issues/2565).
   */
  'tool-call-quirks': {
    doc: 'https://github.com/ollama/ollama/issues/7881',
    stream(_events, { out, chunk, body }) {
      const events = [chunk({ role: 'assistant', content: null })];
      if (out.content) events.push(chunk({ content: out.content }));
      for (const tc of out.toolCalls) events.push(chunk({ tool_calls: [{ id: '', type: 'function', function: { name: tc.name, arguments: JSON.parse(tc.argsText) } }] }));
      events.push(chunk({}, 'stop'));
      if (body.stream_options?.include_usage) events.push({ data: { ...chunk({}).data, choices: [], usage: { prompt_tokens: 9, completion_tokens: 9, total_tokens: 18 } } });
      events.push({ done: true });
      return events;
    },
  },
};
