/**
 * Gauntlet runs in IndexedDB: each scored item is written as soon as it is scored, so a run
 * stopped, closed or reloaded resumes where it was and loses nothing.
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import { IdbStore } from '../../../shared/idbStore';
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
  #db: IdbStore<GauntletDb> | undefined;
  /** `scrub` takes the user's keys out of a run before it is written. */
  constructor(
    private readonly dbName = 'dataseer-gauntlet',
    private readonly scrub: <T>(value: T) => T = (v) => v,
  ) {}

  #open(): Promise<IDBPDatabase<GauntletDb>> {
    this.#db ??= new IdbStore<GauntletDb>({
      name: this.dbName,
      version: 1,
      upgrade(db) {
        db.createObjectStore('runs', { keyPath: 'id' });
      },
    });
    return this.#db.open();
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
