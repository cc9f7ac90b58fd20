/**
 * Benchmark runs in IndexedDB: each run as soon as an item is scored, the suite it runs (its
 * questions and data files) while the run is unfinished so Resume works after a reload, and the
 * score files the user imported to compare.
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import { IdbStore } from '../../../shared/idbStore';
import type { ScoreFile } from './scoreFile';
import type { Suite } from './suite';
import type { BenchRun } from './types';

interface BenchDb extends DBSchema {
  runs: { key: string; value: BenchRun };
  /** The suite of an unfinished run, by run id. */
  suites: { key: string; value: { id: string; suite: Suite } };
  /** Imported score files, by an id given at import. */
  scores: { key: string; value: { id: string; score: ScoreFile } };
}

export interface BenchStore {
  list(): Promise<BenchRun[]>;
  put(run: BenchRun): Promise<void>;
  remove(id: string): Promise<void>;
  putSuite(runId: string, suite: Suite): Promise<void>;
  suite(runId: string): Promise<Suite | null>;
  removeSuite(runId: string): Promise<void>;
  scores(): Promise<{ id: string; score: ScoreFile }[]>;
  putScore(id: string, score: ScoreFile): Promise<void>;
  removeScore(id: string): Promise<void>;
}

export class IdbBenchStore implements BenchStore {
  #db: IdbStore<BenchDb> | undefined;
  /** `scrub` takes the user's keys out of a run before it is written. */
  constructor(
    private readonly dbName = 'dataseer-bench',
    private readonly scrub: <T>(value: T) => T = (v) => v,
  ) {}

  #open(): Promise<IDBPDatabase<BenchDb>> {
    this.#db ??= new IdbStore<BenchDb>({
      name: this.dbName,
      version: 1,
      upgrade(db) {
        db.createObjectStore('runs', { keyPath: 'id' });
        db.createObjectStore('suites', { keyPath: 'id' });
        db.createObjectStore('scores', { keyPath: 'id' });
      },
    });
    return this.#db.open();
  }

  async list(): Promise<BenchRun[]> {
    const runs = await (await this.#open()).getAll('runs');
    return runs.sort((a, b) => a.started.localeCompare(b.started));
  }
  async put(run: BenchRun): Promise<void> {
    await (await this.#open()).put('runs', this.scrub(run));
  }
  async remove(id: string): Promise<void> {
    const db = await this.#open();
    await db.delete('runs', id);
    await db.delete('suites', id);
  }
  async putSuite(runId: string, suite: Suite): Promise<void> {
    await (await this.#open()).put('suites', { id: runId, suite });
  }
  async suite(runId: string): Promise<Suite | null> {
    return (await (await this.#open()).get('suites', runId))?.suite ?? null;
  }
  async removeSuite(runId: string): Promise<void> {
    await (await this.#open()).delete('suites', runId);
  }
  async scores(): Promise<{ id: string; score: ScoreFile }[]> {
    return (await this.#open()).getAll('scores');
  }
  async putScore(id: string, score: ScoreFile): Promise<void> {
    await (await this.#open()).put('scores', { id, score });
  }
  async removeScore(id: string): Promise<void> {
    await (await this.#open()).delete('scores', id);
  }
}
