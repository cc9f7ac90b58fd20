/**
 * A LangGraph checkpoint saver on IndexedDB (through `idb`): one thread per conversation, so a
 * conversation survives a reload and can be listed, resumed or deleted. The stores' key layout
 * and rows are in checkpointRows.ts.
 *
 * Every value goes through the saver's `serde` (never JSON.parse), so messages come back as
 * message classes. Serialising is async and an IndexedDB transaction commits as soon as the
 * event loop is idle between its requests, so all `dumpsTyped` / `loadsTyped` calls happen
 * outside transactions: serialise → write in one transaction; read in one transaction →
 * deserialise.
 */
import type { IDBPDatabase } from 'idb';
import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver,
  TASKS,
  WRITES_IDX_MAP,
  compareWritesSortKeys,
  copyCheckpoint,
  getCheckpointId,
  maxChannelVersion,
  writesSortKey,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  type PendingWrite,
  type SerializerProtocol,
} from '@langchain/langgraph-checkpoint';
import { compareVersions, optionalString, prefixRange, requireThreadId, type ChannelRow, type CheckpointKey, type CheckpointRow, type ThreadSummary, type WriteRow } from '../store/checkpointRows';
import { CONVERSATION_DB, conversationDb, deleteConversation, type ConversationPart, type ConversationSchema, type ConversationTx } from '../store/conversationDb';

export interface IdbSaverOptions {
  /** The conversation database's name; one per app (tests use a unique name per instance). */
  dbName?: string;
  serde?: SerializerProtocol;
}

export class IdbSaver extends BaseCheckpointSaver implements ConversationPart {
  readonly dbName: string;
  readonly conversationStores = ['checkpoints', 'blobs', 'channel_values', 'writes'] as const;

  constructor(options: IdbSaverOptions = {}) {
    super(options.serde);
    this.dbName = options.dbName ?? CONVERSATION_DB;
  }

  private db(): Promise<IDBPDatabase<ConversationSchema>> {
    return conversationDb(this.dbName).open();
  }

  /** Closes the connection; the next call reopens it. */
  async close(): Promise<void> {
    await conversationDb(this.dbName).close();
  }

  /** Closes and deletes the whole conversation database (every thread). */
  async destroy(): Promise<void> {
    await conversationDb(this.dbName).destroy();
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId = optionalString(config.configurable?.thread_id);
    if (threadId === undefined) return undefined;
    const ns = optionalString(config.configurable?.checkpoint_ns) ?? '';
    const wantedId = getCheckpointId(config);
    const db = await this.db();
    let row: CheckpointRow | undefined;
    if (wantedId) {
      row = await db.get('checkpoints', [threadId, ns, wantedId]);
    } else {
      const tx = db.transaction('checkpoints', 'readonly');
      const cursor = await tx.store.openCursor(prefixRange([threadId, ns]), 'prev');
      row = cursor?.value;
      await tx.done;
    }
    if (!row) return undefined;
    const tuple = await this.loadTuple(row);
    // A lookup by id echoes the caller's config, as the reference saver does.
    return wantedId ? { ...tuple, config } : tuple;
  }

  async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    const { before, filter } = options;
    let remaining = options.limit;
    const threadId = optionalString(config.configurable?.thread_id);
    const ns = optionalString(config.configurable?.checkpoint_ns);
    const onlyId = optionalString(config.configurable?.checkpoint_id);
    const beforeId = optionalString(before?.configurable?.checkpoint_id);

    const prefix: string[] = [];
    if (threadId !== undefined) {
      prefix.push(threadId);
      if (ns !== undefined) prefix.push(ns);
    }
    const db = await this.db();
    let rows = await db.getAll('checkpoints', prefix.length ? prefixRange(prefix) : undefined);
    if (threadId === undefined && ns !== undefined) rows = rows.filter((r) => r.checkpoint_ns === ns);
    // Newest first within each thread and namespace.
    rows.reverse();

