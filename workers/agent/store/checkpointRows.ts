/**
 * The checkpoint saver's rows and keys in the conversation database (IdbSaver.ts reads and writes
 * them; conversationDb.ts declares the stores with these types).
 *
 * Layout (four stores of the conversation database, conversationDb.ts, all keyed by compound
 * arrays so a thread or one checkpoint's writes are a single key range):
 * - `checkpoints` [thread_id, checkpoint_ns, checkpoint_id] → parent id, ts, channel versions and
 *   serialised metadata. Kept apart from the bodies so `list` can filter on metadata without
 *   reading every (possibly large) body.
 * - `blobs` [thread_id, checkpoint_ns, checkpoint_id] → the serialised checkpoint, without its
 *   channel values.
 * - `channel_values` [thread_id, checkpoint_ns, channel, version] → one channel's value at one
 *   version. Only channels in `newVersions` are written on `put`, so an unchanged value (a long
 *   message list between two tool steps) is stored once, not once per checkpoint.
 * - `writes` [thread_id, checkpoint_ns, checkpoint_id, task_id, idx] → one pending write.
 */
import type { RunnableConfig } from '@langchain/core/runnables';

export type CheckpointKey = [string, string, string];
export type WriteKey = [string, string, string, string, number];
export type ChannelKey = [string, string, string, string];

export interface CheckpointRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id?: string;
  ts: string;
  /** Plain copy of the checkpoint's channel versions: which `channel_values` rows to read. */
  channel_versions: Record<string, number | string>;
  metadata_type: string;
  metadata: Uint8Array | string;
}

export interface BlobRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  type: string;
  data: Uint8Array | string;
}

export interface ChannelRow {
  thread_id: string;
  checkpoint_ns: string;
  channel: string;
  version: string;
  /** `empty`: the channel was updated to "no value" at this version. */
  type: string;
  data: Uint8Array | string;
}

export interface WriteRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  task_id: string;
  idx: number;
  task_path: string;
  channel: string;
  type: string;
  value: Uint8Array | string;
}

/** A conversation as the checkpoint store sees it. */
export interface ThreadSummary {
  threadId: string;
  /** Timestamp of the newest checkpoint in the root namespace (ISO 8601). */
  updatedAt: string;
  checkpointCount: number;
}

/** An array sorts after every string in IndexedDB key order: the open end of a prefix range. */
const HIGH: string[] = [];

export function requireThreadId(config: RunnableConfig, what: string): string {
  const threadId: unknown = config.configurable?.thread_id;
  if (typeof threadId !== 'string' || threadId === '') {
    throw new Error(
      `Failed to ${what}: the RunnableConfig has no "thread_id" in "configurable" (pass { configurable: { thread_id } }).`,
    );
  }
  return threadId;
}

export function optionalString(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Orders two stored channel versions: numerically when both are numbers (the default), else as text. */
export function compareVersions(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (a !== '' && b !== '' && Number.isFinite(x) && Number.isFinite(y)) return Math.sign(x - y);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Key range over every key that starts with `prefix`. */
export function prefixRange(prefix: (string | number)[]): IDBKeyRange {
  return IDBKeyRange.bound(prefix, [...prefix, HIGH]);
}

