/**
 * The one main-thread owner of the data worker (DuckDB-WASM): the DatasetsModel the page reads,
 * fed by the DataTransport, plus the requests the page makes. Components read its `$state`
 * fields and call its methods; nothing else posts messages to the worker. The dataset list comes
 * only from the worker's `datasets` events (and `init`): answers that change it are not applied
 * again.
 */
import { fetchSource } from './sourceFetch';
import type { DataPeer, DatasetProfile, LoadSource, QueryResult, QueryTablesOutcome, RereadOutcome, SqlRisk } from '../../protocol/data';
import type { ReadOverrides } from '../../protocol/loadReport';
import type { DecodedRows, DecodeOptions } from '../../shared/arrowDecode';
import { DecodeClient } from './decodeClient';
import { messageOf } from '../../shared/errors';
import { timeZoneSetting } from '../settings/timeZone.svelte';
import { DataTransport, type WorkerFactory } from './dataTransport';
import { DatasetsModel } from './DatasetsModel.svelte';
import { DuplicateAsker, type DuplicateQuestion } from './duplicates.svelte';
import { sampleUrl, urlFileName } from './urls';

let profileSeq = 0;
/** A profile page's place in the cache: the dataset and the page's first column. */
const profileSlot = (name: string, from: number): string => `${from}:${name}`;

export type { WorkerFactory } from './dataTransport';
export type { LoadError, LoadState } from './DatasetsModel.svelte';
export type { DuplicateChoice, DuplicateQuestion } from './duplicates.svelte';

/** `cancelled`: its Cancel stopped it (issue 37). */
export type QueryRowsOutcome = { ok: true; result: DecodedRows } | { ok: false; message: string; cancelled?: true };

/** What the page loads from: the worker's sources, or a URL the page downloads first. */
type PageSource = LoadSource | { kind: 'url'; url: string };

/** Numbers the load report fixes and console queries of this page (their ids only need to differ within it). */
let fixCounter = 0;

export class DataClient extends DatasetsModel {
  readonly #transport: DataTransport;
  readonly #duplicates = new DuplicateAsker();
  readonly #decoder: DecodeClient;