    for (const row of rows) {
      if (remaining !== undefined && remaining <= 0) return;
      if (onlyId && row.checkpoint_id !== onlyId) continue;
      if (beforeId && row.checkpoint_id >= beforeId) continue;
      const metadata = (await this.serde.loadsTyped(row.metadata_type, row.metadata)) as CheckpointMetadata;
      if (filter && !Object.entries(filter).every(([k, v]) => (metadata as Record<string, unknown>)[k] === v)) {
        continue;
      }
      if (remaining !== undefined) remaining -= 1;
      yield await this.loadTuple(row, metadata);
    }
  }

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const threadId = requireThreadId(config, 'put checkpoint');
    const ns = optionalString(config.configurable?.checkpoint_ns) ?? '';
    const parentId = optionalString(config.configurable?.checkpoint_id);
    const { channel_values: values, ...body } = copyCheckpoint(checkpoint);
    const [[cpType, cpData], [mdType, mdData], channelRows] = await Promise.all([
      this.serde.dumpsTyped({ ...body, channel_values: {} }),
      this.serde.dumpsTyped(metadata),
      Promise.all(
        Object.entries(newVersions).map(async ([channel, version]): Promise<ChannelRow> => {
          const base = { thread_id: threadId, checkpoint_ns: ns, channel, version: String(version) };
          if (!Object.prototype.hasOwnProperty.call(values, channel)) return { ...base, type: 'empty', data: '' };
          const [type, data] = await this.serde.dumpsTyped(values[channel]);
          return { ...base, type, data };
        }),
      ),
    ]);
    const key = { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id };
    const db = await this.db();
    const tx = db.transaction(['checkpoints', 'blobs', 'channel_values'], 'readwrite');
    const row: CheckpointRow = {
      ...key,
      ts: checkpoint.ts,
      channel_versions: { ...checkpoint.channel_versions },
      metadata_type: mdType,
      metadata: mdData,
    };
    if (parentId) row.parent_checkpoint_id = parentId;
    await Promise.all([
      tx.objectStore('checkpoints').put(row),
      tx.objectStore('blobs').put({ ...key, type: cpType, data: cpData }),
      ...channelRows.map((r) => tx.objectStore('channel_values').put(r)),
      tx.done,
    ]);
    return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const threadId = requireThreadId(config, 'put writes');
    const ns = optionalString(config.configurable?.checkpoint_ns) ?? '';
    const checkpointId = optionalString(config.configurable?.checkpoint_id);
    if (!checkpointId) {
      throw new Error('Failed to put writes: the RunnableConfig has no "checkpoint_id" in "configurable".');
    }
    const rows: WriteRow[] = await Promise.all(
      writes.map(async ([channel, value], i) => {
        const [type, data] = await this.serde.dumpsTyped(value);
        return {
          thread_id: threadId,
          checkpoint_ns: ns,
          checkpoint_id: checkpointId,
          task_id: taskId,
          idx: WRITES_IDX_MAP[channel] ?? i,
          task_path: taskPath ?? '',
          channel,
          type,
          value: data,
        };
      }),
    );
    const db = await this.db();
    const tx = db.transaction('writes', 'readwrite');
    const ops = rows.map(async (row) => {
      // Regular writes are idempotent per (task, idx): a retried task must not replace what an
      // earlier attempt recorded. Special writes (errors, interrupts; negative idx) overwrite.
      if (row.idx >= 0) {
        const existing = await tx.store.getKey([row.thread_id, row.checkpoint_ns, row.checkpoint_id, row.task_id, row.idx]);
        if (existing !== undefined) return;
      }
      await tx.store.put(row);
    });
    await Promise.all([...ops, tx.done]);
  }

  async deleteThread(threadId: string): Promise<void> {
    await deleteConversation(threadId, [this]);
  }

  async deleteThreadIn(tx: ConversationTx, threadId: string): Promise<void> {
    const range = prefixRange([threadId]);
    await Promise.all(this.conversationStores.map((name) => tx.objectStore(name).delete(range)));
  }

  /**
   * Cuts a thread back to one of its checkpoints (a fork that replaces the abandoned branch):
   * every checkpoint that is neither it nor one of its ancestors goes, with its body and
   * writes, and so does every channel value newer than the versions it references. The next
   * run then continues from it as the thread's newest checkpoint.
   *
   * Why not keep the abandoned branch: channel values are stored per version, and a run from an
   * older checkpoint numbers its versions from there, so it would overwrite the abandoned
   * branch's values and leave that branch corrupt. Nested namespaces are cut by id (ids are
   * time-ordered). Throws when the checkpoint is not in the thread.
   */
  async truncateAfter(threadId: string, checkpointId: string): Promise<void> {
    const db = await this.db();
    const rows = await db.getAll('checkpoints', prefixRange([threadId]));
    const root = new Map(rows.filter((r) => r.checkpoint_ns === '').map((r) => [r.checkpoint_id, r]));
    const target = root.get(checkpointId);
    if (!target) throw new Error(`Checkpoint ${checkpointId} is not in thread ${threadId}.`);
    const keep = new Set<string>();
    for (let row: CheckpointRow | undefined = target; row && !keep.has(row.checkpoint_id); row = row.parent_checkpoint_id ? root.get(row.parent_checkpoint_id) : undefined) {
      keep.add(row.checkpoint_id);
    }
    const doomed = rows.filter((r) => (r.checkpoint_ns === '' ? !keep.has(r.checkpoint_id) : r.checkpoint_id > checkpointId));
    const channelKeys = (await db.getAllKeys('channel_values', prefixRange([threadId, '']))).filter(([, , channel, version]) => {
      const kept = target.channel_versions[channel];
      return kept === undefined || compareVersions(version, String(kept)) > 0;
    });
    if (doomed.length === 0 && channelKeys.length === 0) return;
    const tx = db.transaction(['checkpoints', 'blobs', 'channel_values', 'writes'], 'readwrite');
    await Promise.all([
      ...doomed.flatMap((r) => {
        const key: CheckpointKey = [r.thread_id, r.checkpoint_ns, r.checkpoint_id];
        return [tx.objectStore('checkpoints').delete(key), tx.objectStore('blobs').delete(key), tx.objectStore('writes').delete(prefixRange(key))];
      }),
      ...channelKeys.map((k) => tx.objectStore('channel_values').delete(k)),
      tx.done,
    ]);
  }

  /** Every thread with a checkpoint in the root namespace, most recently updated first. */
  async listThreads(): Promise<ThreadSummary[]> {
    const db = await this.db();
    const rows = await db.getAll('checkpoints');
    const byThread = new Map<string, ThreadSummary>();
    for (const row of rows) {
      if (row.checkpoint_ns !== '') continue;
      const seen = byThread.get(row.thread_id);
      if (!seen) byThread.set(row.thread_id, { threadId: row.thread_id, updatedAt: row.ts, checkpointCount: 1 });
      else {
        seen.checkpointCount += 1;
        if (row.ts > seen.updatedAt) seen.updatedAt = row.ts;
      }
    }
    return [...byThread.values()].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
  }

  /** Reads a checkpoint's body and writes in one transaction, then deserialises outside it. */
  private async loadTuple(row: CheckpointRow, knownMetadata?: CheckpointMetadata): Promise<CheckpointTuple> {
    const { thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id } = row;
    const db = await this.db();
    const tx = db.transaction(['blobs', 'channel_values', 'writes'], 'readonly');
    const channelStore = tx.objectStore('channel_values');
    const [blob, channelRows, writeRows, parentWriteRows] = await Promise.all([
      tx.objectStore('blobs').get([thread_id, checkpoint_ns, checkpoint_id]),
      Promise.all(
        Object.entries(row.channel_versions).map(([channel, version]) =>
          channelStore.get([thread_id, checkpoint_ns, channel, String(version)]),
        ),
      ),
      tx.objectStore('writes').getAll(prefixRange([thread_id, checkpoint_ns, checkpoint_id])),
      parent_checkpoint_id
        ? tx.objectStore('writes').getAll(prefixRange([thread_id, checkpoint_ns, parent_checkpoint_id]))
        : Promise.resolve([] as WriteRow[]),
      tx.done,
    ]);
    if (!blob) throw new Error(`Checkpoint ${checkpoint_id} of thread ${thread_id} has no stored body.`);

    const checkpoint = (await this.serde.loadsTyped(blob.type, blob.data)) as Checkpoint;
    const values: Record<string, unknown> = {};
    await Promise.all(
      channelRows.map(async (c) => {
        if (c && c.type !== 'empty') values[c.channel] = await this.serde.loadsTyped(c.type, c.data);
      }),
    );
    checkpoint.channel_values = values;
    if (checkpoint.v < 4 && parent_checkpoint_id !== undefined) {
      await this.migratePendingSends(checkpoint, parentWriteRows);
    }
    const metadata = knownMetadata ?? ((await this.serde.loadsTyped(row.metadata_type, row.metadata)) as CheckpointMetadata);
    const tuple: CheckpointTuple = {
      config: { configurable: { thread_id, checkpoint_ns, checkpoint_id } },
      checkpoint,
      metadata,
      pendingWrites: await this.orderedWrites(writeRows),
    };
    if (parent_checkpoint_id !== undefined) {
      tuple.parentConfig = { configurable: { thread_id, checkpoint_ns, checkpoint_id: parent_checkpoint_id } };
    }
    return tuple;
  }

  /** Pending writes in the order live execution applies them (see `writesSortKey`). */
  private async orderedWrites(rows: WriteRow[]): Promise<CheckpointPendingWrite[]> {
    const sorted = [...rows].sort((a, b) =>
      compareWritesSortKeys(writesSortKey(a.task_path, a.task_id, a.idx), writesSortKey(b.task_path, b.task_id, b.idx)),
    );
    return Promise.all(
      sorted.map(async (w): Promise<CheckpointPendingWrite> => [w.task_id, w.channel, await this.serde.loadsTyped(w.type, w.value)]),
    );
  }

  /** Checkpoints older than format v4 kept pending sends as the parent's TASKS writes. */
  private async migratePendingSends(checkpoint: Checkpoint, parentWrites: WriteRow[]): Promise<void> {
    const sends = await Promise.all(
      parentWrites
        .filter((w) => w.channel === TASKS)
        .sort((a, b) =>
          compareWritesSortKeys(writesSortKey(a.task_path, a.task_id, a.idx), writesSortKey(b.task_path, b.task_id, b.idx)),
        )
        .map((w) => this.serde.loadsTyped(w.type, w.value)),
    );
    checkpoint.channel_values ??= {};
    checkpoint.channel_values[TASKS] = sends;
    checkpoint.channel_versions ??= {};
    const versions = Object.values(checkpoint.channel_versions);
    checkpoint.channel_versions[TASKS] = versions.length > 0 ? maxChannelVersion(...versions) : this.getNextVersion(undefined);
  }
}
