/**
 * The conversation database: everything kept about a conversation in one IndexedDB database —
 * its checkpoints (IdbSaver), its name, ratings and index (ThreadMetaStore), its tool outputs
 * (ToolOutputStore) and its privacy log (PrivacyLogStore) — so deleting a conversation is one
 * transaction over all of them, and a crash can never leave half a conversation behind.
 *
 * Until this database existed each of those had its own; on first open their rows are copied
 * here (see `migrateLegacy`) and the old databases are deleted once the copy committed.
 */
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import { IdbStore, deleteDatabase, openExisting } from '../../../shared/idbStore';
import type { BlobRow, ChannelRow, CheckpointKey, CheckpointRow, ChannelKey, WriteKey, WriteRow } from './checkpointRows';
import type { PrivacyBodyRow, PrivacyRequestRow, ThreadMeta, ToolOutputRow } from './conversationRows';

export interface ConversationSchema extends DBSchema {
  checkpoints: { key: CheckpointKey; value: CheckpointRow };
  blobs: { key: CheckpointKey; value: BlobRow };
  channel_values: { key: ChannelKey; value: ChannelRow };
  writes: { key: WriteKey; value: WriteRow };
  threads: { key: string; value: ThreadMeta };
  /** Folded searchable text per thread, apart so listing never reads it. */
  texts: { key: string; value: { thread_id: string; text: string } };
  tool_outputs: { key: string; value: ToolOutputRow; indexes: { thread_id: string } };
  privacy_requests: { key: number; value: PrivacyRequestRow; indexes: { thread_id: string } };
  privacy_bodies: { key: number; value: PrivacyBodyRow };
  /** Facts about the database itself (when the old databases were copied in). */
  about: { key: string; value: { key: string; value: unknown } };
}

export type ConversationStoreName = StoreNames<ConversationSchema>;
export type ConversationTx = IDBPTransaction<ConversationSchema, ConversationStoreName[], 'readwrite'>;

export const CONVERSATION_DB = 'dataseer-conversations';
const VERSION = 1;
const MIGRATED = 'migrated-from-separate-databases';

/** The databases a profile had before this one, and which of their stores goes where. */
export interface LegacyDatabases {
  checkpoints: string;
  threadMeta: string;
  toolOutputs: string;
  privacyLog: string;
}

export const LEGACY_DATABASES: LegacyDatabases = {
  checkpoints: 'dataseer-checkpoints',
  threadMeta: 'dataseer-thread-meta',
  toolOutputs: 'dataseer-tool-outputs',
  privacyLog: 'dataseer-privacy-log',
};

const LEGACY_STORES: Record<keyof LegacyDatabases, [from: string, to: ConversationStoreName][]> = {
  checkpoints: [
    ['checkpoints', 'checkpoints'],
    ['blobs', 'blobs'],
    ['channel_values', 'channel_values'],
    ['writes', 'writes'],
  ],
  threadMeta: [
    ['threads', 'threads'],
    ['texts', 'texts'],
  ],
  toolOutputs: [['outputs', 'tool_outputs']],
  privacyLog: [
    ['requests', 'privacy_requests'],
    ['bodies', 'privacy_bodies'],
  ],
};

/** Rows copied per transaction: bounds the memory a large profile's copy needs. */
const BATCH = 200;

function upgrade(db: IDBPDatabase<ConversationSchema>): void {
  db.createObjectStore('checkpoints', { keyPath: ['thread_id', 'checkpoint_ns', 'checkpoint_id'] });
  db.createObjectStore('blobs', { keyPath: ['thread_id', 'checkpoint_ns', 'checkpoint_id'] });
  db.createObjectStore('channel_values', { keyPath: ['thread_id', 'checkpoint_ns', 'channel', 'version'] });
  db.createObjectStore('writes', { keyPath: ['thread_id', 'checkpoint_ns', 'checkpoint_id', 'task_id', 'idx'] });
  db.createObjectStore('threads', { keyPath: 'thread_id' });
  db.createObjectStore('texts', { keyPath: 'thread_id' });
  db.createObjectStore('tool_outputs', { keyPath: 'key' }).createIndex('thread_id', 'thread_id');
  db.createObjectStore('privacy_requests', { keyPath: 'id', autoIncrement: true }).createIndex('thread_id', 'thread_id');
  db.createObjectStore('privacy_bodies', { keyPath: 'id' });
  db.createObjectStore('about', { keyPath: 'key' });
}

