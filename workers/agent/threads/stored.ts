/** A thread as its newest checkpoint holds it: the messages, the answers, the mode and the summary. */
import type { BaseMessage } from '@langchain/core/messages';
import type { FinalOutput } from '../../../protocol/agent/final';
import type { IdbSaver } from '../checkpoint/IdbSaver';
import { INTERNAL_FLAG } from '../core/threadView';

export interface StoredThread {
  messages: BaseMessage[];
  finals: FinalOutput[];
  mode: 'agent' | 'pipeline';
  summary?: string;
}

export async function storedThread(saver: Pick<IdbSaver, 'getTuple'>, threadId: string): Promise<StoredThread | undefined> {
  const tuple = await saver.getTuple({ configurable: { thread_id: threadId } });
  if (!tuple) return undefined;
  const v = tuple.checkpoint.channel_values as Partial<Record<string, unknown>>;
  return {
    messages: (v.messages as BaseMessage[] | undefined) ?? [],
    finals: (v.finals as FinalOutput[] | undefined) ?? [],
    mode: v.mode === 'pipeline' ? 'pipeline' : 'agent',
    summary: typeof v.summary === 'string' ? v.summary : undefined,
  };
}

/** The user's own questions (internal notes to the model are human messages too). */
export function userQuestions(messages: readonly BaseMessage[]): BaseMessage[] {
  return messages.filter((m) => m.getType() === 'human' && m.additional_kwargs?.[INTERNAL_FLAG] !== true);
}
