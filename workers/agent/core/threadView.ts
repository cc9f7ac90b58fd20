/**
 * Stored conversation → what the conversation view shows (`ThreadMessage`), so a thread loaded
 * from checkpoints after a reload renders like it did live. System prompts and the guard's
 * injected instructions stay internal.
 */
import type { BaseMessage } from '@langchain/core/messages';
import type { ThreadMessage } from '../../../protocol/agent/threadView';
import { messageImages } from './humanMessage';

/** Messages the guard injects for the model only carry this in `additional_kwargs`. */
export const INTERNAL_FLAG = 'dataseer_internal';

export function toThreadMessages(messages: readonly BaseMessage[]): ThreadMessage[] {
  const out: ThreadMessage[] = [];
  for (const m of messages) {
    if (m.additional_kwargs?.[INTERNAL_FLAG] === true) continue;
    const type = m.getType();
    if (type === 'human') {
      const images = messageImages(m);
      out.push({ role: 'user', content: m.text, ...(images.length ? { images } : {}), ...(typeof m.id === 'string' ? { id: m.id } : {}) });
    }
    else if (type === 'ai') {
      const ai = m as BaseMessage & { tool_calls?: { id?: string; name: string; args: Record<string, unknown> }[] };
      const msg: ThreadMessage = { role: 'assistant', content: m.text };
      const reasoning = m.additional_kwargs?.reasoning_content;
      if (typeof reasoning === 'string' && reasoning.trim()) msg.reasoning = reasoning;
      if (ai.tool_calls && ai.tool_calls.length > 0) {
        msg.tool_calls = ai.tool_calls.map((c, i) => ({ id: c.id ?? `call_${i}`, name: c.name, args: c.args }));
      }
      if (msg.content !== '' || msg.tool_calls || msg.reasoning) out.push(msg);
    } else if (type === 'tool') {
      const t = m as BaseMessage & { tool_call_id?: string };
      const msg: ThreadMessage = { role: 'tool', content: m.text };
      if (t.tool_call_id) msg.tool_call_id = t.tool_call_id;
      if (m.name) msg.tool_name = m.name;
      out.push(msg);
    }
  }
  return out;
}

/** A conversation's title: its first question, on one line, shortened. */
export function threadTitle(messages: readonly BaseMessage[], max = 60): string {
  const first = messages.find((m) => m.getType() === 'human' && m.additional_kwargs?.[INTERNAL_FLAG] !== true);
  const text = (first?.text ?? '').replace(/\s+/g, ' ').trim();
  if (!text) return 'New conversation';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