  /** `decoder`: where results become grid rows (the decode worker; by default the page, in slices). */
  constructor(factory: WorkerFactory, decoder: DecodeClient = new DecodeClient(null)) {
    super();
    this.#decoder = decoder;
    this.#transport = new DataTransport(factory, {
      onEvent: (e) => this.apply(e),
      onStarted: (init) => this.started(init),
      onStartFailed: (message) => this.startFailed(message),
      onCrash: (message, restarting) => this.crashed(message, restarting),
      onReady: (afterCrash) => this.recovered(afterCrash),
    });
  }

  /** Asked when files being added are already loaded (answered through `answer`). */
  get duplicateQuestion(): DuplicateQuestion | null {
    return this.#duplicates.question;
  }

  /** Starts the worker and DuckDB; safe to call more than once. */
  start(): Promise<void> {
    return this.#transport.start();
  }

  /** See DataTransport.onRestarted: the engines' mesh hands its ports again. */
  onRestarted(listener: () => void): () => void {
    return this.#transport.onRestarted(listener);
  }

  /** Terminates the worker; every pending call rejects. */
  dispose(): void {
    this.#transport.dispose();
    this.ready = false;
  }

  /** Loads one source; resolves with the new table names (empty when it failed). */
  async #load(source: PageSource, fileName: string, sheets?: string[]): Promise<string[]> {
    const loadId = this.beginLoad(fileName);
    const start = performance.now();
    let ok = false;
    try {
      if (source.kind === 'url') {
        // The page downloads a URL, never the data worker: the workers' content security policy
        // allows them no network at all, so neither SQL nor code can send the user's rows out.
        const fetched = await fetchSource(source.url, (fraction, received) => this.loadDownloaded(loadId, fraction, `${received} bytes`));
        if (!fetched.ok) {
          this.addError(fetched.fileName || fileName, fetched.message, fetched.suggestion);
          return [];
        }
        source = { kind: 'file', file: new File([fetched.blob], fetched.fileName, { type: fetched.blob.type }) };
      }
      const outcome = await this.#transport.call('load', { source, options: { loadId, ...(sheets ? { sheets } : {}) } });
      if (outcome.ok) {
        ok = true;
        for (const w of outcome.warnings) this.addWarning(fileName, w);
        return outcome.datasets.map((d) => d.name);
      }
      if (!outcome.cancelled) this.addError(outcome.fileName || fileName, outcome.message, outcome.suggestion);
      return [];
    } catch (e) {
      this.addError(fileName, messageOf(e));
      return [];
    } finally {
      this.endLoad(loadId);
      performance.measure('dataseer:load', { start, end: performance.now(), detail: { fileName, ok } });
    }
  }

  /** Cancels a load in flight (the worker drops whatever it made); its progress bar goes. */
  async cancelLoad(loadId: string): Promise<void> {
    this.markCancelling(loadId);
    try {
      await this.#transport.call('cancelLoad', { loadId });
    } catch {
      // The worker is gone: the load fails by itself.
    }
  }

  /**
   * Stops bringing back one saved source after a reload (issue 37): it is not restored now, its
   * saved copy stays for the next start, the other sources come back as before. Its row says
   * "cancelling" until the worker has skipped it (then a note says what was not restored).
   */
  async cancelRestore(loadId: string): Promise<void> {
    if (!this.markRestoreCancelling(loadId)) return;
    await this.#transport.call('cancelLoad', { loadId }).catch(() => undefined);
  }

  /** The File objects go to the worker as-is; it reads them, the main thread never does. */
  async loadFiles(files: File[], sheets?: string[]): Promise<string[]> {
    const again = files.filter((f) => this.datasets.some((d) => d.fileName === f.name));
    if (again.length > 0) {
      // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local lookup, never rendered.
      const againNames = new Set(again.map((f) => f.name));
      const existing = this.datasets.filter((d) => againNames.has(d.fileName)).map((d) => d.name);
      const choice = await this.#duplicates.ask([...againNames], existing);
      if (choice === 'cancel') files = files.filter((f) => !againNames.has(f.name));
      if (choice === 'replace') {
        for (const name of existing) {
          try {
            await this.remove(name);
          } catch (e) {
            this.addError(name, `Could not replace ${name}: ${messageOf(e)}`);
            return [];
          }
        }
      }
    }
    const names = await Promise.all(files.map((file) => this.#load({ kind: 'file', file }, file.name, sheets)));
    return names.flat();
  }

  loadUrl(url: string): Promise<string[]> {
    return this.#load({ kind: 'url', url }, urlFileName(url));
  }

  loadText(text: string, fileName = 'pasted.csv'): Promise<string[]> {
    return this.#load({ kind: 'text', text, fileName }, fileName);
  }

  /** Samples ship with the site under `samples/`, resolved against the page so sub-paths work. */
  loadSample(file: string): Promise<string[]> {
    return this.#load({ kind: 'url', url: sampleUrl(file, document.baseURI) }, file);
  }

  async excelSheets(file: File): Promise<string[]> {
    return (await this.#transport.call('excelSheets', { file })).sheets;
  }

  /** The list follows from the worker's `datasets` event, which arrives before the answer. */
  async remove(name: string): Promise<void> {
    await this.#transport.call('remove', { name });
  }

  async rename(from: string, to: string): Promise<void> {
    await this.#transport.call('rename', { from, to });
  }

  /**
   * Reads a CSV dataset's file again with a load report's fix (`{}`: as first detected). The
   * dataset list updates from the worker's `datasets` event; a failure comes back as a value.
   */
  async reread(name: string, options: ReadOverrides, fixId?: string): Promise<RereadOutcome> {
    if (fixId !== undefined) this.fixProgress[fixId] = {};
    try {
      // A plain copy: the options come from the reactive dataset list, whose proxies cannot cross postMessage.
      return await this.#transport.call('reread', { name, options: $state.snapshot(options) as ReadOverrides, ...(fixId !== undefined ? { loadId: fixId } : {}) });
    } catch (e) {
      return { ok: false, message: messageOf(e) };
    } finally {
      if (fixId !== undefined) delete this.fixProgress[fixId];
    }
  }

  /** A fresh id for a load report fix, so its progress can be shown and `cancelReread` can stop it. */
  newFixId(): string {
    return `fix-${++fixCounter}`;
  }

  /** Stops a load report fix before it replaces the table (the table stays as it was). */
  async cancelReread(fixId: string): Promise<void> {
    const fix = this.fixProgress[fixId];
    if (fix) this.fixProgress[fixId] = { ...fix, cancelling: true };
    await this.#transport.call('cancelLoad', { loadId: fixId }).catch(() => undefined);
  }

  /** A fresh id for a console query, so its progress can be shown and `cancelQuery(id)` stops it alone. */
  newQueryId(): string {
    return `query-${++fixCounter}`;
  }

  /**
   * With an id: stops that query (running or still queued) and nothing else. Without: interrupts
   * whatever page statement DuckDB is running (a halted Python run).
   */
  async cancelQuery(queryId?: string): Promise<void> {
    await this.#transport.call('cancel', queryId === undefined ? {} : { queryId });
  }

  /** Runs a console query; DuckDB errors come back as values, worker failures too. */
  async query(sql: string, maxRows = 10_000, queryId?: string): Promise<QueryRowsOutcome> {
    const start = performance.now();
    if (queryId !== undefined) this.queryProgress[queryId] = 0;
    try {
      const outcome = await this.#transport.call('consoleQuery', { sql, maxRows, ...(queryId === undefined ? {} : { queryId }) });
      if (!outcome.ok) return outcome;
      const result = await this.#decode(outcome.result, { timeZone: timeZoneSetting.effective });
      performance.measure('dataseer:query', { start, end: performance.now(), detail: { elapsedMs: result.elapsedMs, rowCount: result.rowCount } });
      return { ok: true, result };
    } catch (e) {
      return { ok: false, message: messageOf(e) };
    } finally {
      if (queryId !== undefined) delete this.queryProgress[queryId];
    }
  }

  /**
   * A window of a dataset's rows for the preview grid. `signal` (issue 37): aborting it stops the
   * window's read in the worker (over a big view each far window is a scan) and rejects with an
   * `AbortError`, whether the read was running, queued or already answered.
   */
  async page(name: string, offset: number, limit: number, maxColumns?: number, signal?: AbortSignal): Promise<DecodedRows> {
    return this.#abortable(signal, async (queryId) => {
      const res = await this.#transport.call('page', { name, offset, limit, ...(maxColumns === undefined ? {} : { maxColumns }), ...(queryId === undefined ? {} : { queryId }) });
      return { done: () => this.#decode(res, { timeZone: timeZoneSetting.effective, utcColumns: this.utcColumns(name) }) };
    });
  }

  /**
   * Rows of a dataset by SQL the page builds (a preview grid's filter), on the console's query
   * path, decoded as `page` decodes them; DuckDB's error is thrown. `signal` as for `page`.
   */
  async datasetRows(name: string, sql: string, maxRows: number, signal?: AbortSignal): Promise<DecodedRows> {
    return this.#abortable(signal, async (queryId) => {
      const outcome = await this.#transport.call('consoleQuery', { sql, maxRows, ...(queryId === undefined ? {} : { queryId }) });
      return { done: () => (outcome.ok ? this.#decode(outcome.result, { timeZone: timeZoneSetting.effective, utcColumns: this.utcColumns(name) }) : Promise.reject(new Error(outcome.message))) };
    });
  }

  /**
   * Runs a worker read named by a fresh query id when there is a `signal`: its abort cancels that
   * read alone in the worker, and the caller gets an `AbortError` whatever the worker answered
   * (`read` answers, then `done` finishes on the page only if still wanted).
   */
  async #abortable<T>(signal: AbortSignal | undefined, read: (queryId: string | undefined) => Promise<{ done: () => Promise<T> }>): Promise<T> {
    if (signal?.aborted) throw abortError();
    const queryId = signal ? this.newQueryId() : undefined;
    const stop = () => void this.cancelQuery(queryId).catch(() => undefined);
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const answered = await read(queryId);
      if (signal?.aborted) throw abortError();
      return await answered.done();
    } catch (e) {
      throw signal?.aborted ? abortError() : e;
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }

  async #decode(result: QueryResult, options: DecodeOptions): Promise<DecodedRows> {
    const rows = await this.#decoder.decode(result.ipc, options);
    return { columns: result.columns, rows, rowCount: rows.length, truncated: result.truncated, elapsedMs: result.elapsedMs };
  }

  /**
   * A page of a dataset's profile (PROFILE_PAGE_COLUMNS columns from the `from`th), asked of the
   * worker once per state of the dataset: the rail's column summaries and the Profile tab share
   * it, and a change (an SQL edit, a reload of the file) makes the next call profile again.
   */
  profile(name: string, from = 0): Promise<DatasetProfile> {
    const info = this.datasets.find((d) => d.name === name);
    const key = info ? `${info.loadedAt}:${info.rowCount}:${info.columns.length}:${info.columns.map((c) => `${c.name} ${c.type}`).join(',')}` : '';
    const slot = profileSlot(name, from);
    const cached = this.#profiles.get(slot);
    if (cached && cached.key === key && key !== '') return cached.profile;
    const profileId = `profile-${++profileSeq}`;
    const profile = this.#transport.call('profile', { name, profileId, ...(from > 0 ? { from } : {}) });
    this.#profiles.set(slot, { key, profile, profileId });
    const started = performance.now();
    const forget = (ok: boolean) => {
      const { [profileId]: _done, ...rest } = this.profileProgress;
      this.profileProgress = rest;
      // Read by `npm run bench` (its scale rows).
      performance.measure('dataseer:profile', { start: started, end: performance.now(), detail: { name, from, ok } });
    };
    profile.then(
      () => forget(true),
      () => forget(false),
    );
    // A failed (or cancelled) profile is not kept: the next call tries again.
    profile.catch(() => this.#profiles.get(slot)?.profile === profile && this.#profiles.delete(slot));
    return profile;
  }
  /** Profiles by dataset and first column (`profileSlot`). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a cache of promises, never rendered.
  #profiles = new Map<string, { key: string; profile: Promise<DatasetProfile>; profileId: string }>();

  /** The running profile of a dataset's page: statements done of total (absent when none is running). */
  profileProgressOf(name: string, from = 0): { done: number; total: number } | undefined {
    const entry = this.#profiles.get(profileSlot(name, from));
    return entry ? this.profileProgress[entry.profileId] : undefined;
  }

  /** Stops a dataset's running profile page; its `profile` promise rejects with "Profile cancelled.". */
  async cancelProfile(name: string, from = 0): Promise<void> {
    const slot = profileSlot(name, from);
    const entry = this.#profiles.get(slot);
    if (!entry) return;
    this.#profiles.delete(slot);
    try {
      await this.#transport.call('cancelProfile', { profileId: entry.profileId });
    } catch {
      // The worker is gone: the profile fails by itself.
    }
  }

  /** Classifies a console statement before it runs, so the page can ask first. */
  assess(sql: string): Promise<SqlRisk> {
    return this.#transport.call('assess', { sql });
  }

  /** (issue 32) The datasets a query reads, as DuckDB binds it; refused when the agent could not run it. */
  queryTables(sql: string): Promise<QueryTablesOutcome> {
    return this.#transport.call('queryTables', { sql });
  }

  /**
   * Hands the worker a port another worker will send DataRequests on; a peer's new port replaces
   * its old one (which the worker closes), so a restarted peer leaves nothing behind.
   */
  async connect(port: MessagePort, peer: DataPeer): Promise<void> {
    await this.#transport.call('connect', { port, peer }, [port]);
  }
}

/** What an aborted `page` rejects with (as fetch does). */
function abortError(): DOMException {
  return new DOMException('The rows were no longer wanted.', 'AbortError');
}
