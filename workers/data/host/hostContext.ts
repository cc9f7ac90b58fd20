/**
 * What every part of the data worker's host shares: the engine and its queue, the storage and
 * the writer claim, the dataset list and the events that announce it. The jobs (loading,
 * persistence, restore, list changes, the peer channel) are functions over this one context.
 */
import type { DataEvent, DatasetInfo, LoadPhase } from '../../../protocol/data';
import { Serial, type Engine } from '../engine/duckdbEngine';
import type { Converter } from '../loaders/types';
import type { DatasetStorage } from './storage';
import { SnapshotWriter } from './saving';

export interface Readers {
  parquet: Converter;
  json: Converter;
  arrow: Converter;
  excel: Converter;
  listExcelSheets(source: Blob): Promise<string[]>;
}

export interface HostDeps {
  boot(): Promise<Engine & { onProgress?(handler: (percentage: number) => void): void }>;
  openStorage(): Promise<DatasetStorage | undefined>;
  readers: Readers;
  /** Whether the browser granted persistent storage (the UI asks; workers cannot). */
  persisted?(): Promise<boolean>;
  /** How long the host must have had no request before it writes a snapshot (default 2 s). */
  snapshotIdleMs?: number;
  /**
   * Whether this tab may write the saved datasets (one tab at a time: data.worker.ts holds a Web
   * Lock). Another tab's host still reads them, but never writes, deletes or sweeps, so two
   * tabs never lose each other's files. Absent: always.
   */
  claimWrites?(whenFreed: () => void): Promise<boolean>;
  /** The memory ceiling the footprint check uses (tests lower it; default: wasm32's 4 GiB). */
  memoryCeilingBytes?: number;
  /**
   * From this size a load answers as soon as its table is made: its copy for the next visit and
   * its load report's checks follow (default 8 MiB; tests lower it).
   */
  answerFirstFromBytes?: number;
  /** Work run once, queued, after the restore, while the engine is otherwise idle (warmUp.ts). */
  warmUp?(engine: Engine): Promise<void>;
}

export type Emit = (event: DataEvent) => void;

export class HostContext {
  readonly deps: HostDeps;
  /** One statement at a time on the engine, in request order. */
  readonly serial = new Serial();
  readonly #listeners = new Set<Emit>();
  readonly datasets = new Map<string, DatasetInfo>();
  /** Views over big files, by name: the registered path each reads (bigFile.ts). */
  readonly views = new Map<string, string>();
  /** This session's loaded CSV, Excel and JSON sources by dataset, for a re-read before (or without) their saved copy. */
  readonly sources = new Map<string, Blob>();
  /** Datasets a console statement dropped, in case a ROLLBACK brings them back. */
  readonly dropped = new Map<string, DatasetInfo>();
  /** Loads the user cancelled (kept until their `load` answers), and the one being ingested now. */
  readonly cancelledLoads = new Set<string>();
  ingesting: string | null = null;
  /** Profiles the user cancelled (kept until their `profile` answers), and the one running now. */
  readonly cancelledProfiles = new Set<string>();
  profiling: string | null = null;
  /** Console queries the user cancelled (kept until they answer), and the one running now (issue 37). */
  readonly cancelledQueries = new Set<string>();
  querying: string | null = null;
  /** Receives DuckDB's execution progress while an ingest runs. */
  progressSink?: (percentage: number) => void;
  /** Names scratch tables and registered files uniquely. */
  seq = 0;
  /** When the last request began (snapshots wait for a quiet moment). */
  lastRequestAt = 0;
  /** Load-report checks running after their load answered (laterChecks.ts). */
  readonly checking = new Set<Promise<void>>();
  /** The restore of the saved datasets, started once by the first request that needs the engine. */
  restored?: Promise<void>;
  readonly snapshots: SnapshotWriter;
  readonly #restore: (engine: Engine) => Promise<void>;
  #engine?: Promise<Engine>;
  #storage?: Promise<DatasetStorage | undefined>;
  #writes?: Promise<boolean>;

  constructor(deps: HostDeps, restore: (ctx: HostContext, engine: Engine) => Promise<void>) {
    this.deps = deps;
    this.#restore = (engine) => restore(this, engine);
    this.snapshots = new SnapshotWriter(this);
  }

  /** Who waits for an id's Cancel while its job is still queued (issue 37). */
  readonly #cancelWaiters = new Map<string, Set<() => void>>();

