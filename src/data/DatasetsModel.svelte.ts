/**
 * What the page shows of the data engine: the dataset list, loads in flight, saved datasets
 * coming back, errors and warnings, and the engine's state. It changes only from the worker's
 * answers and events (through DataClient) and the user's dismissals; it sends nothing.
 */
import type { DataEvent, DatasetInfo, LoadPhase } from '../../protocol/data';
import type { DataInit } from './dataTransport';
import { keepColumnLists } from './stableColumns';

export interface LoadState {
  loadId: string;
  fileName: string;
  phase: LoadPhase;
  fraction?: number;
  detail?: string;
  /** When the load (and its current phase) began, by `performance.now()`: the page shows the time. */
  startedAt?: number;
  phaseAt?: number;
}

export interface LoadError {
  id: string;
  fileName: string;
  message: string;
  suggestion?: string;
}

/** A saved source coming back after a reload, as the worker announced it (`restoring`) and reports its progress. */
export interface RestoringState {
  loadId: string;
  fileName: string;
  phase: LoadPhase;
  fraction?: number;
  detail?: string;
  /** The datasets it holds and its size, from the worker's announcement. */
  datasets?: string[];
  sizeBytes?: number;
}

let counter = 0;

export class DatasetsModel {
  ready = $state(false);
  /**
   * Replaced whole by every `datasets`/`dataset` event, never changed in place: raw, so a list
   * with 2,000-column tables is not wrapped in proxies column by column (issue 37).
   */
  datasets = $state.raw<DatasetInfo[]>([]);
  loads = $state<LoadState[]>([]);
  /** Saved datasets coming back after a reload, named from the start of the restore. */
  restoring = $state<RestoringState[]>([]);
  errors = $state<LoadError[]>([]);
  /** Loads that worked with caveats (rows skipped, types guessed…): informative, not errors. */
  warnings = $state<LoadError[]>([]);
  /** Worker-level failure (crash, failed start) — shown separately from per-file load errors. */
  workerError = $state<string | null>(null);
  duckdbVersion = $state<string | null>(null);
  /** Whether the worker could open persistent storage for datasets. */
  persistent = $state(false);
  /** Another tab writes the saved datasets: this one restores them but saves nothing. */
  storageReadOnly = $state(false);
  /** Read-only, and the tab that wrote has closed: a reload makes this tab the one that saves. */
  storageFreed = $state(false);
  /** Running profiles' progress, by profile id (DataClient maps datasets to their profile id). */
  profileProgress = $state<Record<string, { done: number; total: number }>>({});
  /** DuckDB's progress (0–1) on running console queries, by query id (issue 37). */
  queryProgress = $state<Record<string, number>>({});
  /** Load report fixes being read (issue 37), by their id: how far the re-read is. */
  fixProgress = $state<Record<string, { fraction?: number; detail?: string; cancelling?: boolean }>>({});

  #persistRequested = false;
  #crash: string | null = null;
  /** When the worker's restore began (its announcement or first restore event). */
  #restoreStartedAt: number | null = null;

  protected started(init: DataInit): void {
    this.duckdbVersion = init.duckdbVersion;
    this.persistent = init.persistent;
    this.storageReadOnly = init.readOnlyStorage === true;
    this.setDatasets(init.datasets);
    this.ready = true;
    performance.measure('dataseer:duckdb-ready', { start: 0, end: performance.now() });
    markEngineStart(init.engineStart);
  }

  protected startFailed(message: string): void {
    this.workerError = `The data engine failed to start: ${message}`;
  }

  protected crashed(message: string, restarting: boolean): void {
    this.ready = false;
    this.loads = [];
    this.restoring = [];
    this.#crash = message;
    this.workerError = `The data engine stopped: ${message}.${restarting ? ' Restarting…' : ''}`;
  }

  protected recovered(afterCrash: boolean): void {
    // After a crash, say so even though the restart worked: the user's in-flight work was lost.
    this.workerError = afterCrash ? `The data engine stopped (${this.#crash ?? 'it crashed'}) and was restarted; rerun what was in progress.` : null;
    this.#crash = null;
  }

  protected apply(e: DataEvent): void {
    switch (e.type) {
      case 'datasets':
        this.setDatasets(e.datasets);
        break;
      case 'dataset':
        // One entry changed (a big load's checks and copy are done): the list is otherwise the same.
        if (this.datasets.some((d) => d.name === e.dataset.name)) this.setDatasets(this.datasets.map((d) => (d.name === e.dataset.name ? e.dataset : d)));
        break;
      case 'storageFreed':
        this.storageFreed = true;
        break;
      case 'restoring':
        this.#restoreStartedAt ??= performance.now();
        this.restoring = e.sources.map((s) => ({ loadId: s.loadId, fileName: s.fileName, phase: 'restoring' as const, fraction: 0, detail: 'waiting', datasets: s.datasets, sizeBytes: s.sizeBytes }));
        break;
      case 'queryProgress':
        // Only while its query runs: `DataClient.query` forgets the id when it answers.
        if (e.queryId in this.queryProgress) this.queryProgress[e.queryId] = e.fraction;
        break;
      case 'profileProgress':
        this.profileProgress = { ...this.profileProgress, [e.profileId]: { done: e.done, total: e.total } };
        break;
      case 'progress':
        if (e.loadId === 'restore' || e.loadId.startsWith('restore:')) this.#restoreProgress(e);
        else this.#loadProgress(e);
        break;
    }
  }

