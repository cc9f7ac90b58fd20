/**
 * Personas that refuse requests for what their *messages* hold (issue 30), in the servers' own
 * words, so the wire adapter learns the rule from the refusal (workers/agent/llm/wire/messageRules.ts).
 */

/** The text split into pieces of `size` characters. */
function pieces(text, size) {
  const out = [];
  for (let i = 0; i < (text ?? '').length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const roles = (body) => (Array.isArray(body.messages) ? body.messages.map((m) => m?.role) : []);

export const messageRulePersonas = {
  /**
   * vLLM serving Gemma: its chat template has no system role. Body as reported:
   * https://github.com/vllm-project/vllm/pull/2964 (comment of 2024-03-06),
   * https://github.com/huggingface/chat-ui/issues/1386 (Gemma 2).
   */
  'vllm-gemma': {
    doc: 'https://github.com/huggingface/chat-ui/issues/1386',
    refuse(body) {
      if (!roles(body).includes('system')) return undefined;
      return { status: 400, body: { object: 'error', message: 'System role not supported', type: 'BadRequestError', param: null, code: 400 } };
    },
  },

  /**
   * A gateway that refuses the `developer` role @langchain/openai sends for o-series / gpt-5
   * names: https://github.com/CherryHQ/cherry-studio/issues/3045 ("Invalid value: 'developer'.
   * Supported values are: 'system', 'assistant', 'tool' and 'user'.").
   */
  'no-developer-role': {
    doc: 'https://github.com/CherryHQ/cherry-studio/issues/3045',
    refuse(body) {
      if (!roles(body).includes('developer')) return undefined;
      return {
        status: 400,
        body: { error: { message: "Invalid value: 'developer'. Supported values are: 'system', 'assistant', 'tool' and 'user'.", type: 'invalid_request_error', code: 'invalid_param', param: null } },
      };
    },
  },

  /**
   * Moonshot Kimi K2 thinking: the reasoning of each assistant tool-call message must come back.
   * https://github.com/mastra-ai/mastra/issues/12592, https://github.com/cloudwego/eino-ext/issues/700
   * ("thinking is enabled but reasoning_content is missing in assistant tool call message at index 2").
   * Streams its reasoning as `reasoning_content`.
   */
  'kimi-thinking': {
    doc: 'https://github.com/mastra-ai/mastra/issues/12592',
    refuse(body) {
      const messages = Array.isArray(body.messages) ? body.messages : [];
      const at = messages.findIndex((m) => m?.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length && typeof m.reasoning_content !== 'string');
      if (at < 0) return undefined;
      return { status: 400, body: { error: { message: `thinking is enabled but reasoning_content is missing in assistant tool call message at index ${at}`, type: 'invalid_request_error' } } };
    },
    stream: (_events, { out, chunk }) => {
      const events = [chunk({ role: 'assistant', content: '' })];
      for (const p of pieces(out.reasoning ?? 'Thinking it over.', 7)) events.push(chunk({ reasoning_content: p }));
      for (const p of pieces(out.content, 5)) events.push(chunk({ content: p }));
      out.toolCalls.forEach((tc, index) => {
        events.push(chunk({ tool_calls: [{ index, id: tc.id, type: 'function', function: { name: tc.name, arguments: tc.argsText } }] }));
      });
      events.push(chunk({}, out.toolCalls.length ? 'tool_calls' : 'stop'));
      events.push({ done: true });
      return events;
    },
  },

  /**
   * A chat template that wants user/assistant turns strictly alternating (Gemma 3 behind an
   * OpenAI-compatible server): https://github.com/OpenSecretCloud/opensecret/issues/120,
   * https://github.com/simular-ai/Agent-S/issues/70.
   */
  'alternating-roles': {
    doc: 'https://github.com/OpenSecretCloud/opensecret/issues/120',
    refuse(body) {
      const r = roles(body).filter((x) => x === 'user' || x === 'assistant');
      const twice = r.some((x, i) => i > 0 && x === r[i - 1]);
      if (!twice) return undefined;
      const message = 'Conversation roles must alternate user/assistant/user/assistant/...';
      return { status: 400, body: { error: { message, type: 'BadRequestError', param: null, code: 400 } } };
    },
  },
};
