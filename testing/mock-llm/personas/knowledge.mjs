/**
 * Test personas for the workspace's knowledge (issue 24): a model that does what its prompt says.
 *
 * `reads-context`: a scripted reply may carry `if_context: { contains: string | string[], then: Reply }`;
 * when every `contains` text is somewhere in the request's messages (system prompt included),
 * the persona answers with `then` (`text` or `tool_calls`) instead of the reply itself. So one
 * script plays a model that uses a data dictionary or a rule when, and only when, the app put
 * it in the prompt — the gauntlet scores the same script with and without the knowledge.
 * Plain OpenAI Chat Completions otherwise (https://platform.openai.com/docs/api-reference/chat).
 */
import { uniqueId } from '../ids.mjs';

function messagesText(body) {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  return messages
    .map((m) => (typeof m?.content === 'string' ? m.content : Array.isArray(m?.content) ? m.content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join(' ') : ''))
    .join('\n');
}

function materialiseThen(then) {
  if (then.type === 'tool_calls') {
    return {
      content: then.content ?? '',
      toolCalls: (then.calls ?? []).map((c) => ({
        id: c.id ?? uniqueId('call_ctx'),
        name: c.name,
        argsText: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
      })),
    };
  }
  return { content: String(then.content ?? ''), toolCalls: [] };
}

export const knowledgePersonas = {
  'reads-context': {
    doc: 'https://platform.openai.com/docs/api-reference/chat',
    shape(out, { body, reply }) {
      const cond = reply?.if_context;
      if (!cond || typeof cond !== 'object' || !cond.then) return out;
      const wanted = Array.isArray(cond.contains) ? cond.contains : [cond.contains];
      const text = messagesText(body);
      if (!wanted.every((w) => typeof w === 'string' && text.includes(w))) return out;
      return { ...materialiseThen(cond.then), ...(out.reasoning ? { reasoning: out.reasoning } : {}) };
    },
  },
};