  #restoreProgress(e: Extract<DataEvent, { type: 'progress' }>): void {
    if (e.loadId === 'restore') {
      if (e.phase !== 'done') return;
      this.restoring = [];
      // Page start → every saved dataset back, and the worker's restore alone (read by `npm run bench`).
      const restoreMs = this.#restoreStartedAt === null ? null : performance.now() - this.#restoreStartedAt;
      performance.measure('dataseer:restore', { start: 0, end: performance.now(), detail: { datasets: this.datasets.length, restoreMs } });
      return;
    }
    this.#restoreStartedAt ??= performance.now();
    const known = this.restoring.find((r) => r.loadId === e.loadId);
    if (e.phase === 'done') {
      this.restoring = this.restoring.filter((r) => r.loadId !== e.loadId);
      // Said once the worker has skipped it (issue 37): a restore that finished before the Cancel reached it is simply back.
      if (e.detail === 'cancelled' && known) {
        const names = known.datasets?.length ? known.datasets.join(', ') : known.fileName;
        this.addWarning(known.fileName, `Not restored: ${names}. Its saved copy is kept and comes back after the next reload.`);
      }
      return;
    }
    const entry: RestoringState = {
      ...(known?.datasets ? { datasets: known.datasets } : {}),
      ...(known?.sizeBytes === undefined ? {} : { sizeBytes: known.sizeBytes }),
      loadId: e.loadId,
      fileName: e.fileName,
      phase: e.phase,
      ...(e.fraction === undefined ? {} : { fraction: e.fraction }),
      // A Cancel sent stays said until the worker answers it.
      ...(known?.detail === 'cancelling' ? { detail: 'cancelling' } : e.detail === undefined ? {} : { detail: e.detail }),
    };
    this.restoring = known ? this.restoring.map((r) => (r.loadId === e.loadId ? entry : r)) : [...this.restoring, entry];
  }

  #loadProgress(e: Extract<DataEvent, { type: 'progress' }>): void {
    const fix = this.fixProgress[e.loadId];
    if (fix) {
      if (e.phase !== 'done') this.fixProgress[e.loadId] = { ...fix, fraction: e.fraction, detail: e.detail };
      return;
    }
    const load = this.loads.find((l) => l.loadId === e.loadId);
    if (!load) return;
    if (load.phase !== e.phase) load.phaseAt = performance.now();
    load.phase = e.phase;
    load.fraction = e.fraction;
    load.detail = e.detail;
  }

  /** The list as the worker announced it (its `datasets` event, or `init`). */
  protected setDatasets(list: DatasetInfo[]): void {
    const grew = list.length > this.datasets.length;
    this.datasets = keepColumnLists(this.datasets, list);
    if (grew && !this.#persistRequested) {
      this.#persistRequested = true;
      // Only the main thread may ask; best-effort, so eviction is less likely.
      void globalThis.navigator?.storage?.persist?.().catch(() => false);
    }
  }

  /** A load the page began: it shows until `endLoad`. */
  protected beginLoad(fileName: string): string {
    const loadId = `load-${++counter}`;
    const now = performance.now();
    this.loads.push({ loadId, fileName, phase: 'reading', startedAt: now, phaseAt: now });
    return loadId;
  }

  /** Progress the page itself makes on a load (downloading a URL). */
  protected loadDownloaded(loadId: string, fraction: number | undefined, detail: string): void {
    const load = this.loads.find((l) => l.loadId === loadId);
    if (!load) return;
    load.fraction = fraction;
    load.detail = detail;
  }

  protected endLoad(loadId: string): void {
    this.loads = this.loads.filter((l) => l.loadId !== loadId);
  }

  protected markRestoreCancelling(loadId: string): RestoringState | undefined {
    const known = this.restoring.find((r) => r.loadId === loadId);
    if (known) this.restoring = this.restoring.map((r) => (r.loadId === loadId ? { ...r, detail: 'cancelling' } : r));
    return known;
  }

  protected markCancelling(loadId: string): void {
    const load = this.loads.find((l) => l.loadId === loadId);
    if (load) load.detail = 'cancelling';
  }

  protected addError(fileName: string, message: string, suggestion?: string): void {
    this.errors.push({ id: `err-${++counter}`, fileName, message, ...(suggestion ? { suggestion } : {}) });
  }

  protected addWarning(fileName: string, message: string): void {
    this.warnings.push({ id: `warn-${++counter}`, fileName, message });
  }

  dismissError(id: string): void {
    this.errors = this.errors.filter((e) => e.id !== id);
  }

  dismissWarning(id: string): void {
    this.warnings = this.warnings.filter((w) => w.id !== id);
  }

  dismissWorkerError(): void {
    this.workerError = null;
  }

  /** Columns of a dataset stored as UTC from a zoned file (they show their +00:00). */
  utcColumns(name: string): string[] {
    return this.datasets.find((d) => d.name === name)?.report?.timeZones.filter((t) => t.stored === 'utc').map((t) => t.column) ?? [];
  }
}

/**
 * The steps of DuckDB's start as marks on the page's timeline (`dataseer:duckdb:<step>`), so the
 * bench and the browser's performance panel can tell the engine's own start from the page's.
 */
function markEngineStart(phases: { phase: string; at: number }[] | undefined): void {
  for (const { phase, at } of phases ?? []) {
    const startTime = at - performance.timeOrigin;
    if (startTime >= 0) performance.mark(`dataseer:duckdb:${phase}`, { startTime });
  }
}
