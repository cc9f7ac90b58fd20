/**
 * Edit question and Regenerate: where a thread's history is cut so that one of its questions
 * can be asked again. A run started with new input first saves an `input` checkpoint holding
 * the thread as it was (the question waits in its pending writes), so the question's fork point
 * is the parent of the newest `input` checkpoint that does not contain it yet — the last
 * checkpoint of the turn before. Messages are only appended, so every later checkpoint of the
 * line contains the question.
 */
import { HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { INTERNAL_FLAG } from '../core/threadView';

export interface ForkPoint {
  /** The checkpoint before the question; null when it was the thread's first. */
  checkpointId: string | null;
  /** The stored question being replaced. */
  question: BaseMessage;
  /** Ids of the questions asked before it (they stay). */
  keptQuestionIds: string[];
}

const isQuestion = (m: BaseMessage) => m.getType() === 'human' && m.additional_kwargs?.[INTERNAL_FLAG] !== true;
const messagesOf = (values: Record<string, unknown>) => (values.messages as BaseMessage[] | undefined) ?? [];

/** The fork point for the question stored under `questionId`, or undefined when it is not in the thread. */
export async function findForkPoint(saver: BaseCheckpointSaver, threadId: string, questionId: string): Promise<ForkPoint | undefined> {
  const config = { configurable: { thread_id: threadId, checkpoint_ns: '' } };
  const latest = await saver.getTuple(config);
  if (!latest) return undefined;
  const messages = messagesOf(latest.checkpoint.channel_values);
  const index = messages.findIndex((m) => m.id === questionId && isQuestion(m));
  const question = messages[index];
  if (!question) return undefined;
  const keptQuestionIds = messages
    .slice(0, index)
    .filter((m) => isQuestion(m) && typeof m.id === 'string')
    .map((m) => m.id as string);
  // Newest first: Regenerate (the last question) is found on the first input checkpoint.
  for await (const tuple of saver.list(config, { filter: { source: 'input' } })) {
    if (messagesOf(tuple.checkpoint.channel_values).some((m) => m.id === questionId)) continue;
    const parentId: unknown = tuple.parentConfig?.configurable?.checkpoint_id;
    return { checkpointId: typeof parentId === 'string' ? parentId : null, question, keptQuestionIds };
  }
  return undefined;
}

/**
 * The replacement question: `text` in place of the old text, the old question's images kept
 * (an edit changes the words, not the attachments), stored under `id`.
 */
export function replaceQuestionText(old: BaseMessage, text: string, id: string): HumanMessage {
  const content: unknown = old.content;
  if (!Array.isArray(content)) return new HumanMessage({ content: text, id });
  let replaced = false;
  const parts = (content as unknown[]).flatMap((part): unknown[] => {
    const p = part as { type?: unknown } | null;
    if (p && typeof p === 'object' && p.type === 'text') {
      if (replaced) return [];
      replaced = true;
      return [{ type: 'text', text }];
    }
    return [part];
  });
  if (!replaced) parts.unshift({ type: 'text', text });
  return new HumanMessage({ content: parts as HumanMessage['content'], id });
}

/** What `question_id` may be: short, and safe as an IndexedDB key and a DOM id. */
export function validQuestionId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,100}$/.test(id);
}
