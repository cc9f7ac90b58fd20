/**
 * Copying the databases an older build kept into the one database that now holds their stores.
 * Every row keeps its key (an out-of-line key too), so a copy interrupted by a closed tab simply
 * runs again on the next open: nothing is duplicated and nothing is lost, because an old
 * database is deleted only after the mark saying the copy is done has committed.
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import { deleteDatabase, openExisting } from '../idbStore';

/** An older database and where each of its stores goes (`[old store, new store]`). */
export interface OldDatabase {
  name: string;
  stores: readonly (readonly [from: string, to: string])[];
}

/** The store every database with a migration has for facts about itself (`{ key, value }`). */
export const ABOUT_STORE = 'about';

/** Rows copied per transaction: bounds the memory a large profile's copy needs. */
const BATCH = 200;

/**
 * Copies every row of the old databases that exist into `db` (which has an `about` store), marks
 * the copy done under `mark`, then deletes them. Several contexts (the page and two workers) may
 * open the new database at once: where the browser has Web Locks they copy one after the other,
 * and the later ones find the mark and copy nothing, so a row the app writes after the first copy
 * is never overwritten by a second one.
 */
export async function copyOldDatabases<S extends DBSchema | unknown>(db: IDBPDatabase<S>, old: readonly OldDatabase[], mark: string): Promise<void> {
  const locks = (globalThis.navigator as (Navigator & { locks?: LockManager }) | undefined)?.locks;
  const run = () => copyOnce(db as unknown as IDBPDatabase, old, mark);
  if (locks) await locks.request(`${db.name}:${mark}`, run);
  else await run();
}

async function copyOnce(db: IDBPDatabase, old: readonly OldDatabase[], mark: string): Promise<void> {
  const done = (await db.get(ABOUT_STORE, mark)) as { value?: { from?: string[] } } | undefined;
  if (done) {
    // The mark committed but the tab closed before the deletions: finish them.
    await Promise.all((done.value?.from ?? []).map((name) => deleteDatabase(name)));
    return;
  }
  const copied: string[] = [];
  for (const { name, stores } of old) {
    const source = await openExisting(name);
    if (!source) continue;
    try {
      for (const [from, to] of stores) if (source.objectStoreNames.contains(from)) await copyStore(source, from, db, to);
    } finally {
      source.close();
    }
    copied.push(name);
  }
  await db.put(ABOUT_STORE, { key: mark, value: { at: new Date().toISOString(), from: copied } });
  await Promise.all(copied.map((name) => deleteDatabase(name)));
}

async function copyStore(source: IDBPDatabase, from: string, target: IDBPDatabase, to: string): Promise<void> {
  let after: IDBValidKey | undefined;
  for (;;) {
    const range = after === undefined ? undefined : IDBKeyRange.lowerBound(after, true);
    const read = source.transaction(from, 'readonly');
    const [keys, values] = await Promise.all([read.store.getAllKeys(range, BATCH), read.store.getAll(range, BATCH), read.done]);
    if (keys.length === 0) return;
    const write = target.transaction(to, 'readwrite');
    // A store without a key path keeps its keys beside the values (the dataset bytes): give them.
    const inline = write.store.keyPath !== null;
    await Promise.all([...values.map((v, i) => (inline ? write.store.put(v) : write.store.put(v, keys[i]))), write.done]);
    after = keys[keys.length - 1];
    if (keys.length < BATCH) return;
  }
}
