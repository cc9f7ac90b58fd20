/**
 * The `Conversations` catalogue: the stored threads as the list shows them (title — the user's
 * name or the first question —, mode, last update), search over titles, questions and answers,
 * names and answer ratings. Titles and searchable text come from the ThreadMetaStore's index,
 * rebuilt only for threads that changed since, so listing hundreds of threads reads no thread
 * bodies; the texts are mirrored in memory for searching as the user types.
 */
import type { BaseMessage } from '@langchain/core/messages';
import { MAX_THREAD_NAME, type AgentThreadSummary } from '../../../protocol/agent/threadView';
import type { AgentMode } from '../../../protocol/agent/final';
import { threadTitle } from '../core/threadView';
import { fold, matchesAll, queryWords, searchText } from './search';
import type { StoredRating, ThreadMetaStore } from './ThreadMetaStore';

export interface CatalogDeps {
  /** Every stored thread and the time of its newest checkpoint. */
  threads(): Promise<{ threadId: string; updatedAt: string }[]>;
  /** A thread's messages and mode at its newest checkpoint. */
  load(threadId: string): Promise<{ messages: BaseMessage[]; mode: AgentMode } | undefined>;
  meta: ThreadMetaStore;
}

/** A name as the user typed it, tidied; or why it cannot be one. */
export function cleanThreadName(title: string): { ok: true; name: string } | { ok: false; message: string } {
  const name = title.replace(/\s+/g, ' ').trim();
  if (!name) return { ok: false, message: 'Enter a name for the conversation.' };
  if (name.length > MAX_THREAD_NAME) return { ok: false, message: `A conversation name can have at most ${MAX_THREAD_NAME} characters.` };
  return { ok: true, name };
}

export function createThreadCatalog(deps: CatalogDeps) {
  let texts: Map<string, string> | undefined;

  async function list(): Promise<AgentThreadSummary[]> {
    const [threads, metas] = await Promise.all([deps.threads(), deps.meta.all()]);
    const out: AgentThreadSummary[] = [];
    for (const t of threads) {
      let m = metas.get(t.threadId);
      if (!m || m.indexed_at !== t.updatedAt || m.title === undefined || m.mode === undefined) {
        const s = await deps.load(t.threadId);
        if (!s) continue;
        const text = searchText(s.messages);
        m = await deps.meta.putIndex(t.threadId, { title: threadTitle(s.messages), mode: s.mode, indexed_at: t.updatedAt }, text);
        texts?.set(t.threadId, text);
      }
      out.push({ thread_id: t.threadId, title: m.name ?? m.title ?? 'New conversation', mode: m.mode ?? 'agent', updated_at: t.updatedAt });
    }
    return out;
  }

  return {
    list,

    async search(query: string): Promise<AgentThreadSummary[]> {
      const all = await list();
      const words = queryWords(query);
      if (words.length === 0) return all;
      texts ??= await deps.meta.texts();
      const known = texts;
      return all.filter((t) => matchesAll(words, [fold(t.title), known.get(t.thread_id) ?? '']));
    },

    /** Names a stored thread; throws with a message the user can act on. */
    async rename(threadId: string, title: string): Promise<void> {
      const clean = cleanThreadName(title);
      if (!clean.ok) throw new Error(clean.message);
      const exists = (await deps.threads()).some((t) => t.threadId === threadId);
      if (!exists) throw new Error('This conversation is no longer stored; it may have been deleted in another tab.');
      await deps.meta.update(threadId, (row) => ({ ...row, name: clean.name }));
    },

    async ratings(threadId: string): Promise<Record<string, StoredRating>> {
      return (await deps.meta.get(threadId))?.ratings ?? {};
    },

    async rate(threadId: string, questionId: string, rating: StoredRating | 'none'): Promise<void> {
      await deps.meta.update(threadId, (row) => {
        const ratings = { ...row.ratings };
        if (rating === 'none') delete ratings[questionId];
        else ratings[questionId] = rating;
        return { ...row, ratings };
      });
    },

    /** After a fork: ratings of the dropped answers go with them. */
    async keepRatings(threadId: string, questionIds: readonly string[]): Promise<void> {
      const keep = new Set(questionIds);
      await deps.meta.update(threadId, (row) => ({ ...row, ratings: Object.fromEntries(Object.entries(row.ratings).filter(([id]) => keep.has(id))) }));
    },

    /** After a conversation's rows went (deleteConversation): drops what this catalog cached of it. */
    forget(threadId: string): void {
      texts?.delete(threadId);
    },
  };
}

export type ThreadCatalog = ReturnType<typeof createThreadCatalog>;
