/**
 * One shared connection per database name in this context (page or worker). A database module
 * declares its schema once; the app opens its own database by the default name (and takes in the
 * older databases there), tests and isolated instances open the same schema under another name.
 */
import type { DBSchema } from 'idb';
import { IdbStore, type IdbUpgrade } from '../idbStore';
import { copyOldDatabases, type OldDatabase } from './idbMigrate';

export interface DatabaseModule<S extends DBSchema | unknown> {
  /** The app's own database. */
  name: string;
  version: number;
  /** Creates every store the database has: the one place its layout is written. */
  upgrade: IdbUpgrade<S>;
  /** Older databases the app's own takes in on first open (never a named instance). */
  old?: readonly OldDatabase[];
  /** The `about` key that records the copy. */
  mark?: string;
}

/** `open(name)` gives the shared connection to the database of that name (the app's by default). */
export function databaseInstances<S extends DBSchema | unknown>(module: DatabaseModule<S>): (name?: string) => IdbStore<S> {
  // By factory too: tests swap `globalThis.indexedDB` for a fresh one and expect a fresh database.
  const byFactory = new WeakMap<IDBFactory, Map<string, IdbStore<S>>>();
  const fallback = new Map<string, IdbStore<S>>();
  return (name = module.name) => {
    const factory = (globalThis as { indexedDB?: IDBFactory }).indexedDB;
    let connections = factory ? byFactory.get(factory) : fallback;
    if (!connections) byFactory.set(factory as IDBFactory, (connections = new Map()));
    let store = connections.get(name);
    if (!store) {
      const { old, mark } = module;
      store = new IdbStore<S>({
        name,
        version: module.version,
        upgrade: module.upgrade,
        // A copy that fails (an old database the browser cannot read) must not lock the user out:
        // the old databases stay, and the copy is tried again on the next start.
        ready:
          name === module.name && old && mark
            ? (db) => copyOldDatabases(db, old, mark).catch((e: unknown) => console.warn(`${name}: data from the previous version could not be copied yet:`, e))
            : undefined,
      });
      connections.set(name, store);
    }
    return store;
  };
}
