/**
 * Gauntlet runs in IndexedDB: each scored item is written as soon as it is scored, so a run
 * stopped, closed or reloaded resumes where it was and loses nothing.
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import { workspaceView } from '../../../shared/db/workspaceDb';
import type { GauntletRun } from './types';

interface GauntletDb extends DBSchema {
  gauntlet_runs: { key: string; value: GauntletRun };
}

export interface GauntletStore {
  list(): Promise<GauntletRun[]>;
  put(run: GauntletRun): Promise<void>;
  remove(id: string): Promise<void>;
}

export class IdbGauntletStore implements GauntletStore {
  /** `scrub` takes the user's keys out of a run before it is written; `dbName` names another workspace instance (tests). */
  constructor(
    private readonly dbName?: string,
    private readonly scrub: <T>(value: T) => T = (v) => v,
  ) {}

  #open(): Promise<IDBPDatabase<GauntletDb>> {
    return workspaceView<GauntletDb>(this.dbName).open();
  }

  async list(): Promise<GauntletRun[]> {
    const runs = await (await this.#open()).getAll('gauntlet_runs');
    return runs.sort((a, b) => a.started.localeCompare(b.started));
  }

  async put(run: GauntletRun): Promise<void> {
    await (await this.#open()).put('gauntlet_runs', this.scrub(run));
  }

  async remove(id: string): Promise<void> {
    await (await this.#open()).delete('gauntlet_runs', id);
  }
}
