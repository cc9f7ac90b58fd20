/**
 * Search in `Conversations`: each thread's title, questions and answers as one folded text
 * (lower case, accents removed), matched by every word of the query. Tool calls and outputs
 * are left out: people look for what was asked and said, not for intermediate rows.
 */
import type { BaseMessage } from '@langchain/core/messages';
import { INTERNAL_FLAG } from '../core/threadView';

/** Characters kept per thread: enough for long conversations, small enough for hundreds. */
export const MAX_SEARCH_TEXT = 32_000;

/** Lower case without diacritics, whitespace runs as one space. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** The searchable text of a stored conversation: its questions and answers, folded. */
export function searchText(messages: readonly BaseMessage[]): string {
  const parts: string[] = [];
  for (const m of messages) {
    if (m.additional_kwargs?.[INTERNAL_FLAG] === true) continue;
    const type = m.getType();
    const calls = (m as BaseMessage & { tool_calls?: unknown[] }).tool_calls;
    if (type === 'human' || (type === 'ai' && !(calls && calls.length > 0))) {
      const text = m.text.trim();
      if (text) parts.push(text);
    }
  }
  return fold(parts.join('\n')).slice(0, MAX_SEARCH_TEXT);
}

/** The query's words, folded; empty when there is nothing to search for. */
export function queryWords(query: string): string[] {
  return fold(query).split(' ').filter(Boolean);
}

/** Whether every word occurs in one of the (already folded) texts. */
export function matchesAll(words: readonly string[], texts: readonly string[]): boolean {
  return words.every((w) => texts.some((t) => t.includes(w)));
}
