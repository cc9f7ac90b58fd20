/**
 * The one main-thread owner of the data worker (DuckDB-WASM). Components read its `$state`
 * fields and call its methods; nothing else posts messages to the worker.
 */
import { fetchSource } from '../../shared/sourceFetch';
import { savedEntries } from '../../shared/datasetManifest';
import type { RpcClient } from '../../protocol/rpcClient';
import { WorkerSession } from '../engines/workerSession';
import type {
  DataEvent,
  DataPeer,
  DataRequests,
  DatasetInfo,
  DatasetProfile,
  LoadPhase,
  LoadSource,
  RereadOutcome,
  SqlRisk,
} from '../../protocol/data';
import { timeZoneSetting } from '../settings/timeZone.svelte';
import type { CsvReadOverrides } from '../../protocol/loadReport';
import type { DecodedRows } from '../../shared/arrowDecode';
import { sampleUrl, urlFileName } from './urls';
import { messageOf } from '../../shared/errors';

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

/** What to do with files that are already loaded: load them again under new names, replace, or skip. */
export type DuplicateChoice = 'replace' | 'keep' | 'cancel';

/** Files being added that are already loaded, waiting for the user's choice. */
export interface DuplicateQuestion {
  fileNames: string[];
  /** The datasets each of those files made. */
  datasets: string[];
  answer: (choice: DuplicateChoice) => void;
}

export type QueryRowsOutcome = { ok: true; result: DecodedRows } | { ok: false; message: string };

/** Makes the worker (src/engines/spawn.ts; tests use a MessageChannel stand-in). */
export type WorkerFactory = () => Worker;


/** Give up restarting a worker that keeps dying, rather than loop forever. */
const MAX_RESTARTS = 3;

let loadCounter = 0;

export class DataClient {
  ready = $state(false);
  datasets = $state<DatasetInfo[]>([]);
  loads = $state<LoadState[]>([]);
  /** Saved datasets coming back after a reload, named from the start of the restore. */
  restoring = $state<{ loadId: string; fileName: string; phase: LoadPhase; fraction?: number; detail?: string }[]>([]);
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
  /** Asked when files being added are already loaded (answered through `answer`). */
  duplicateQuestion = $state.raw<DuplicateQuestion | null>(null);

  #session: WorkerSession<DataRequests, DataEvent>;
  #persistRequested = false;
  #crash: string | null = null;
  #restartListeners: (() => void)[] = [];
  /** When the worker's first restore event arrived (its restore began). */
  #restoreStartedAt: number | null = null;
  /** The worker said its restore is over (a late manifest read must not name datasets again). */
  #restoreOver = false;

