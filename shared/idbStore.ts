/**
 * The one way the app opens an IndexedDB database (page and workers alike): a lazily opened,
 * shared connection that gives way when another context upgrades or deletes the database, and
 * reopens on next use. Each concern keeps one database and names its schema and upgrade here.
 */
import { openDB, deleteDB, wrap, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';

export type IdbUpgrade<S extends DBSchema | unknown> = (
  db: IDBPDatabase<S>,
  oldVersion: number,
  tx: IDBPTransaction<S, StoreNames<S>[], 'versionchange'>,
) => void;

export interface IdbStoreOptions<S extends DBSchema | unknown> {
  name: string;
  version: number;
  upgrade: IdbUpgrade<S>;
  /**
   * Work done once per connection before anyone uses it (a migration from older databases);
   * the connection is handed out only after it settles.
   */
  ready?: (db: IDBPDatabase<S>) => Promise<void>;
}

export class IdbStore<S extends DBSchema | unknown> {
  readonly name: string;
  readonly #options: IdbStoreOptions<S>;
  #db: Promise<IDBPDatabase<S>> | undefined;

  constructor(options: IdbStoreOptions<S>) {
    this.name = options.name;
    this.#options = options;
  }

  /** The open connection (opened on first use). */
  open(): Promise<IDBPDatabase<S>> {
    if (this.#db) return this.#db;
    const { name, version, upgrade, ready } = this.#options;
    // Deferred so a missing IndexedDB (tests, odd browsers) is a rejected promise, never a throw.
    const opening = Promise.resolve().then(async () => {
      const db = await openDB<S>(name, version, {
        upgrade: (db, oldVersion, _newVersion, tx) => upgrade(db, oldVersion, tx),
        // Another context upgrading or deleting the database must not be blocked by this one.
        blocking: () => void this.close(),
      });
      try {
        if (ready) await ready(db);
      } catch (e) {
        db.close();
        throw e;
      }
      return db;
    });
    this.#db = opening;
    // A failed open is not remembered: the next call tries again.
    opening.catch(() => {
      if (this.#db === opening) this.#db = undefined;
    });
    return opening;
  }

  /** Closes the connection; the next call reopens it. */
  async close(): Promise<void> {
    const pending = this.#db;
    this.#db = undefined;
    if (pending) (await pending.catch(() => undefined))?.close();
  }

  /** Closes and deletes the whole database. */
  async destroy(): Promise<void> {
    await this.close();
    await deleteDB(this.name);
  }
}

/**
 * Opens a database only if it already exists (at whatever version it has); never creates one.
 * The caller closes it.
 */
export function openExisting(name: string): Promise<IDBPDatabase | undefined> {
  return new Promise((resolve) => {
    let req: IDBOpenDBRequest;
    try {
      req = indexedDB.open(name);
    } catch {
      resolve(undefined);
      return;
    }
    let created = false;
    req.onupgradeneeded = () => {
      // Only a database that did not exist gets an upgrade with no version given: abort it.
      created = true;
      req.transaction?.abort();
    };
    req.onsuccess = () => {
      if (created) {
        req.result.close();
        resolve(undefined);
      } else resolve(wrap(req.result) as unknown as IDBPDatabase);
    };
    req.onerror = (e) => {
      e.preventDefault();
      resolve(undefined);
    };
  });
}

/**
 * Deletes a database. Resolves once it is gone, or as soon as another connection (a tab of an
 * older build) holds it open: the deletion then completes when that connection closes, and the
 * caller does not wait for it.
 */
export function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    deleteDB(name, { blocked: () => resolve() }).then(
      () => resolve(),
      () => resolve(),
    );
  });
}
