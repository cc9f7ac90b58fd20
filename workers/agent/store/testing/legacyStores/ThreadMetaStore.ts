// Test fixture: this store as it was before the conversation database (commit 16eac1c), kept to
// write a profile the way the previous build did, for the migration test. Not used by the app.
/**
 * What the app keeps about a conversation beside its checkpoints (IndexedDB, in the agent
 * worker): the user's name for it, the ratings of its answers, and an index — title, mode and
 * searchable text as of its newest checkpoint — so `Conversations` can be listed and searched
 * without deserialising every thread. The index is rebuilt whenever a thread's newest
 * checkpoint time differs from the one it was built for.
 */
import { openDB, deleteDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { AgentMode } from '../../../../../protocol/agent/final';
import type { RunUsage } from '../../../../../protocol/agent/usage';

export type StoredRating = 'up' | 'down';

export interface ThreadMeta {
  thread_id: string;
  /** The user's name (Rename); the first question is the title without it. */
  name?: string;
  /** Ratings by the id of the question answered. */
  ratings: Record<string, StoredRating>;
  /** Tokens spent per question answered (additive, issue 26), by the question's id. */
  usage?: Record<string, RunUsage>;
  /** The index: title from the first question, mode, and the checkpoint time it was built for. */
  title?: string;
  mode?: AgentMode;
  indexed_at?: string;
}

interface MetaDb extends DBSchema {
  threads: { key: string; value: ThreadMeta };
  /** Folded searchable text per thread, apart so listing never reads it. */
  texts: { key: string; value: { thread_id: string; text: string } };
}

export const THREAD_META_DB = 'dataseer-thread-meta';

export class ThreadMetaStore {
  readonly dbName: string;
  #db: Promise<IDBPDatabase<MetaDb>> | undefined;

  constructor(options: { dbName?: string } = {}) {
    this.dbName = options.dbName ?? THREAD_META_DB;
  }

  #open(): Promise<IDBPDatabase<MetaDb>> {
    this.#db ??= openDB<MetaDb>(this.dbName, 1, {
      upgrade(db) {
        db.createObjectStore('threads', { keyPath: 'thread_id' });
        db.createObjectStore('texts', { keyPath: 'thread_id' });
      },
      blocking: () => {
        void this.close();
      },
    });
    return this.#db;
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
    const db = await this.#open();
    const tx = db.transaction(['threads', 'texts'], 'readwrite');
    await Promise.all([tx.objectStore('threads').delete(threadId), tx.objectStore('texts').delete(threadId), tx.done]);
  }

  async close(): Promise<void> {
    const pending = this.#db;
    this.#db = undefined;
    if (pending) (await pending).close();
  }

  async destroy(): Promise<void> {
    await this.close();
    await deleteDB(this.dbName);
  }
}