/**
 * Copies every row of the old databases that exist into `db`, then marks the copy done and
 * deletes them. Rows keep their keys (privacy log ids included), so a copy interrupted by a
 * closed tab simply runs again on the next open: nothing is duplicated and nothing is lost,
 * because the old databases go only after the mark committed.
 */
export async function migrateLegacy(db: IDBPDatabase<ConversationSchema>, legacy: LegacyDatabases): Promise<void> {
  if (await db.get('about', MIGRATED)) return;
  const copied: string[] = [];
  for (const which of Object.keys(LEGACY_STORES) as (keyof LegacyDatabases)[]) {
    const old = await openExisting(legacy[which]);
    if (!old) continue;
    try {
      for (const [from, to] of LEGACY_STORES[which]) {
        if (!old.objectStoreNames.contains(from)) continue;
        let after: IDBValidKey | undefined;
        for (;;) {
          const range = after === undefined ? undefined : IDBKeyRange.lowerBound(after, true);
          const tx = old.transaction(from, 'readonly');
          const [keys, values] = await Promise.all([tx.store.getAllKeys(range, BATCH), tx.store.getAll(range, BATCH), tx.done]);
          if (keys.length === 0) break;
          const write = db.transaction(to, 'readwrite');
          await Promise.all([...values.map((v) => write.store.put(v as never)), write.done]);
          after = keys[keys.length - 1];
          if (keys.length < BATCH) break;
        }
      }
    } finally {
      old.close();
    }
    copied.push(legacy[which]);
  }
  await db.put('about', { key: MIGRATED, value: { at: new Date().toISOString(), from: copied } });
  await Promise.all(copied.map((name) => deleteDatabase(name)));
}

const connections = new Map<string, IdbStore<ConversationSchema>>();

/**
 * The shared connection to a conversation database. The app's own (the default name) takes in
 * the old databases on first open; tests name their own and pass `legacy` to test the copy.
 */
export function conversationDb(name = CONVERSATION_DB, legacy: LegacyDatabases | undefined = name === CONVERSATION_DB ? LEGACY_DATABASES : undefined): IdbStore<ConversationSchema> {
  let store = connections.get(name);
  if (!store) {
    store = new IdbStore<ConversationSchema>({
      name,
      version: VERSION,
      upgrade,
      // A copy that fails (an old database the browser cannot read) must not lock the user out of
      // their conversations: the old databases stay, and the copy is tried again on the next start.
      ready: legacy ? (db) => migrateLegacy(db, legacy).catch((e: unknown) => console.warn('Conversations from the previous version could not be copied yet:', e)) : undefined,
    });
    connections.set(name, store);
  }
  return store;
}

/** One part of a conversation (checkpoints, meta, tool outputs, privacy log). */
export interface ConversationPart {
  readonly dbName: string;
  /** The stores holding this part's rows. */
  readonly conversationStores: readonly ConversationStoreName[];
  /** Waits for this part's writes in flight, so a delete sees them. */
  settle?(threadId: string): Promise<void>;
  /** Deletes the thread's rows within `tx` (which spans `conversationStores`). */
  deleteThreadIn(tx: ConversationTx, threadId: string): Promise<void>;
}

/**
 * Deletes a conversation from every part in one transaction per database: the app keeps all
 * parts in one database, so the conversation goes whole or not at all.
 */
export async function deleteConversation(threadId: string, parts: readonly ConversationPart[]): Promise<void> {
  await Promise.all(parts.map((p) => p.settle?.(threadId)));
  const byDb = new Map<string, ConversationPart[]>();
  for (const p of parts) byDb.set(p.dbName, [...(byDb.get(p.dbName) ?? []), p]);
  for (const [name, group] of byDb) {
    const db = await conversationDb(name).open();
    const stores = [...new Set(group.flatMap((p) => p.conversationStores))];
    const tx = db.transaction(stores, 'readwrite');
    await Promise.all([...group.map((p) => p.deleteThreadIn(tx, threadId)), tx.done]);
  }
}
