/**
 * Benchmark runs in IndexedDB: each run as soon as an item is scored, the suite it runs (its
 * questions and data files) while the run is unfinished so Resume works after a reload, and the
 * score files the user imported to compare.
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import { workspaceView } from '../../../shared/db/workspaceDb';
import type { ScoreFile } from './scoreFile';
import type { Suite } from './suite';
import type { BenchRun } from './types';

interface BenchDb extends DBSchema {
  bench_runs: { key: string; value: BenchRun };
  /** The suite of an unfinished run, by run id. */
  bench_suites: { key: string; value: { id: string; suite: Suite } };
  /** Imported score files, by an id given at import. */
  bench_scores: { key: string; value: { id: string; score: ScoreFile } };
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
  /** `scrub` takes the user's keys out of a run before it is written; `dbName` names another workspace instance (tests). */
  constructor(
    private readonly dbName?: string,
    private readonly scrub: <T>(value: T) => T = (v) => v,
  ) {}

  #open(): Promise<IDBPDatabase<BenchDb>> {
    return workspaceView<BenchDb>(this.dbName).open();
  }

  async list(): Promise<BenchRun[]> {
    const runs = await (await this.#open()).getAll('bench_runs');
    return runs.sort((a, b) => a.started.localeCompare(b.started));
  }
  async put(run: BenchRun): Promise<void> {
    await (await this.#open()).put('bench_runs', this.scrub(run));
  }
  async remove(id: string): Promise<void> {
    const db = await this.#open();
    await db.delete('bench_runs', id);
    await db.delete('bench_suites', id);
  }
  async putSuite(runId: string, suite: Suite): Promise<void> {
    await (await this.#open()).put('bench_suites', { id: runId, suite });
  }
  async suite(runId: string): Promise<Suite | null> {
    return (await (await this.#open()).get('bench_suites', runId))?.suite ?? null;
  }
  async removeSuite(runId: string): Promise<void> {
    await (await this.#open()).delete('bench_suites', runId);
  }
  async scores(): Promise<{ id: string; score: ScoreFile }[]> {
    return (await this.#open()).getAll('bench_scores');
  }
  async putScore(id: string, score: ScoreFile): Promise<void> {
    await (await this.#open()).put('bench_scores', { id, score });
  }
  async removeScore(id: string): Promise<void> {
    await (await this.#open()).delete('bench_scores', id);
  }
}
