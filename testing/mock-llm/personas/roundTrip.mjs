/**
 * Personas for issue #22: fields a provider requires back exactly, errors in the shapes real
 * servers send, and failures after a stream began. Each cites where the behaviour is documented
 * or was reported.
 */

/** The text split into pieces of `size` characters. */
function pieces(text, size) {
  const out = [];
  for (let i = 0; i < (text ?? '').length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const usageChunk = (chunk, body) => (body.stream_options?.include_usage ? [{ data: { ...chunk({}).data, choices: [], usage: { prompt_tokens: 9, completion_tokens: 9, total_tokens: 18 } } }] : []);

/** A deterministic, opaque-looking signature per call. */
const signatureOf = (id) => `CiQB${Buffer.from(`sig:${id}`).toString('base64')}==`;

/** The assistant messages of a request whose tool calls this persona issued. */
function issuedCalls(body, issued) {
  const out = [];
  (body.messages ?? []).forEach((m, position) => {
    if (m?.role !== 'assistant' || !Array.isArray(m.tool_calls)) return;
    m.tool_calls.forEach((tc, i) => {
      if (tc?.id && issued[tc.id]) out.push({ tc, i, position, expected: issued[tc.id] });
    });
  });
  return out;
}

/** JSON with object keys sorted: equal values, whatever order their keys were written in. */
const canonical = (v) => JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x));
/** Deep equality of JSON values. */
const same = (a, b) => canonical(a) === canonical(b);

/** Reasoning as OpenRouter's reasoning_details: text fragments per index, a signature last, one encrypted block. */
function reasoningDetails(out, id) {
  const text = out.reasoning ?? 'Thinking about the data.';
  return [
    { type: 'reasoning.text', text, signature: `EqQB${Buffer.from(`thinking:${id}`).toString('base64')}`, format: 'anthropic-claude-v1', index: 0 },
    { type: 'reasoning.encrypted', data: `gAAAAB${Buffer.from(`redacted:${id}`).toString('base64')}`, format: 'anthropic-claude-v1', index: 1 },
  ];
}

