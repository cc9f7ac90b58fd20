/**
 * Gauntlet runs in IndexedDB: each scored item is written as soon as it is scored, so a run
 * stopped, closed or reloaded resumes where it was and loses nothing.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { GauntletRun } from './types';

interface GauntletDb extends DBSchema {
  runs: { key: string; value: GauntletRun };
}

export interface GauntletStore {
  list(): Promise<GauntletRun[]>;
  put(run: GauntletRun): Promise<void>;
  remove(id: string): Promise<void>;
}

export class IdbGauntletStore implements GauntletStore {
  #db: Promise<IDBPDatabase<GauntletDb>> | null = null;
  /** `scrub` takes the user's keys out of a run before it is written. */
  constructor(
    private readonly dbName = 'dataseer-gauntlet',
    private readonly scrub: <T>(value: T) => T = (v) => v,
  ) {}

  #open(): Promise<IDBPDatabase<GauntletDb>> {
    this.#db ??= openDB<GauntletDb>(this.dbName, 1, {
      upgrade(db) {
        db.createObjectStore('runs', { keyPath: 'id' });
      },
    });
    return this.#db;
  }

  async list(): Promise<GauntletRun[]> {
    const runs = await (await this.#open()).getAll('runs');
    return runs.sort((a, b) => a.started.localeCompare(b.started));
  }

  async put(run: GauntletRun): Promise<void> {
    await (await this.#open()).put('runs', this.scrub(run));
  }

  async remove(id: string): Promise<void> {
    await (await this.#open()).delete('runs', id);
  }
}
