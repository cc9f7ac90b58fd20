// Test fixture: this store as it was before the conversation database (commit 16eac1c), kept to
// write a profile the way the previous build did, for the migration test. Not used by the app.
/**
 * Every tool call's full outcome, per thread, in IndexedDB beside the checkpoints: the model
 * only ever sees clipped text of an output, but a reopened conversation shows exactly what the
 * live run showed (a 5,000-row table stays a table, a chart stays a chart). Writes are awaited
 * before a thread is read back, so a conversation opened right after its run is complete.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { AgentEvent } from '../../../../../protocol/agent/wire';
import type { StoredToolOutput } from '../../../../../protocol/agent/threadView';

interface Row extends StoredToolOutput {
  key: string;
  thread_id: string;
  call_id: string;
}

interface ToolOutputDb extends DBSchema {
  outputs: { key: string; value: Row; indexes: { thread_id: string } };
}

export const TOOL_OUTPUT_DB = 'dataseer-tool-outputs';

export class ToolOutputStore {
  #db: Promise<IDBPDatabase<ToolOutputDb>> | undefined;
  #pending = new Set<Promise<unknown>>();

  /**
   * `scrub` takes secrets (the key) out of a row before it is written: a hostile endpoint can put
   * the key into a tool call, and its output would then hold it.
   */
  constructor(
    private readonly dbName = TOOL_OUTPUT_DB,
    private readonly scrub: <T>(value: T) => T = (v) => v,
  ) {}

  #open(): Promise<IDBPDatabase<ToolOutputDb>> {
    // Deferred so a missing IndexedDB (tests, odd browsers) is a rejected promise, never a throw.
    this.#db ??= Promise.resolve().then(() =>
      openDB<ToolOutputDb>(this.dbName, 1, {
        upgrade(db) {
          db.createObjectStore('outputs', { keyPath: 'key' }).createIndex('thread_id', 'thread_id');
        },
      }),
    );
    return this.#db;
  }

  /** Stores a `tool_end` or `tool_error` of `threadId`; other events are ignored. */
  record(threadId: string, event: AgentEvent): void {
    let row: Row;
    const base = { thread_id: threadId, key: '', call_id: '' };
    if (event.type === 'tool_end') row = { ...base, call_id: event.call_id, tool: event.tool, ok: true, output: event.output, elapsed_ms: event.elapsed_ms };
    else if (event.type === 'tool_error') row = { ...base, call_id: event.call_id, tool: event.tool, ok: false, error: event.error };
    else return;
    row.key = `${threadId}\u0000${row.call_id}`;
    row = this.scrub(row);
    // A value IndexedDB cannot clone (it never should happen: events crossed postMessage) is skipped.
    const write = this.#open()
      .then((db) => db.put('outputs', row))
      .catch(() => undefined);
    this.#pending.add(write);
    void write.finally(() => this.#pending.delete(write));
  }

  /** The stored outcomes of a thread's tool calls, by call id. */
  async forThread(threadId: string): Promise<Record<string, StoredToolOutput>> {
    await Promise.all([...this.#pending]);
    const rows = await (await this.#open()).getAllFromIndex('outputs', 'thread_id', threadId);
    const out: Record<string, StoredToolOutput> = {};
    for (const { key: _k, thread_id: _t, call_id, ...rest } of rows) out[call_id] = rest;
    return out;
  }

  async deleteThread(threadId: string): Promise<void> {
    await Promise.all([...this.#pending]);
    const db = await this.#open();
    const tx = db.transaction('outputs', 'readwrite');
    for (const key of await tx.store.index('thread_id').getAllKeys(threadId)) await tx.store.delete(key);
    await tx.done;
  }

  /** Added to the fixture (the old store never closed): lets the test's migration delete it. */
  async close(): Promise<void> {
    if (this.#db) (await this.#db).close();
    this.#db = undefined;
  }
}
