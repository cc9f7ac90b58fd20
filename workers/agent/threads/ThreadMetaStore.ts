/**
 * What the app keeps about a conversation beside its checkpoints (IndexedDB, in the agent
 * worker): the user's name for it, the ratings of its answers, and an index — title, mode and
 * searchable text as of its newest checkpoint — so `Conversations` can be listed and searched
 * without deserialising every thread. The index is rebuilt whenever a thread's newest
 * checkpoint time differs from the one it was built for. Two stores of the conversation database
 * (conversationDb.ts): `threads` and `texts`.
 */
import type { IDBPDatabase } from 'idb';
import type { AgentMode } from '../../../protocol/agent/final';
import { CONVERSATION_DB, conversationDb, deleteConversation, type ConversationPart, type ConversationSchema, type ConversationTx } from '../store/conversationDb';
import type { ThreadMeta } from '../store/conversationRows';

export type { StoredRating, ThreadMeta } from '../store/conversationRows';

export class ThreadMetaStore implements ConversationPart {
  readonly dbName: string;
  readonly conversationStores = ['threads', 'texts'] as const;

  constructor(options: { dbName?: string } = {}) {
    this.dbName = options.dbName ?? CONVERSATION_DB;
  }

  #open(): Promise<IDBPDatabase<ConversationSchema>> {
    return conversationDb(this.dbName).open();
  }

  async all(): Promise<Map<string, ThreadMeta>> {
    const rows = await (await this.#open()).getAll('threads');
    return new Map(rows.map((r) => [r.thread_id, r]));
  }

  async get(threadId: string): Promise<ThreadMeta | undefined> {
    return (await this.#open()).get('threads', threadId);
  }

  /** Reads, changes and writes one thread's row in a single transaction. */
  async update(threadId: string, change: (row: ThreadMeta) => ThreadMeta): Promise<ThreadMeta> {
    const db = await this.#open();
    const tx = db.transaction('threads', 'readwrite');
    const row = change((await tx.store.get(threadId)) ?? { thread_id: threadId, ratings: {} });
    await Promise.all([tx.store.put(row), tx.done]);
    return row;
  }

  /** Stores a rebuilt index (title, mode, time, text), keeping the name and ratings. */
  async putIndex(threadId: string, index: { title: string; mode: AgentMode; indexed_at: string }, text: string): Promise<ThreadMeta> {
    const db = await this.#open();
    const tx = db.transaction(['threads', 'texts'], 'readwrite');
    const threads = tx.objectStore('threads');
    const row: ThreadMeta = { ...((await threads.get(threadId)) ?? { thread_id: threadId, ratings: {} }), ...index };
    await Promise.all([threads.put(row), tx.objectStore('texts').put({ thread_id: threadId, text }), tx.done]);
    return row;
  }

  async texts(): Promise<Map<string, string>> {
    const rows = await (await this.#open()).getAll('texts');
    return new Map(rows.map((r) => [r.thread_id, r.text]));
  }

  async delete(threadId: string): Promise<void> {
    await deleteConversation(threadId, [this]);
  }

  async deleteThreadIn(tx: ConversationTx, threadId: string): Promise<void> {
    await Promise.all(this.conversationStores.map((name) => tx.objectStore(name).delete(threadId)));
  }

  async close(): Promise<void> {
    await conversationDb(this.dbName).close();
  }

  /** Closes and deletes the whole conversation database. */
  async destroy(): Promise<void> {
    await conversationDb(this.dbName).destroy();
  }
}
