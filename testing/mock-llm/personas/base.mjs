/**
 * Plain behaviours shared by personas, and `openai-compatible`: a server that does exactly what
 * the OpenAI Chat Completions reference describes (https://platform.openai.com/docs/api-reference/chat),
 * with reasoning (when a reply has some) as `reasoning_content` deltas.
 */

/** Puts `out.reasoning` on the stream as deltas of `field`, before the content. */
export function reasoningDeltas(field, size = 8) {
  return (events, { out, chunk }) => {
    if (!out.reasoning) return events;
    const parts = [];
    for (let i = 0; i < out.reasoning.length; i += size) parts.push(chunk({ [field]: out.reasoning.slice(i, i + size) }));
    return [events[0], ...parts, ...events.slice(1)];
  };
}

export const basePersonas = {
  'openai-compatible': {
    doc: 'https://platform.openai.com/docs/api-reference/chat/streaming',
    stream: reasoningDeltas('reasoning_content'),
  },
};
