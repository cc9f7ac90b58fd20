/**
 * Every tool call's full outcome, per thread, in IndexedDB beside the checkpoints: the model
 * only ever sees clipped text of an output, but a reopened conversation shows exactly what the
 * live run showed (a 5,000-row table stays a table, a chart stays a chart). Writes are awaited
 * before a thread is read back, so a conversation opened right after its run is complete.
 * The `tool_outputs` store of the conversation database (conversationDb.ts).
 */
import type { IDBPDatabase } from 'idb';
import type { AgentEvent } from '../../../protocol/agent/wire';
import type { StoredToolOutput } from '../../../protocol/agent/threadView';
import { CONVERSATION_DB, conversationDb, deleteConversation, type ConversationPart, type ConversationSchema, type ConversationTx } from '../store/conversationDb';
import type { ToolOutputRow } from '../store/conversationRows';

export type { ToolOutputRow } from '../store/conversationRows';

type Row = ToolOutputRow;

export class ToolOutputStore implements ConversationPart {
  readonly conversationStores = ['tool_outputs'] as const;
  #pending = new Set<Promise<unknown>>();

  /**
   * `scrub` takes secrets (the key) out of a row before it is written: a hostile endpoint can put
   * the key into a tool call, and its output would then hold it.
   */
  constructor(
    readonly dbName = CONVERSATION_DB,
    private readonly scrub: <T>(value: T) => T = (v) => v,
  ) {}

  #open(): Promise<IDBPDatabase<ConversationSchema>> {
    return conversationDb(this.dbName).open();
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
      .then((db) => db.put('tool_outputs', row))
      .catch(() => undefined);
    this.#pending.add(write);
    void write.finally(() => this.#pending.delete(write));
  }

  /** The stored outcomes of a thread's tool calls, by call id. */
  async forThread(threadId: string): Promise<Record<string, StoredToolOutput>> {
    await Promise.all([...this.#pending]);
    const rows = await (await this.#open()).getAllFromIndex('tool_outputs', 'thread_id', threadId);
    const out: Record<string, StoredToolOutput> = {};
    for (const { key: _k, thread_id: _t, call_id, ...rest } of rows) out[call_id] = rest;
    return out;
  }

  async settle(): Promise<void> {
    await Promise.all([...this.#pending]);
  }

  async deleteThread(threadId: string): Promise<void> {
    await deleteConversation(threadId, [this]);
  }

  async deleteThreadIn(tx: ConversationTx, threadId: string): Promise<void> {
    const store = tx.objectStore('tool_outputs');
    await Promise.all((await store.index('thread_id').getAllKeys(threadId)).map((key) => store.delete(key)));
  }
}