  /** Wakes whatever waits on `id` (`cancellable`): a queued job's caller answers at once. */
  wakeCancelled(id: string): void {
    for (const wake of this.#cancelWaiters.get(id) ?? []) wake();
    this.#cancelWaiters.delete(id);
  }

  /**
   * (issue 37) Runs `job` in the engine's queue; if `id` is cancelled (in `marks`) before the job
   * starts, answers `whileQueued()` at once instead of after everything queued before it. The job
   * itself still gets its turn, sees the mark and must do nothing; the mark is forgotten only once
   * it has, so it cannot run after all. Cancelled while running, the job answers itself. Run as
   * the page's statement unless `owner` names a peer (Python's `sql()`, which the page cancels
   * by id when it halts the run).
   */
  async cancellable<T>(id: string, marks: Set<string>, job: () => Promise<T>, whileQueued: () => T, options: { keepMark?: boolean; owner?: string } = {}): Promise<T> {
    let started = false;
    const queued = this.serial.run(() => {
      started = true;
      return job();
    }, options.owner);
    // `keepMark`: a later step of the same operation still has to see the cancel.
    if (!options.keepMark) {
      void queued.then(
        () => marks.delete(id),
        () => marks.delete(id),
      );
    }
    if (marks.has(id)) return started ? queued : whileQueued();
    let wake = () => {};
    const woken = new Promise<'cancelled'>((resolve) => (wake = () => resolve('cancelled')));
    const waiters = this.#cancelWaiters.get(id) ?? new Set<() => void>();
    waiters.add(wake);
    this.#cancelWaiters.set(id, waiters);
    try {
      const first = await Promise.race([queued.then((value) => ({ value })), woken]);
      if (first !== 'cancelled') return first.value;
      return started ? await queued : whileQueued();
    } finally {
      waiters.delete(wake);
      if (waiters.size === 0 && this.#cancelWaiters.get(id) === waiters) this.#cancelWaiters.delete(id);
    }
  }

  /**
   * (issue 37) A read named by `queryId` (a preview window, a Python run's `sql()`): the page's
   * `cancel({ queryId })` interrupts it while it runs (`querying`) or drops it while it waits;
   * then it answers null. `owner` as for `serial.run`; `keepMark` as for `cancellable`.
   */
  async readById<T>(queryId: string, read: () => Promise<T>, options: { owner?: string; keepMark?: boolean } = {}): Promise<T | null> {
    const cancelled = () => this.cancelledQueries.has(queryId);
    if (cancelled()) {
      if (!options.keepMark) this.cancelledQueries.delete(queryId);
      return null;
    }
    return this.cancellable<T | null>(
      queryId,
      this.cancelledQueries,
      async () => {
        if (cancelled()) return null;
        this.querying = queryId;
        try {
          return await read();
        } catch (e) {
          // DuckDB's "INTERRUPT Error" of its own Cancel is a cancel, not a failure.
          if (cancelled()) return null;
          throw e;
        } finally {
          this.querying = null;
        }
      },
      () => null,
      options,
    );
  }

  addListener(emit: Emit): void {
    this.#listeners.add(emit);
  }

  removeListener(emit: Emit): void {
    this.#listeners.delete(emit);
  }

  emit(event: DataEvent): void {
    for (const l of this.#listeners) l(event);
  }

  progress(loadId: string, fileName: string, phase: LoadPhase, fraction?: number, detail?: string): void {
    this.emit({ type: 'progress', loadId, fileName, phase, ...(fraction === undefined ? {} : { fraction }), ...(detail === undefined ? {} : { detail }) });
  }

  list(): DatasetInfo[] {
    return [...this.datasets.values()].sort((a, b) => a.loadedAt - b.loadedAt);
  }

  /** Announces one dataset's new entry when the list itself is unchanged (loading.ts). */
  updated(name: string): void {
    const dataset = this.datasets.get(name);
    if (dataset) this.emit({ type: 'dataset', dataset });
  }

  /** Announces the list: the one way a change of it reaches the page (and the peers). */
  changed(): DatasetInfo[] {
    const list = this.list();
    this.emit({ type: 'datasets', datasets: list });
    return list;
  }

  engineReady(): Promise<Engine> {
    this.#engine ??= this.deps.boot().then((engine) => {
      engine.onProgress?.((pct) => this.progressSink?.(pct));
      return engine;
    });
    return this.#engine;
  }

  storageReady(): Promise<DatasetStorage | undefined> {
    this.#storage ??= this.deps.openStorage().catch(() => undefined);
    return this.#storage;
  }

  mayWrite(): Promise<boolean> {
    this.#writes ??= this.deps.claimWrites ? this.deps.claimWrites(() => this.emit({ type: 'storageFreed' })).catch(() => false) : Promise.resolve(true);
    return this.#writes;
  }

  /** The storage, when this tab is the one that writes it. */
  async writable(): Promise<DatasetStorage | undefined> {
    const storage = await this.storageReady();
    return storage && (await this.mayWrite()) ? storage : undefined;
  }

  /** Resolves once no load-report check is running (laterChecks.ts). */
  async checksSettled(): Promise<void> {
    while (this.checking.size > 0) await Promise.all(this.checking);
  }

  /** Starts the restore once the engine is up (idempotent); `ready` and `init` both call it. */
  startRestore(engine: Engine): Promise<void> {
    this.restored ??= this.#restore(engine);
    return this.restored;
  }

  /** Engine plus restored datasets: every request waits for both. */
  async ready(): Promise<Engine> {
    this.lastRequestAt = performance.now();
    const engine = await this.engineReady();
    await this.startRestore(engine);
    return engine;
  }
}