  constructor(factory: WorkerFactory) {
    this.#session = new WorkerSession<DataRequests, DataEvent>({
      name: 'data engine',
      spawn: factory,
      onEvent: (e) => this.#onEvent(e),
      restart: { mode: 'eager', max: MAX_RESTARTS },
      boot: (rpc) => this.#boot(rpc),
      onCrash: (message, restarting) => {
        this.ready = false;
        this.loads = [];
        this.restoring = [];
        this.#crash = message;
        this.workerError = `The data engine stopped: ${message}.${restarting ? ' Restarting…' : ''}`;
      },
      onReady: (afterCrash) => {
        // After a crash, say so even though the restart worked: the user's in-flight work was lost.
        this.workerError = afterCrash ? `The data engine stopped (${this.#crash ?? 'it crashed'}) and was restarted; rerun what was in progress.` : null;
        this.#crash = null;
        if (afterCrash) for (const listener of this.#restartListeners) listener();
      },
    });
  }

  /** Starts the worker and DuckDB; safe to call more than once. */
  async start(): Promise<void> {
    await this.#session.start();
  }

  /**
   * Names the saved datasets from the manifest before the engine is up, so the page says what is
   * coming back from the start (the worker's restore events then take over, by the same ids).
   */
  async announceSaved(): Promise<void> {
    const entries = await savedEntries();
    if (this.#restoreOver || this.restoring.length > 0) return;
    // One line per saved source (an Excel workbook's sheets come back together), as the worker reports them.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local lookup, never rendered.
    const bySource = new Map(entries.map((e) => [e.sourceKey, e.fileName]));
    this.restoring = [...bySource].map(([key, fileName]) => ({ loadId: `restore:${key}`, fileName, phase: 'restoring' as const, fraction: 0, detail: 'waiting' }));
  }

  async #boot(rpc: RpcClient<DataRequests, DataEvent>): Promise<void> {
    try {
      const res = await rpc.call('init', {});
      this.duckdbVersion = res.duckdbVersion;
      this.persistent = res.persistent;
      this.storageReadOnly = res.readOnlyStorage === true;
      this.#setDatasets(res.datasets);
      this.ready = true;
      performance.measure('dataseer:duckdb-ready', { start: 0, end: performance.now() });
      markEngineStart(res.engineStart);
    } catch (e) {
      this.workerError = `The data engine failed to start: ${messageOf(e)}`;
      throw e;
    }
  }

  /**
   * Called each time the worker came back after a crash: ports other workers held to the old one
   * are dead and must be handed again (the engines' mesh does). Returns the unsubscribe.
   */
  onRestarted(listener: () => void): () => void {
    this.#restartListeners.push(listener);
    return () => {
      this.#restartListeners = this.#restartListeners.filter((l) => l !== listener);
    };
  }

  /** Terminates the worker; every pending call rejects. */
  dispose(): void {
    this.#session.dispose();
    this.ready = false;
  }

  #client(): Promise<RpcClient<DataRequests, DataEvent>> {
    return this.#session.start();
  }

  #onEvent(e: DataEvent): void {
    switch (e.type) {
      case 'datasets':
        this.#setDatasets(e.datasets);
        break;
      case 'storageFreed':
        this.storageFreed = true;
        break;
      case 'progress': {
        if (e.loadId === 'restore') {
          if (e.phase === 'done') {
            this.#restoreOver = true;
            this.restoring = [];
            // Page start → every saved dataset back, and the worker's restore alone (read by `npm run bench`).
            const restoreMs = this.#restoreStartedAt === null ? null : performance.now() - this.#restoreStartedAt;
            performance.measure('dataseer:restore', { start: 0, end: performance.now(), detail: { datasets: this.datasets.length, restoreMs } });
          }
          break;
        }
        if (e.loadId.startsWith('restore:')) {
          this.#restoreStartedAt ??= performance.now();
          const entry = { loadId: e.loadId, fileName: e.fileName, phase: e.phase, ...(e.fraction === undefined ? {} : { fraction: e.fraction }), ...(e.detail === undefined ? {} : { detail: e.detail }) };
          if (e.phase === 'done') this.restoring = this.restoring.filter((r) => r.loadId !== e.loadId);
          else if (this.restoring.some((r) => r.loadId === e.loadId)) this.restoring = this.restoring.map((r) => (r.loadId === e.loadId ? entry : r));
          else this.restoring = [...this.restoring, entry];
          break;
        }
        const load = this.loads.find((l) => l.loadId === e.loadId);
        if (!load) break;
        if (load.phase !== e.phase) load.phaseAt = performance.now();
        load.phase = e.phase;
        load.fraction = e.fraction;
        load.detail = e.detail;
        break;
      }
    }
  }

  #setDatasets(list: DatasetInfo[]): void {
    const grew = list.length > this.datasets.length;
    this.datasets = list;
    if (grew && !this.#persistRequested) {
      this.#persistRequested = true;
      // Only the main thread may ask; best-effort, so eviction is less likely.
      void globalThis.navigator?.storage?.persist?.().catch(() => false);
    }
  }

  /** Loads one source; resolves with the new table names (empty when it failed). */
  async #load(source: LoadSource, fileName: string, sheets?: string[]): Promise<string[]> {
    const loadId = `load-${++loadCounter}`;
    const start = performance.now();
    this.loads.push({ loadId, fileName, phase: 'reading', startedAt: performance.now(), phaseAt: performance.now() });
    let ok = false;
    try {
      if (source.kind === 'url') {
        // The page downloads a URL, never the data worker: the workers' content security policy
        // allows them no network at all, so neither SQL nor code can send the user's rows out.
        const fetched = await fetchSource(source.url, (fraction, received) => {
          const load = this.loads.find((l) => l.loadId === loadId);
          if (!load) return;
          load.fraction = fraction;
          load.detail = `${received} bytes`;
        });
        if (!fetched.ok) {
          this.#addError(fetched.fileName || fileName, fetched.message, fetched.suggestion);
          return [];
        }
        source = { kind: 'file', file: new File([fetched.blob], fetched.fileName, { type: fetched.blob.type }) };
      }
      const rpc = await this.#client();
      const outcome = await rpc.call('load', { source, options: { loadId, ...(sheets ? { sheets } : {}) } });
      if (outcome.ok) {
        ok = true;
        for (const w of outcome.warnings) this.warnings.push({ id: `warn-${++loadCounter}`, fileName, message: w });
        const known = this.datasets.map((d) => d.name);
        const merged = [...this.datasets.filter((d) => !outcome.datasets.some((n) => n.name === d.name)), ...outcome.datasets];
        // The worker also sends a `datasets` event; merging here keeps the list right if it lags.
        if (outcome.datasets.some((d) => !known.includes(d.name))) this.#setDatasets(merged);
        return outcome.datasets.map((d) => d.name);
      }
      if (!outcome.cancelled) this.#addError(outcome.fileName || fileName, outcome.message, outcome.suggestion);
      return [];
    } catch (e) {
      this.#addError(fileName, messageOf(e));
      return [];
    } finally {
      this.loads = this.loads.filter((l) => l.loadId !== loadId);
      performance.measure('dataseer:load', { start, end: performance.now(), detail: { fileName, ok } });
    }
  }

  /** Cancels a load in flight (the worker drops whatever it made); its progress bar goes. */
  async cancelLoad(loadId: string): Promise<void> {
    const load = this.loads.find((l) => l.loadId === loadId);
    if (load) load.detail = 'cancelling';
    try {
      const rpc = await this.#client();
      await rpc.call('cancelLoad', { loadId });
    } catch {
      // The worker is gone: the load fails by itself.
    }
  }

  #addError(fileName: string, message: string, suggestion?: string): void {
    this.errors.push({ id: `err-${++loadCounter}`, fileName, message, ...(suggestion ? { suggestion } : {}) });
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

  /** The File objects go to the worker as-is; it reads them, the main thread never does. */
  async loadFiles(files: File[], sheets?: string[]): Promise<string[]> {
    const again = files.filter((f) => this.datasets.some((d) => d.fileName === f.name));
    if (again.length > 0) {
      // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local lookup, never rendered.
      const againNames = new Set(again.map((f) => f.name));
      const existing = this.datasets.filter((d) => againNames.has(d.fileName)).map((d) => d.name);
      const choice = await this.#askAboutDuplicates([...againNames], existing);
      if (choice === 'cancel') files = files.filter((f) => !againNames.has(f.name));
      if (choice === 'replace') {
        for (const name of existing) {
          try {
            await this.remove(name);
          } catch (e) {
            this.#addError(name, `Could not replace ${name}: ${messageOf(e)}`);
            return [];
          }
        }
      }
    }
    const names = await Promise.all(files.map((file) => this.#load({ kind: 'file', file }, file.name, sheets)));
    return names.flat();
  }

  /** One question at a time; a newer one answers an older one with `cancel`. */
  #askAboutDuplicates(fileNames: string[], datasets: string[]): Promise<DuplicateChoice> {
    this.duplicateQuestion?.answer('cancel');
    return new Promise((resolve) => {
      const question: DuplicateQuestion = {
        fileNames,
        datasets,
        answer: (choice) => {
          if (this.duplicateQuestion === question) this.duplicateQuestion = null;
          resolve(choice);
        },
      };
      this.duplicateQuestion = question;
    });
  }

  loadUrl(url: string): Promise<string[]> {
    const fileName = urlFileName(url);
    return this.#load({ kind: 'url', url }, fileName);
  }

  loadText(text: string, fileName = 'pasted.csv'): Promise<string[]> {
    return this.#load({ kind: 'text', text, fileName }, fileName);
  }

  /** Samples ship with the site under `samples/`, resolved against the page so sub-paths work. */
  loadSample(file: string): Promise<string[]> {
    return this.#load({ kind: 'url', url: sampleUrl(file, document.baseURI) }, file);
  }

  async excelSheets(file: File): Promise<string[]> {
    const rpc = await this.#client();
    return (await rpc.call('excelSheets', { file })).sheets;
  }

  async remove(name: string): Promise<void> {
    const rpc = await this.#client();
    this.#setDatasets(await rpc.call('remove', { name }));
  }

  async rename(from: string, to: string): Promise<void> {
    const rpc = await this.#client();
    this.#setDatasets(await rpc.call('rename', { from, to }));
  }

  /**
   * Reads a CSV dataset's file again with a load report's fix (`{}`: as first detected). The
   * dataset list updates from the worker's `datasets` event; a failure comes back as a value.
   */
  async reread(name: string, options: CsvReadOverrides): Promise<RereadOutcome> {
    try {
      const rpc = await this.#client();
      // A plain copy: the options come from the reactive dataset list, whose proxies cannot cross postMessage.
      return await rpc.call('reread', { name, options: $state.snapshot(options) as CsvReadOverrides });
    } catch (e) {
      return { ok: false, message: messageOf(e) };
    }
  }

  /** Interrupts the statement DuckDB is running (the console's Cancel, a halted Python run). */
  async cancelQuery(): Promise<void> {
    const rpc = await this.#client();
    await rpc.call('cancel', {});
  }

  /** Runs a console query; DuckDB errors come back as values, worker failures too. */
  async query(sql: string, maxRows = 10_000): Promise<QueryRowsOutcome> {
    const start = performance.now();
    try {
      const rpc = await this.#client();
      const outcome = await rpc.call('query', { sql, maxRows });
      if (!outcome.ok) return outcome;
      const { decodeResult } = await import('../../shared/arrowDecode');
      const result = decodeResult(outcome.result, { timeZone: timeZoneSetting.effective });
      performance.measure('dataseer:query', {
        start,
        end: performance.now(),
        detail: { elapsedMs: result.elapsedMs, rowCount: result.rowCount },
      });
      return { ok: true, result };
    } catch (e) {
      return { ok: false, message: messageOf(e) };
    }
  }

  /** A window of a dataset's rows for the preview grid. */
  async page(name: string, offset: number, limit: number, maxColumns?: number): Promise<DecodedRows> {
    const rpc = await this.#client();
    const res = await rpc.call('page', { name, offset, limit, ...(maxColumns === undefined ? {} : { maxColumns }) });
    const { decodeResult } = await import('../../shared/arrowDecode');
    // Columns stored as UTC from a zoned file say so with their +00:00.
    const utcColumns = this.datasets.find((d) => d.name === name)?.report?.timeZones.filter((t) => t.stored === 'utc').map((t) => t.column) ?? [];
    return decodeResult(res, { timeZone: timeZoneSetting.effective, utcColumns });
  }

  /**
   * Rows of a dataset by SQL the page builds (a preview grid's filter), on the console's query
   * path, decoded as `page` decodes them; DuckDB's error is thrown.
   */
  async datasetRows(name: string, sql: string, maxRows: number): Promise<DecodedRows> {
    const rpc = await this.#client();
    const outcome = await rpc.call('query', { sql, maxRows });
    if (!outcome.ok) throw new Error(outcome.message);
    const { decodeResult } = await import('../../shared/arrowDecode');
    const utcColumns = this.datasets.find((d) => d.name === name)?.report?.timeZones.filter((t) => t.stored === 'utc').map((t) => t.column) ?? [];
    return decodeResult(outcome.result, { timeZone: timeZoneSetting.effective, utcColumns });
  }

  /**
   * A dataset's profile, asked of the worker once per state of the dataset: the rail's column
   * summaries and the Profile tab share it, and a change (an SQL edit, a reload of the file)
   * makes the next call profile again.
   */
  profile(name: string): Promise<DatasetProfile> {
    const info = this.datasets.find((d) => d.name === name);
    const key = info ? `${info.loadedAt}:${info.rowCount}:${info.columns.map((c) => `${c.name} ${c.type}`).join(',')}` : '';
    const cached = this.#profiles.get(name);
    if (cached && cached.key === key && key !== '') return cached.profile;
    const profile = this.#client().then((rpc) => rpc.call('profile', { name }));
    this.#profiles.set(name, { key, profile });
    // A failed profile is not kept: the next call tries again.
    profile.catch(() => this.#profiles.get(name)?.profile === profile && this.#profiles.delete(name));
    return profile;
  }
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a cache of promises, never rendered.
  #profiles = new Map<string, { key: string; profile: Promise<DatasetProfile> }>();

  async assess(sql: string): Promise<SqlRisk> {
    const rpc = await this.#client();
    return rpc.call('assess', { sql });
  }

  /**
   * Hands the worker a port another worker will send DataRequests on; a peer's new port replaces
   * its old one (which the worker closes), so a restarted peer leaves nothing behind.
   */
  async connect(port: MessagePort, peer: DataPeer): Promise<void> {
    const rpc = await this.#client();
    await rpc.call('connect', { port, peer }, [port]);
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
