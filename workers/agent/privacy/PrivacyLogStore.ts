/**
 * The privacy log on IndexedDB (from the agent worker): per thread, every request sent to the
 * model endpoint. Two stores of the conversation database (conversationDb.ts): `privacy_requests`
 * (the small facts, indexed by thread) and `privacy_bodies` (the text), so pruning a thread reads
 * only the facts. Each thread keeps its newest `maxEntries` requests within `maxBytes` of bodies.
 */
import type { IDBPDatabase } from 'idb';
import type { PrivacyLogEntry } from '../../../protocol/agent/wire';
import type { RequestOutcome, RequestSink, SentRequest } from './recordingFetch';
import { CONVERSATION_DB, conversationDb, deleteConversation, type ConversationPart, type ConversationSchema, type ConversationTx } from '../store/conversationDb';
import type { PrivacyRequestRow } from '../store/conversationRows';

export type { PrivacyBodyRow, PrivacyRequestRow } from '../store/conversationRows';
type RequestRow = PrivacyRequestRow;
export const MAX_ENTRIES_PER_THREAD = 200;
export const MAX_BYTES_PER_THREAD = 16 * 1024 * 1024;

export interface PrivacyLogStoreOptions {
  dbName?: string;
  maxEntries?: number;
  maxBytes?: number;
  /** Removes secrets from what is stored (bodies, error texts, reasoning). */
  scrub?: (text: string) => string;
}

export class PrivacyLogStore implements ConversationPart {
  readonly dbName: string;
  readonly conversationStores = ['privacy_requests', 'privacy_bodies'] as const;
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly #scrub: (text: string) => string;
  /** Writes not yet committed, per thread: reading a log waits for them, so it is complete. */
  #pending = new Map<string, Set<Promise<unknown>>>();

  constructor(options: PrivacyLogStoreOptions = {}) {
    this.dbName = options.dbName ?? CONVERSATION_DB;
    this.maxEntries = options.maxEntries ?? MAX_ENTRIES_PER_THREAD;
    this.maxBytes = options.maxBytes ?? MAX_BYTES_PER_THREAD;
    this.#scrub = options.scrub ?? ((t) => t);
  }

  #open(): Promise<IDBPDatabase<ConversationSchema>> {
    return conversationDb(this.dbName).open();
  }

  #track<T>(threadId: string, work: Promise<T>): Promise<T> {
    let set = this.#pending.get(threadId);
    if (!set) this.#pending.set(threadId, (set = new Set()));
    const s = set;
    const p = work.finally(() => {
      s.delete(p);
      if (s.size === 0 && this.#pending.get(threadId) === s) this.#pending.delete(threadId);
    });
    s.add(p);
    return p;
  }

  async #add(threadId: string, req: SentRequest): Promise<number> {
    const db = await this.#open();
    const tx = db.transaction(['privacy_requests', 'privacy_bodies'], 'readwrite');
    const row: RequestRow = { thread_id: threadId, at: req.at, url: this.#scrub(req.url), method: req.method, status: null, usage: null, bytes: req.body.length * 2 };
    const id = await tx.objectStore('privacy_requests').add(row);
    await tx.objectStore('privacy_bodies').put({ id, body: this.#scrub(req.body) });
    await tx.done;
    return id;
  }

  async #complete(threadId: string, id: number, outcome: RequestOutcome): Promise<void> {
    const db = await this.#open();
    const tx = db.transaction('privacy_requests', 'readwrite');
    const row = await tx.store.get(id);
    if (row) {
      const next: RequestRow = { ...row, status: outcome.status, usage: outcome.usage };
      if (outcome.error) next.error = this.#scrub(outcome.error);
      else delete next.error;
      if (outcome.reasoning) {
        next.reasoning = this.#scrub(outcome.reasoning);
        next.bytes += outcome.reasoning.length * 2;
      }
      await tx.store.put(next);
    }
    await tx.done;
    await this.#prune(threadId);
  }

  /** Drops the oldest requests of a thread beyond the entry and byte bounds. */
  async #prune(threadId: string): Promise<void> {
    const db = await this.#open();
    const rows = await db.getAllFromIndex('privacy_requests', 'thread_id', threadId);
    rows.sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
    let bytes = 0;
    let keep = 0;
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i];
      if (!row) continue;
      // The newest request stays even when it alone is over the byte bound.
      if (keep >= this.maxEntries || (keep > 0 && bytes + row.bytes > this.maxBytes)) break;
      bytes += row.bytes;
      keep++;
    }
    const drop = rows.slice(0, rows.length - keep).flatMap((r) => (r.id === undefined ? [] : [r.id]));
    if (drop.length === 0) return;
    const tx = db.transaction(['privacy_requests', 'privacy_bodies'], 'readwrite');
    await Promise.all([...drop.flatMap((id) => [tx.objectStore('privacy_requests').delete(id), tx.objectStore('privacy_bodies').delete(id)]), tx.done]);
  }

  /** A sink for `createRecordingFetch` that logs under `threadId`. */
  sink(threadId: string): RequestSink {
    return (req) => {
      const id = this.#add(threadId, req);
      let finish: (outcome: RequestOutcome) => void = () => undefined;
      // Tracked from the moment of sending, so a log read right after a run waits for the
      // usage of a stream still being read, not only for writes already started.
      const outcome = new Promise<RequestOutcome>((resolve) => (finish = resolve));
      void this.#track(
        threadId,
        Promise.all([id, outcome]).then(([key, o]) => this.#complete(threadId, key, o)),
      ).catch(() => undefined);
      return (o) => finish(o);
    };
  }

  /**
   * Resolves when every request of the thread sent so far is written with its outcome, or after
   * `timeoutMs` (a request still in flight is then listed without a status).
   */
  async settled(threadId: string, timeoutMs = Infinity): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const set = this.#pending.get(threadId);
      const left = deadline - Date.now();
      if (!set || set.size === 0 || left <= 0) return;
      const all = Promise.allSettled([...set]);
      if (!Number.isFinite(left)) await all;
      else {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([all, new Promise((r) => (timer = setTimeout(r, left)))]);
        clearTimeout(timer);
      }
    }
  }

  /** The thread's requests, oldest first (waiting up to `waitMs` for requests in flight). */
  async list(threadId: string, waitMs = 2000): Promise<PrivacyLogEntry[]> {
    await this.settled(threadId, waitMs);
    const db = await this.#open();
    const tx = db.transaction(['privacy_requests', 'privacy_bodies'], 'readonly');
    const rows = await tx.objectStore('privacy_requests').index('thread_id').getAll(threadId);
    rows.sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
    const bodies = await Promise.all(rows.map((r) => (r.id === undefined ? undefined : tx.objectStore('privacy_bodies').get(r.id))));
    await tx.done;
    return rows.map((r, i) => {
      const { bytes: _bytes, ...rest } = r;
      return { ...rest, id: r.id ?? 0, body: bodies[i]?.body ?? '' };
    });
  }

  async settle(threadId: string): Promise<void> {
    await this.settled(threadId, 2000);
  }

  async deleteThread(threadId: string): Promise<void> {
    await deleteConversation(threadId, [this]);
  }

  async deleteThreadIn(tx: ConversationTx, threadId: string): Promise<void> {
    const requests = tx.objectStore('privacy_requests');
    const bodies = tx.objectStore('privacy_bodies');
    const ids = await requests.index('thread_id').getAllKeys(threadId);
    await Promise.all(ids.flatMap((id) => [requests.delete(id), bodies.delete(id)]));
  }

  async close(): Promise<void> {
    await conversationDb(this.dbName).close();
  }
}