export const roundTripPersonas = {
  /**
   * Gemini 3 through Google's OpenAI-compatible endpoint: each tool call carries
   * `extra_content.google.thought_signature` (only the first of parallel calls), which must come
   * back exactly on that call, else HTTP 400 with a JSON *array* body: "Function call is missing
   * a thought_signature in functionCall parts" (https://ai.google.dev/gemini-api/docs/thought-signatures;
   * body as reported: https://github.com/manthanabc/paws/issues/103). Streamed tool calls come
   * whole, without `index`, and end with `finish_reason: "stop"`
   * (https://github.com/openai/openai-python/issues/2806).
   */
  'gemini-3': {
    doc: 'https://ai.google.dev/gemini-api/docs/thought-signatures',
    refuse(body, { state }) {
      const issued = state.memo.signatures ?? {};
      for (const { tc, i, position, expected } of issuedCalls(body, issued)) {
        const got = tc.extra_content?.google?.thought_signature;
        if (got !== expected) {
          const message = got === undefined
            ? `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${tc.function?.name}\` , position ${position + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`
            : `Corrupted thought signature (call ${i} at position ${position + 1}).`;
          return { status: 400, body: [{ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }] };
        }
      }
      return undefined;
    },
    shape(out, { state }) {
      state.memo.signatures ??= {};
      // Parallel calls: only the first carries a signature.
      out.toolCalls.forEach((tc, i) => {
        if (i === 0) state.memo.signatures[tc.id] = signatureOf(tc.id);
      });
      return out;
    },
    stream(_events, { out, chunk, body, state }) {
      const events = [chunk({ role: 'assistant' })];
      for (const p of pieces(out.content, 6)) events.push(chunk({ content: p }));
      const sigs = state.memo.signatures ?? {};
      const calls = out.toolCalls.map((tc) => ({
        id: tc.id,
        type: 'function',
        function: { name: tc.name, arguments: tc.argsText },
        ...(sigs[tc.id] ? { extra_content: { google: { thought_signature: sigs[tc.id] } } } : {}),
      }));
      if (calls.length) events.push(chunk({ role: 'assistant', tool_calls: calls }, 'stop'));
      else events.push(chunk({}, 'stop'));
      events.push(...usageChunk(chunk, body), { done: true });
      return events;
    },
    whole(json, { out, state }) {
      const sigs = state.memo.signatures ?? {};
      for (const tc of json.choices[0].message.tool_calls ?? []) {
        if (sigs[tc.id]) tc.extra_content = { google: { thought_signature: sigs[tc.id] } };
      }
      if (out.toolCalls.length) json.choices[0].finish_reason = 'stop';
      return json;
    },
  },

  /**
   * OpenRouter with a reasoning model that needs its reasoning back (Anthropic's extended
   * thinking with tools): `reasoning_details` streamed in fragments beside `reasoning`, to be
   * passed back unmodified on the assistant message
   * (https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks); without it
   * the upstream refuses, wrapped in OpenRouter's "Provider returned error" with the words in
   * `metadata.raw` (https://github.com/reVrost/go-openrouter/pull/21).
   */
  'openrouter-reasoning-details': {
    doc: 'https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks',
    refuse(body, { state }) {
      const issued = state.memo.details ?? {};
      for (const [position, m] of (body.messages ?? []).entries()) {
        if (m?.role !== 'assistant') continue;
        const key = (m.tool_calls ?? []).map((tc) => tc.id).sort().join(',') || `text:${typeof m.content === 'string' ? m.content : ''}`;
        const expected = issued[key];
        if (expected && !same(m.reasoning_details, expected)) {
          const raw = JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: `messages.${position}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`tool_use\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.` } });
          return { status: 400, body: { error: { message: 'Provider returned error', code: 400, metadata: { raw, provider_name: 'Anthropic' } }, user_id: 'user_mock' } };
        }
      }
      return undefined;
    },
    stream(_events, { out, chunk, body, state }) {
      const id = `gen-${Object.keys(state.memo.details ?? {}).length}`;
      const details = reasoningDetails(out, id);
      if (out.toolCalls.length || out.content) {
        state.memo.details ??= {};
        const key = out.toolCalls.map((tc) => tc.id).sort().join(',') || `text:${out.content}`;
        state.memo.details[key] = details;
      }
      const [text, encrypted] = details;
      const events = [{ raw: ': OPENROUTER PROCESSING\n\n' }, chunk({ role: 'assistant', content: '' })];
      const frags = pieces(text.text, 9);
      frags.forEach((p) => events.push(chunk({ reasoning: p, reasoning_details: [{ type: 'reasoning.text', text: p, format: text.format, index: 0 }] })));
      events.push(chunk({ reasoning_details: [{ type: 'reasoning.text', text: '', signature: text.signature, format: text.format, index: 0 }] }));
      events.push(chunk({ reasoning_details: [encrypted] }));
      for (const p of pieces(out.content, 5)) events.push(chunk({ content: p }));
      out.toolCalls.forEach((tc, index) => {
        events.push(chunk({ tool_calls: [{ index, id: tc.id, type: 'function', function: { name: tc.name, arguments: '' } }] }));
        for (const p of pieces(tc.argsText, Math.max(1, Math.ceil(tc.argsText.length / 3)))) events.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
      });
      events.push(chunk({}, out.toolCalls.length ? 'tool_calls' : 'stop'), ...usageChunk(chunk, body), { done: true });
      return events;
    },
  },

  /**
   * OpenRouter's error after streaming began, once: HTTP 200, a few chunks, then a data event
   * with an `error` object and `finish_reason: "error"`
   * (https://openrouter.ai/docs/api/reference/errors-and-debugging). The first streamed reply
   * that writes text breaks off this way after a few chunks of it (its reply is spent); later
   * ones go through.
   */
  'openrouter-midstream-once': {
    doc: 'https://openrouter.ai/docs/api/reference/errors-and-debugging',
    stream(events, { chunk, state, out }) {
      if (state.memo.failed || !out.content) return events;
      state.memo.failed = true;
      const fail = { data: { ...chunk({}, 'error').data, error: { code: 502, message: 'Upstream provider disconnected: stream ended unexpectedly', metadata: { provider_name: 'Together' } } } };
      return [...events.slice(0, 4), fail, { done: true }];
    },
  },

  /**
   * LM Studio with no model loaded: HTTP 404 and the words "No models loaded. Please load a model
   * in the developer page or use the `lms load` command" (https://github.com/lmstudio-ai/lms/issues/107),
   * as an `{"error": "…"}` string like its other errors (https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/618).
   */
  'lmstudio-no-model': {
    doc: 'https://github.com/lmstudio-ai/lms/issues/107',
    refuse: () => ({ status: 404, body: { error: 'No models loaded. Please load a model in the developer page or use the `lms load` command.' } }),
  },

  /**
   * A key the provider refuses: every request, the model list included, answers 401 "Incorrect
   * API key provided" (https://platform.openai.com/docs/guides/error-codes).
   */
  'bad-key': {
    doc: 'https://platform.openai.com/docs/guides/error-codes',
    authorised: () => false,
  },
};
