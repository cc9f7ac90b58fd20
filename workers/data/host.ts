import { serve, type Handlers, type Served } from '../../protocol/rpcServer';
import type { DataEvent, DataFormat, DataPeer, DataRequests, DatasetInfo, LoadOutcome, LoadPhase, LoadSource, QueryResult, RereadOutcome } from '../../protocol/data';
import { assessSql, assessStatements, mayWrite, renameIn } from './assess';
import { describeTable, mainTableNames, memoryUsed, tableNames } from './catalog';
import { briefError, ingestCsv, readCsvSql } from './csvIngest';
import { REGISTERED_DIR } from './duckdbEngine';
import { ingestArrowStreams } from './arrowIngest';
import { Serial, type Engine } from './duckdbEngine';
import { checkFootprint } from './footprint';
import type { ConvertedTable, Converter } from './loaders/types';
import { profileTable } from './profile';
import { collectRows, runQuery, DEFAULT_MAX_ROWS } from './queryRunner';
import { detectEncoding, detectFormat, readHead } from './sniff';
import { fetchSource } from '../../shared/sourceFetch';
import { quoteIdent } from '../../shared/sql';
import { runModelSql, type ModelScope } from './modelSql';
import { nameOf } from './sqlScript';
import { isQuotaError, type DatasetStorage, type ManifestEntry } from './storage';
import { sanitizeName, tableNameFor, uniqueName } from './tableName';
import { restoreSnapshot, writeSnapshot } from './snapshot';
import { messageOf } from '../../shared/errors';
import type { CsvReadOverrides, LoadFinding, LoadReport } from '../../protocol/loadReport';
import { csvFindings } from './csvChecks';
import { readerLabel } from './readerLabel';
import { isEmptyOverrides } from './csvOptions';
import { ingestParquetNative } from './parquetNative';
import { settleTimeZones, utcSelectList, zonedColumns } from './timeZones';
import { columnTypes } from './catalog';

/**
 * The data worker's request handlers: loading (any source, any format), the dataset list,
 * queries, paging, profiling, risk assessment and persistence. The engine, storage, readers and
 * fetch come in as dependencies so this runs in Node tests against the real DuckDB-WASM build.
 */

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
  fetch?: typeof fetch;
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
  /** Work run once, queued, after the restore, while the engine is otherwise idle (warmUp.ts). */
  warmUp?(engine: Engine): Promise<void>;
}

type Emit = (event: DataEvent) => void;

/** From this size a load answers before its copy for the next visit is written (the copy then runs alongside). */
const SAVE_AFTER_BYTES = 8 * 1024 * 1024;

function megabytes(n: number): string {
  const mb = n / 1e6;
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb).toLocaleString('en-US')} MB`;
}

interface Built {
  info: DatasetInfo;
  sheet?: string;
}

const MAX_PAGE = 10_000;


/** The profile covers at most this many columns (see the profile handler). */
export const MAX_PROFILE_COLUMNS = 300;

export class DataHost {
  readonly #deps: HostDeps;
  readonly #serial = new Serial();
  readonly #listeners = new Set<Emit>();
  /** Snapshot writes in flight, by dataset, and those to write once more when they finish. */
  readonly #snapshots = new Map<string, Promise<void>>();
  readonly #snapshotAgain = new Set<string>();
  /** Each peer's port, served until the peer hands a new one. */
  readonly #peers = new Map<DataPeer, Served<DataEvent>>();
  readonly #datasets = new Map<string, DatasetInfo>();
  #engine?: Promise<Engine>;
  #storage?: Promise<DatasetStorage | undefined>;
  #restored?: Promise<void>;
  #warmUpQueued = false;
  #seq = 0;
  /** When the last request began (snapshots wait for a quiet moment). */
  #lastRequestAt = 0;
  /** Receives DuckDB's execution progress while an ingest runs. */
  #progressSink?: (percentage: number) => void;

  constructor(deps: HostDeps) {
    this.#deps = deps;
  }

  addListener(emit: Emit): void {
    this.#listeners.add(emit);
  }

  removeListener(emit: Emit): void {
    this.#listeners.delete(emit);
  }

  #emit(event: DataEvent): void {
    for (const l of this.#listeners) l(event);
  }

  #progress(loadId: string, fileName: string, phase: LoadPhase, fraction?: number, detail?: string): void {
    this.#emit({ type: 'progress', loadId, fileName, phase, ...(fraction === undefined ? {} : { fraction }), ...(detail === undefined ? {} : { detail }) });
  }

  #list(): DatasetInfo[] {
    return [...this.#datasets.values()].sort((a, b) => a.loadedAt - b.loadedAt);
  }

  #changed(): DatasetInfo[] {
    const list = this.#list();
    this.#emit({ type: 'datasets', datasets: list });
    return list;
  }

  #engineReady(): Promise<Engine> {
    this.#engine ??= this.#deps.boot().then((engine) => {
      engine.onProgress?.((pct) => this.#progressSink?.(pct));
      return engine;
    });
    return this.#engine;
  }

  #storageReady(): Promise<DatasetStorage | undefined> {
    this.#storage ??= this.#deps.openStorage().catch(() => undefined);
    return this.#storage;
  }

  #writes?: Promise<boolean>;
  #mayWrite(): Promise<boolean> {
    this.#writes ??= this.#deps.claimWrites ? this.#deps.claimWrites(() => this.#emit({ type: 'storageFreed' })).catch(() => false) : Promise.resolve(true);
    return this.#writes;
  }

  /** The storage, when this tab is the one that writes it. */
  async #writable(): Promise<DatasetStorage | undefined> {
    const storage = await this.#storageReady();
    return storage && (await this.#mayWrite()) ? storage : undefined;
  }

  /** Engine plus restored datasets: every request waits for both. */
  async #ready(): Promise<Engine> {
    this.#lastRequestAt = performance.now();
    const engine = await this.#engineReady();
    this.#restored ??= this.#restore(engine);
    await this.#restored;
    return engine;
  }

  handlers(): Handlers<DataRequests> {
    return {
      init: async () => {
        // Answer as soon as DuckDB is up: restoring big saved datasets can take many seconds, and
        // the page should be usable meanwhile. Restored tables arrive as `datasets` events, and
        // every other request still waits for the restore (#ready).
        const engine = await this.#engineReady();
        this.#restored ??= this.#restore(engine);
        if (!this.#warmUpQueued && this.#deps.warmUp) {
          this.#warmUpQueued = true;
          const warmUp = this.#deps.warmUp;
          // A failed warm-up costs only speed: the first load compiles what it needs itself.
          void this.#restored.then(() => this.#serial.run(() => warmUp(engine))).catch(() => undefined);
        }
        const storage = await this.#storageReady();
        const persisted = storage ? ((await this.#deps.persisted?.().catch(() => false)) ?? false) : false;
        const readOnlyStorage = storage !== undefined && !(await this.#mayWrite());
        const engineStart = engine.startPhases ? [...engine.startPhases] : undefined;
        return { result: { duckdbVersion: await engine.version(), datasets: this.#list(), persistent: persisted, readOnlyStorage, ...(engineStart ? { engineStart } : {}) } };
      },
      load: async ({ source, options }) => ({ result: await this.load(source, options.loadId, options.sheets) }),
      excelSheets: async ({ file }) => ({ result: { sheets: await this.#deps.readers.listExcelSheets(file) } }),
      reread: async ({ name, options }) => ({ result: await this.reread(name, options) }),
      list: async () => {
        await this.#ready();
        return { result: this.#list() };
      },
      remove: async ({ name }) => ({ result: await this.remove(name) }),
      rename: async ({ from, to }) => ({ result: await this.rename(from, to) }),
      cancel: async () => {
        const engine = await this.#engineReady();
        await engine.cancel().catch(() => undefined);
        return { result: { cancelled: true } };
      },
      cancelLoad: async ({ loadId }) => {
        this.#cancelledLoads.add(loadId);
        // A CSV parse is one DuckDB statement: interrupt it. Readers stop at their next batch.
        if (this.#ingesting === loadId) await (await this.#engineReady()).cancel().catch(() => undefined);
        return { result: { cancelled: true } };
      },
      query: async ({ sql, maxRows }) => {
        const outcome = await this.query(sql, maxRows ?? DEFAULT_MAX_ROWS);
        return { result: outcome, transfer: outcome.ok ? [outcome.result.ipc.buffer] : [] };
      },
      page: async ({ name, offset, limit, maxColumns }) => {
        const result = await this.page(name, offset, limit, maxColumns);
        return { result, transfer: [result.ipc.buffer] };
      },
      profile: async ({ name }) => {
        const engine = await this.#ready();
        const info = this.#datasets.get(name);
        return {
          result: await this.#serial.run(async () => {
            const described = info ?? { ...(await describeTable(engine, name)) };
            if (described.columns.length === 0) throw new Error(`No table named ${name}.`);
            // Profiling thousands of columns would take minutes and render unreadably; the first
            // MAX_PROFILE_COLUMNS are what a person scans, and SQL reaches the rest.
            return profileTable(engine, name, described.columns.slice(0, MAX_PROFILE_COLUMNS), described.rowCount);
          }),
        };
      },
      assess: async ({ sql }) => {
        const engine = await this.#ready();
        return { result: await this.#serial.run(() => assessSql(engine, sql, [...this.#datasets.keys()])) };
      },
      connect: ({ port, peer }) => {
        // Other workers (the agent, Python) talk to the same host over their own port and hear the
        // same events, but only through a narrow query channel (readChannel). A restarted peer
        // sends a new port: the old one is closed and forgotten, not served for ever.
        const old = this.#peers.get(peer);
        if (old) {
          this.removeListener(old.emit);
          old.close();
        }
        const served = serve<DataRequests, DataEvent>(port, this.readChannel());
        this.#peers.set(peer, served);
        this.addListener(served.emit);
        return { result: {} };
      },
    };
  }

  /**
   * What another worker's port may ask: list, describe and query the datasets, and cancel its
   * query — nothing that loads, removes, renames or connects, and no query that would change a
   * dataset (only the page's SQL console does that, after asking). Code that escaped into a
   * worker's JavaScript would find nothing more on the port.
   */
  readChannel(): Handlers<DataRequests> {
    const all = this.handlers();
    const refuse = (what: string) => () => {
      throw new Error(`${what} is not available on this port: only the page loads and changes datasets`);
    };
    return {
      ...all,
      init: refuse('init'),
      load: refuse('load'),
      cancelLoad: refuse('cancelLoad'),
      excelSheets: refuse('excelSheets'),
      reread: refuse('reread'),
      remove: refuse('remove'),
      rename: refuse('rename'),
      connect: refuse('connect'),
      // Model SQL (the agent's run_sql, Python's sql()): one read-only statement, judged by DuckDB.
      query: async ({ sql, maxRows }) => {
        const outcome = await this.modelQuery(sql, maxRows ?? DEFAULT_MAX_ROWS);
        return { result: outcome, transfer: outcome.ok ? [outcome.result.ipc.buffer] : [] };
      },
    };
  }

  /** What model SQL may read: the datasets (some of them views over a big file). */
  #modelScope(): ModelScope {
    return { tables: new Set([...this.#datasets.keys()].map((n) => n.toLowerCase())), views: new Set([...this.#views.keys()].map((n) => n.toLowerCase())) };
  }

  /** Runs SQL on the model's (or a file's) behalf: read-only by DuckDB's own analysis, never a change. */
  async modelQuery(sql: string, maxRows: number) {
    const engine = await this.#ready();
    return this.#serial.run(() => runModelSql(engine, sql, maxRows, this.#modelScope()));
  }

  // ---- loading ------------------------------------------------------------------------------

  /** Loads the user cancelled (kept until their `load` answers), and the one being ingested now. */
  #cancelledLoads = new Set<string>();
  #ingesting: string | null = null;

  #cancelledOutcome(loadId: string, fileName: string): LoadOutcome {
    this.#cancelledLoads.delete(loadId);
    this.#progress(loadId, fileName, 'done', 1);
    return { ok: false, fileName, message: 'Cancelled.', cancelled: true };
  }

  async load(source: LoadSource, loadId: string, sheets?: string[]): Promise<LoadOutcome> {
    try {
      return await this.#load(source, loadId, sheets);
    } finally {
      this.#cancelledLoads.delete(loadId);
    }
  }

  async #load(source: LoadSource, loadId: string, sheets?: string[]): Promise<LoadOutcome> {
    const fileName = source.kind === 'file' ? source.file.name : source.kind === 'text' ? source.fileName : undefined;
    let blob: Blob;
    let name: string;
    if (source.kind === 'url') {
      const fetched = await fetchSource(
        source.url,
        (fraction, received) => this.#progress(loadId, fileName ?? source.url, 'reading', fraction, `${received} bytes`),
        this.#deps.fetch,
      );
      if (!fetched.ok) return fetched;
      blob = fetched.blob;
      name = fetched.fileName;
    } else if (source.kind === 'file') {
      blob = source.file;
      name = source.file.name;
    } else {
      blob = new Blob([source.text], { type: 'text/csv' });
      name = source.fileName || 'pasted.csv';
    }
    this.#progress(loadId, name, 'reading', 1);
    const engine = await this.#ready();
    const head = await readHead(blob);
    const detected = detectFormat(name, head);
    if (!detected.ok) return { ok: false, fileName: name, message: detected.message, suggestion: detected.suggestion };
    const warnings = detected.warning ? [detected.warning] : [];

    const built = await this.#serial.run(async () => {
      // Cancelled while it waited for its turn: nothing to undo.
      if (this.#cancelledLoads.has(loadId)) return { ok: false as const, fileName: name, message: 'Cancelled.' };
      const fit = checkFootprint(name, detected.format, blob.size, await memoryUsed(engine), this.#deps.memoryCeilingBytes);
      const taken = new Set([...this.#datasets.keys(), ...(await tableNames(engine))]);
      if (!fit.ok && (detected.format === 'csv' || detected.format === 'tsv')) {
        // Too big to hold: query it where it lies, as a view over the file.
        this.#ingesting = loadId;
        try {
          return await this.#attachView(engine, blob, name, detected.format, loadId, tableNameFor(name, taken), fit.message);
        } finally {
          this.#ingesting = null;
        }
      }
      if (!fit.ok) return { ok: false as const, fileName: name, message: fit.message, suggestion: fit.suggestion };
      this.#ingesting = loadId;
      try {
        const made = await this.#ingest(engine, blob, name, detected.format, loadId, (sheet, count) => {
          const n = count > 1 && sheet !== undefined ? tableNameFor(name, taken, sheet) : tableNameFor(name, taken);
          taken.add(n);
          return n;
        }, sheets);
        return made;
      } finally {
        this.#ingesting = null;
      }
    });
    if (this.#cancelledLoads.has(loadId)) {
      // Cancelled as the ingest ended: what it made goes too.
      if (built.ok) for (const t of built.tables) await this.#serial.run(() => engine.query(`DROP TABLE IF EXISTS ${quoteIdent(t.info.name)}`)).catch(() => undefined);
      return this.#cancelledOutcome(loadId, name);
    }
    if (!built.ok) return built;
    warnings.push(...built.warnings);

    for (const t of built.tables) if (t.info.format === 'csv' || t.info.format === 'tsv') this.#sources.set(t.info.name, blob);
    const viewOnly = built.tables.some((t) => t.info.view);
    if (!viewOnly && blob.size >= SAVE_AFTER_BYTES && (await this.#writable())) {
      // A big file: the table is usable now, and its copy for the next visit is written meanwhile.
      for (const t of built.tables) this.#datasets.set(t.info.name, { ...t.info, persisted: false, saving: true });
      this.#progress(loadId, name, 'done', 1);
      this.#changed();
      void this.#saveInBackground(blob, built.tables, loadId, name);
      return { ok: true, datasets: built.tables.map((t) => this.#datasets.get(t.info.name) ?? t.info), warnings };
    }
    const persisted = viewOnly ? { ok: false } : await this.#persist(blob, built.tables, loadId, name);
    if (persisted.warning) warnings.push(persisted.warning);
    for (const t of built.tables) {
      t.info.persisted = persisted.ok;
      this.#datasets.set(t.info.name, t.info);
    }
    this.#progress(loadId, name, 'done', 1);
    this.#changed();
    // The snapshot is written after the load answered: the table is usable meanwhile.
    if (persisted.ok) for (const t of built.tables) void this.#saveSnapshot(t.info.name);
    return { ok: true, datasets: built.tables.map((t) => t.info), warnings };
  }

  /** The copy of a big load for the next visit, after the load answered; the list says when it is done. */
  async #saveInBackground(blob: Blob, tables: Built[], loadId: string, fileName: string): Promise<void> {
    const saved = await this.#persist(blob, tables, loadId, fileName);
    const storage = await this.#writable();
    for (const t of tables) {
      const now = this.#datasets.get(t.info.name);
      if (!now) {
        // Removed or renamed while it was being saved: the next visit must not bring it back.
        if (saved.ok) await storage?.remove(t.info.name).catch(() => undefined);
        continue;
      }
      const { saving: _saving, ...rest } = now;
      this.#datasets.set(t.info.name, { ...rest, persisted: saved.ok });
      if (saved.ok) void this.#saveSnapshot(t.info.name);
    }
    this.#changed();
  }

  /**
   * A CSV too big for memory as a view over the registered file: DuckDB streams it for every
   * query, so its size is bounded by the disk, not the tab. Counting its rows reads it once.
   */
  async #attachView(
    engine: Engine,
    blob: Blob,
    fileName: string,
    format: 'csv' | 'tsv',
    loadId: string,
    table: string,
    why: string,
  ): Promise<{ ok: true; tables: Built[]; warnings: string[] } | { ok: false; fileName: string; message: string; suggestion?: string }> {
    const encoding = detectEncoding(await readHead(blob));
    if (encoding.encoding !== 'utf-8') {
      return { ok: false, fileName, message: `${why} A file this big can be queried in place only when it is UTF-8 text.`, suggestion: 'Convert it to UTF-8 (or split it) and add it again.' };
    }
    const path = `${REGISTERED_DIR}view_${++this.#seq}.${format}`;
    await engine.registerBlob(path, blob);
    this.#progress(loadId, fileName, 'parsing', undefined, 'counting rows: the file stays on disk');
    this.#progressSink = (pct) => this.#progress(loadId, fileName, 'parsing', Math.min(1, pct / 100), 'counting rows: the file stays on disk');
    try {
      const source = readCsvSql(path, { encoding: 'utf-8', tsv: format === 'tsv', fullSample: false });
      await engine.query(`CREATE VIEW ${quoteIdent(table)} AS SELECT * FROM ${source}`);
      // A view cannot be altered: it is made again with its time-zone columns read as UTC.
      const zoned = engine.extensions?.icu ? [] : zonedColumns(await columnTypes(engine, table));
      if (zoned.length > 0) await engine.query(`CREATE OR REPLACE VIEW ${quoteIdent(table)} AS SELECT ${utcSelectList(zoned)} FROM ${source}`);
      const info = await this.#info(engine, table, fileName, format, blob.size, undefined, { reader: readerLabel(format, engine), findings: [], timeZones: zoned.map((column) => ({ column, stored: 'utc' as const })) });
      this.#views.set(table, path);
      const warning = `${fileName} is bigger than this tab's memory, so ${table} is a view over the file: every query reads the file again (slower, but nothing is held in memory). It is not saved: add the file again after a reload.`;
      return { ok: true, tables: [{ info: { ...info, view: true } }], warnings: [warning] };
    } catch (e) {
      await engine.query(`DROP VIEW IF EXISTS ${quoteIdent(table)}`).catch(() => undefined);
      await engine.dropFile(path).catch(() => undefined);
      return { ok: false, fileName, message: `Could not read ${fileName} as ${format === 'tsv' ? 'TSV' : 'CSV'}: ${briefError(e)}` };
    } finally {
      this.#progressSink = undefined;
    }
  }

  /** Views over big files, by name: the registered path each reads. */
  #views = new Map<string, string>();

  /** DROP for a dataset, whichever kind it is. */
  #dropSql(name: string): string {
    return this.#views.has(name) ? `DROP VIEW IF EXISTS ${quoteIdent(name)}` : `DROP TABLE IF EXISTS ${quoteIdent(name)}`;
  }

  /** Turns a source into tables; all or nothing (tables made before a failure are dropped). */
  async #ingest(
    engine: Engine,
    blob: Blob,
    fileName: string,
    format: DataFormat,
    loadId: string,
    nameFor: (sheet: string | undefined, count: number) => string,
    sheets?: string[],
    /** A load report's fix in force for this CSV. */
    csvOptions?: CsvReadOverrides,
  ): Promise<{ ok: true; tables: Built[]; warnings: string[] } | { ok: false; fileName: string; message: string; suggestion?: string }> {
    const seq = ++this.#seq;
    const made: string[] = [];
    const warnings: string[] = [];
    const fail = async (message: string, suggestion?: string) => {
      for (const t of made) await engine.query(`DROP TABLE IF EXISTS ${quoteIdent(t)}`).catch(() => undefined);
      return { ok: false as const, fileName, message, ...(suggestion ? { suggestion } : {}) };
    };
    const tables: Built[] = [];
    try {
      if (format === 'csv' || format === 'tsv') {
        const encoding = detectEncoding(await readHead(blob));
        const table = nameFor(undefined, 1);
        // DuckDB's CSV progress is the share of the file's bytes scanned: say it in bytes too.
        const size = blob.size;
        this.#progress(loadId, fileName, 'parsing', 0, `0 of ${megabytes(size)}`);
        this.#progressSink = (pct) => {
          const f = Math.min(1, pct / 100);
          this.#progress(loadId, fileName, 'parsing', f, `${megabytes(size * f)} of ${megabytes(size)}`);
        };
        let findings: LoadFinding[] = [];
        const r = await ingestCsv({
          engine,
          blob,
          fileName,
          tsv: format === 'tsv',
          encoding,
          table,
          path: `${REGISTERED_DIR}src_${seq}.${format}`,
          ...(csvOptions ? { overrides: csvOptions } : {}),
          whileRegistered: async (path, read) => {
            findings = await csvFindings(engine, table, await columnTypes(engine, table), path, read);
          },
        });
        if (!r.ok) return await fail(r.message, r.suggestion);
        made.push(table);
        warnings.push(...r.warnings);
        const report = { reader: readerLabel(format, engine), findings, ...(csvOptions ? { readOptions: csvOptions } : {}) };
        tables.push({ info: await this.#info(engine, table, fileName, format, blob.size, undefined, report) });
      } else if (format === 'parquet' && engine.extensions?.parquet) {
        const table = nameFor(undefined, 1);
        this.#progress(loadId, fileName, 'parsing', 0);
        try {
          await ingestParquetNative(engine, blob, table, `${REGISTERED_DIR}src_${seq}.parquet`);
        } catch (e) {
          return await fail(`Could not read ${fileName}: ${briefError(e)}`);
        }
        made.push(table);
        tables.push({ info: await this.#info(engine, table, fileName, format, blob.size, undefined, { reader: readerLabel(format, engine), findings: [] }) });
      } else {
        this.#progress(loadId, fileName, 'parsing', 0);
        const convert = format === 'parquet' ? this.#deps.readers.parquet : format === 'arrow' ? this.#deps.readers.arrow : format === 'xlsx' ? this.#deps.readers.excel : this.#deps.readers.json;
        let converted: ConvertedTable[];
        try {
          converted = await convert(blob, { onProgress: (f) => this.#progress(loadId, fileName, 'parsing', f), ...(sheets ? { sheets } : {}) });
        } catch (e) {
          return await fail(`Could not read ${fileName}: ${messageOf(e)}`);
        }
        if (converted.length === 0) return await fail(`${fileName} has no data to load (no non-empty sheet or table).`);
        for (const [i, ct] of converted.entries()) {
          const table = nameFor(ct.sheet, converted.length);
          const scratch = `__dataseer_load_${seq}_${i}`;
          try {
            await ingestArrowStreams(
              engine,
              ct,
              table,
              scratch,
              (n) => this.#progress(loadId, fileName, 'inserting', undefined, `${n} batch${n === 1 ? '' : 'es'}${ct.sheet ? ` of ${ct.sheet}` : ''}`),
              () => {
                if (this.#cancelledLoads.has(loadId)) throw new Error('cancelled');
              },
            );
          } catch (e) {
            return await fail(`Could not load ${fileName}${ct.sheet ? ` (sheet ${ct.sheet})` : ''}: ${messageOf(e)}`);
          }
          made.push(table);
          this.#progress(loadId, fileName, 'inserting', (i + 1) / converted.length);
          const report = { reader: readerLabel(format, engine), findings: [], timeZones: (ct.utcColumns ?? []).map((column) => ({ column, stored: 'utc' as const })) };
          const info = await this.#info(engine, table, fileName, format, blob.size, ct.sheet, report);
          tables.push(ct.sheet === undefined ? { info } : { info, sheet: ct.sheet });
        }
      }
    } catch (e) {
      return await fail(`Could not load ${fileName}: ${messageOf(e)}`);
    } finally {
      this.#progressSink = undefined;
    }
    for (const t of tables) {
      if (t.info.columns.length > 0 && t.info.rowCount === 0) warnings.push(`${t.info.name} has column headers but no rows.`);
    }
    return { ok: true, tables, warnings };
  }

  /**
   * A made table's info. With a report, its time-zone columns are settled first (timeZones.ts):
   * kept with ICU, else converted to UTC TIMESTAMP, and the report says which.
   */
  async #info(
    engine: Engine,
    name: string,
    fileName: string,
    format: DataFormat,
    sizeBytes: number,
    sheet?: string,
    report?: Omit<LoadReport, 'timeZones'> & { timeZones?: LoadReport['timeZones'] },
  ): Promise<DatasetInfo> {
    const settled = report && !report.timeZones ? await settleTimeZones(engine, name, await columnTypes(engine, name), engine.extensions?.icu ?? false) : [];
    const { columns, rowCount } = await describeTable(engine, name);
    const full = report ? { ...report, timeZones: [...(report.timeZones ?? []), ...settled] } : undefined;
    return { name, fileName, format, ...(sheet === undefined ? {} : { sheet }), rowCount, columns, sizeBytes, loadedAt: Date.now(), persisted: false, ...(full ? { report: full } : {}) };
  }

  /** Stores the source bytes and manifest; a failure only costs persistence, never the dataset. */
  async #persist(blob: Blob, tables: Built[], loadId: string, fileName: string): Promise<{ ok: boolean; warning?: string }> {
    const storage = await this.#storageReady();
    if (!storage) return { ok: false, warning: `${fileName} will not survive a reload: this browser offers no storage to this page.` };
    if (!(await this.#mayWrite())) {
      return { ok: false, warning: `${fileName} is loaded in this tab only: Dataseer is open in another tab, which keeps the saved datasets. Close the other tab and reload this one to save here.` };
    }
    const key = `src_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 10)}`;
    try {
      this.#progress(loadId, fileName, 'storing', 0);
      await storage.sources.put(key, blob, (f) => this.#progress(loadId, fileName, 'storing', f));
      for (const t of tables) {
        const entry: ManifestEntry = { name: t.info.name, fileName, format: t.info.format, sourceKey: key, sizeBytes: blob.size, loadedAt: t.info.loadedAt };
        if (t.sheet !== undefined) entry.sheet = t.sheet;
        if (t.info.report) entry.report = t.info.report;
        await storage.putEntry(entry);
      }
      return { ok: true };
    } catch (e) {
      for (const t of tables) await storage.remove(t.info.name).catch(() => undefined);
      await storage.sources.delete(key).catch(() => undefined);
      const why = isQuotaError(e) ? 'the browser storage quota is full' : messageOf(e);
      return { ok: false, warning: `${fileName} is loaded but will not survive a reload: ${why}.` };
    }
  }

  /**
   * Writes a dataset's snapshot (after a load, after SQL changed it). Queued behind the engine's
   * other work; a failure only means the next start re-reads the source.
   */
  #saveSnapshot(name: string): Promise<void> {
    const pending = this.#snapshots.get(name);
    if (pending) {
      // One more write after the one in flight, so the last change is the one saved.
      this.#snapshotAgain.add(name);
      return pending;
    }
    const run = (async () => {
      const storage = await this.#writable();
      const engine = await this.#engineReady();
      await this.#restored;
      // A snapshot holds the engine while it streams the table out: it waits until the user's
      // queries have paused, so the first queries after a load never queue behind it.
      await this.#quiet(this.#deps.snapshotIdleMs ?? 2_000);
      if (!storage || !this.#datasets.has(name)) return;
      try {
        // Described and written in one turn of the queue, so the snapshot matches what it says.
        const { columns, rowCount, blob } = await this.#serial.run(async () => {
          const described = await describeTable(engine, name);
          return { ...described, blob: await writeSnapshot(engine, name, described.columns) };
        });
        const key = `snap_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 10)}`;
        await storage.sources.put(key, blob);
        await storage.setSnapshot(name, key, columns, rowCount);
      } catch {
        // Kept from its source instead.
      }
    })().finally(() => {
      this.#snapshots.delete(name);
      if (this.#snapshotAgain.delete(name)) void this.#saveSnapshot(name);
    });
    this.#snapshots.set(name, run);
    return run;
  }

  async #quiet(ms: number): Promise<void> {
    for (;;) {
      const wait = this.#lastRequestAt + ms - performance.now();
      if (wait <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Resolves once every snapshot write in flight has finished (tests, shutdown). */
  async snapshotsSettled(): Promise<void> {
    while (this.#snapshots.size > 0) await Promise.all(this.#snapshots.values());
  }

  /** Brings a saved group back from its snapshots; false when any is missing or fails to load. */
  async #restoreFromSnapshots(engine: Engine, storage: DatasetStorage, group: ManifestEntry[]): Promise<boolean> {
    if (!group.every((e) => e.snapshotKey && e.columns && e.rowCount !== undefined)) return false;
    const made: string[] = [];
    try {
      for (const entry of group) {
        const blob = entry.snapshotKey ? await storage.sources.get(entry.snapshotKey) : undefined;
        if (!blob || !entry.columns) throw new Error('snapshot missing');
        const columns = entry.columns;
        await this.#serial.run(() => restoreSnapshot(engine, blob, entry.name, columns, `__dataseer_restore_${++this.#seq}`));
        made.push(entry.name);
        const rowCount = entry.rowCount ?? 0;
        const info: DatasetInfo = {
          name: entry.name,
          fileName: entry.fileName,
          format: entry.format,
          ...(entry.sheet === undefined ? {} : { sheet: entry.sheet }),
          rowCount,
          columns,
          sizeBytes: entry.sizeBytes,
          loadedAt: entry.loadedAt,
          persisted: true,
          ...(entry.report ? { report: entry.report } : {}),
        };
        this.#datasets.set(entry.name, info);
      }
      return true;
    } catch {
      for (const name of made) {
        this.#datasets.delete(name);
        await this.#serial.run(() => engine.query(`DROP TABLE IF EXISTS ${quoteIdent(name)}`)).catch(() => undefined);
      }
      return false;
    }
  }

  /** Brings every persisted dataset back under its saved name: from its snapshot, else its source. */
  async #restore(engine: Engine): Promise<void> {
    const storage = await this.#storageReady();
    if (!storage) {
      // The page may have named saved datasets from the manifest: say the restore is over.
      this.#progress('restore', '', 'done', 1);
      return;
    }
    const entries = await storage.entries().catch(() => [] as ManifestEntry[]);
    const groups = new Map<string, ManifestEntry[]>();
    for (const e of entries) groups.set(e.sourceKey, [...(groups.get(e.sourceKey) ?? []), e]);
    let done = 0;
    // Name every saved dataset at once, so the page can say what is coming back.
    for (const [key, group] of groups) if (group[0]) this.#progress(`restore:${key}`, group[0].fileName, 'restoring', 0, 'waiting');
    for (const [key, group] of groups) {
      const first = group[0];
      if (!first) continue;
      const loadId = `restore:${key}`;
      this.#progress(loadId, first.fileName, 'restoring', done / groups.size);
      if (await this.#restoreFromSnapshots(engine, storage, group)) {
        done++;
        this.#changed();
        this.#progress(loadId, first.fileName, 'done', 1);
        continue;
      }
      const blob = await storage.sources.get(key);
      const forget = async () => {
        // Only the tab that writes the storage forgets entries: another tab may be mid-write.
        if (!(await this.#mayWrite())) return;
        for (const e of group) await storage.remove(e.name).catch(() => undefined);
      };
      if (!blob) {
        await forget();
        this.#progress(loadId, first.fileName, 'done', 1);
        continue;
      }
      const bySheet = new Map(group.map((e) => [e.sheet, e]));
      const sheets = first.format === 'xlsx' ? group.map((e) => e.sheet).filter((s): s is string => s !== undefined) : undefined;
      const built = await this.#serial.run(() =>
        this.#ingest(engine, blob, first.fileName, first.format, loadId, (sheet) => bySheet.get(sheet)?.name ?? first.name, sheets, first.report?.readOptions),
      );
      if (!built.ok) {
        // The saved bytes no longer load (say, a reader changed): drop them rather than fail every start.
        this.#progress(loadId, first.fileName, 'restoring', undefined, built.message);
        await forget();
        this.#progress(loadId, first.fileName, 'done', 1);
        continue;
      }
      for (const t of built.tables) {
        const saved = group.find((e) => e.name === t.info.name);
        this.#datasets.set(t.info.name, { ...t.info, persisted: true, loadedAt: saved?.loadedAt ?? t.info.loadedAt });
        // Next start takes the fast path.
        void this.#saveSnapshot(t.info.name);
      }
      done++;
      this.#changed();
      this.#progress(loadId, first.fileName, 'done', 1);
    }
    const keep = new Set([...groups.keys(), ...entries.flatMap((e) => (e.snapshotKey ? [e.snapshotKey] : []))]);
    if (await this.#mayWrite()) await storage.sweep(keep).catch(() => undefined);
    // Always said, even with nothing to restore: the page may have named datasets from the manifest.
    this.#progress('restore', '', 'done', 1);
    if (groups.size > 0) this.#changed();
  }

  // ---- load report fixes --------------------------------------------------------------------

  /** This session's loaded sources by dataset, for a re-read before (or without) their saved copy. */
  readonly #sources = new Map<string, Blob>();

  async #sourceOf(name: string): Promise<Blob | undefined> {
    const kept = this.#sources.get(name);
    if (kept) return kept;
    const storage = await this.#storageReady();
    const entry = (await storage?.entries().catch(() => []))?.find((e) => e.name === name);
    return entry ? await storage?.sources.get(entry.sourceKey) : undefined;
  }

  async reread(name: string, options: CsvReadOverrides): Promise<RereadOutcome> {
    const engine = await this.#ready();
    const info = this.#datasets.get(name);
    if (!info) return { ok: false, message: `No dataset named ${name}.` };
    if ((info.format !== 'csv' && info.format !== 'tsv') || info.view) return { ok: false, message: `${name} is not a CSV table that can be read again.` };
    const blob = await this.#sourceOf(name);
    if (!blob) return { ok: false, message: `The file ${info.fileName} is no longer available: add it again.` };
    const format = info.format;
    const outcome = await this.#serial.run(async (): Promise<RereadOutcome> => {
      const seq = ++this.#seq;
      const scratch = `__dataseer_reread_${seq}`;
      let findings: LoadFinding[] = [];
      const applied = isEmptyOverrides(options) ? undefined : options;
      const r = await ingestCsv({
        engine,
        blob,
        fileName: info.fileName,
        tsv: format === 'tsv',
        encoding: detectEncoding(await readHead(blob)),
        table: scratch,
        path: `${REGISTERED_DIR}src_${seq}.${format}`,
        ...(applied ? { overrides: applied } : {}),
        whileRegistered: async (path, read) => {
          findings = await csvFindings(engine, scratch, await columnTypes(engine, scratch), path, read);
        },
      });
      if (!r.ok) return { ok: false, message: r.message };
      await engine.query(`DROP TABLE IF EXISTS ${quoteIdent(name)}`);
      await engine.query(`ALTER TABLE ${quoteIdent(scratch)} RENAME TO ${quoteIdent(name)}`);
      const original = info.report?.original ?? info.report?.findings ?? [];
      const report = { reader: readerLabel(format, engine), findings, ...(applied ? { readOptions: applied, original } : {}) };
      const fresh = await this.#info(engine, name, info.fileName, format, info.sizeBytes, undefined, report);
      return { ok: true, dataset: { ...fresh, persisted: info.persisted, loadedAt: info.loadedAt } };
    });
    if (!outcome.ok) return outcome;
    this.#datasets.set(name, outcome.dataset);
    const storage = await this.#writable();
    const entry = (await storage?.entries().catch(() => []))?.find((e) => e.name === name);
    if (storage && entry && outcome.dataset.report) {
      // The next start restores the snapshot; a restore from the source reads with the same options.
      await storage.putEntry({ ...entry, report: outcome.dataset.report }).catch(() => undefined);
      void this.#saveSnapshot(name);
    }
    this.#changed();
    return outcome;
  }

  // ---- list changes -------------------------------------------------------------------------

  async remove(name: string): Promise<DatasetInfo[]> {
    const engine = await this.#ready();
    await this.#serial.run(() => engine.query(this.#dropSql(name)));
    this.#sources.delete(name);
    const viewPath = this.#views.get(name);
    if (viewPath) {
      this.#views.delete(name);
      await engine.dropFile(viewPath).catch(() => undefined);
    }
    this.#datasets.delete(name);
    await (await this.#writable())?.remove(name).catch(() => undefined);
    return this.#changed();
  }

  async rename(from: string, to: string): Promise<DatasetInfo[]> {
    const engine = await this.#ready();
    const info = this.#datasets.get(from);
    if (!info) throw new Error(`No dataset named ${from}.`);
    const target = sanitizeName(to);
    if (target === from) return this.#list();
    const taken = await this.#serial.run(() => tableNames(engine));
    if (uniqueName(target, taken) !== target) throw new Error(`A table named ${target} already exists.`);
    const viewPath = this.#views.get(from);
    await this.#serial.run(() => engine.query(`ALTER ${viewPath ? 'VIEW' : 'TABLE'} ${quoteIdent(from)} RENAME TO ${quoteIdent(target)}`));
    if (viewPath) {
      this.#views.delete(from);
      this.#views.set(target, viewPath);
    }
    this.#datasets.delete(from);
    this.#datasets.set(target, { ...info, name: target });
    await (await this.#writable())?.rename(from, target).catch(() => undefined);
    return this.#changed();
  }

  // ---- queries ------------------------------------------------------------------------------

  async query(sql: string, maxRows: number) {
    const engine = await this.#ready();
    // Read before the run: DuckDB's lexer finds the renames (a dropped table cannot be planned after).
    const assessed = await this.#serial.run(() => assessStatements(engine, sql)).catch(() => []);
    const outcome = await this.#serial.run(() => runQuery(engine, sql, maxRows));
    const renames = assessed.flatMap((a) => {
      const r = renameIn(a.stmt);
      return r ? [r] : [];
    });
    // Every dataset a writing statement names (or all of them, when DuckDB could not read the
    // script) is described again; the catalog decides which still exist.
    const writing = assessed.filter(mayWrite);
    const touched = new Set<string>(assessed.length === 0 || writing.some((a) => a.targets.some((t) => t.name === '*')) ? ['*'] : []);
    for (const a of writing) for (const t of a.stmt.tokens) touched.add((nameOf(t) ?? '').toLowerCase());
    if (writing.length > 0 || assessed.length === 0) await this.#reconcile(engine, renames, touched);
    return outcome;
  }

  /**
   * After a console statement that may have written, brings the dataset list in line with DuckDB's
   * catalog: a dataset that is gone leaves the list (or follows its rename), a touched one is
   * described again (and its snapshot rewritten).
   */
  async #reconcile(engine: Engine, renames: { from: string; to: string }[], touched: Set<string>): Promise<void> {
    const storage = await this.#writable();
    const existing = new Set(await this.#serial.run(() => mainTableNames(engine)));
    let changed = false;
    for (const [name, info] of [...this.#datasets]) {
      if (existing.has(name)) {
        if (!touched.has(name.toLowerCase()) && !touched.has('*')) continue;
        const fresh = await this.#serial.run(() => describeTable(engine, name)).catch(() => undefined);
        if (fresh) this.#datasets.set(name, { ...info, ...fresh });
        changed = true;
        // The edit survives a reload: the snapshot is what the next start restores.
        if (info.persisted) void this.#saveSnapshot(name);
        continue;
      }
      const rename = renames.find((r) => r.from === name.toLowerCase() && existing.has(r.to));
      this.#datasets.delete(name);
      if (rename) {
        this.#datasets.set(rename.to, { ...info, name: rename.to });
        await storage?.rename(name, rename.to).catch(() => undefined);
      } else {
        this.#dropped.set(name, info);
        await storage?.remove(name).catch(() => undefined);
      }
      changed = true;
    }
    // A ROLLBACK in the console brings back what a DROP in its transaction took: so does the list
    // (its saved copy was already forgotten: it is kept for this session only).
    for (const [name, info] of [...this.#dropped]) {
      if (!existing.has(name) || this.#datasets.has(name)) continue;
      this.#dropped.delete(name);
      const fresh = await this.#serial.run(() => describeTable(engine, name)).catch(() => undefined);
      this.#datasets.set(name, { ...info, ...(fresh ?? {}), persisted: false });
      changed = true;
    }
    if (changed) this.#changed();
  }

  /** Datasets a console statement dropped, in case a ROLLBACK brings them back. */
  readonly #dropped = new Map<string, DatasetInfo>();

  async page(name: string, offset: number, limit: number, maxColumns?: number): Promise<QueryResult> {
    const engine = await this.#ready();
    const info = this.#datasets.get(name);
    const lim = Math.max(0, Math.min(MAX_PAGE, Math.floor(limit)));
    const off = Math.max(0, Math.floor(offset));
    // A 5,000-column table would otherwise send millions of cells for one screen of rows.
    const cols = info && maxColumns !== undefined && info.columns.length > maxColumns ? info.columns.slice(0, Math.max(1, maxColumns)) : undefined;
    const select = cols ? cols.map((c) => quoteIdent(c.name)).join(', ') : '*';
    const started = performance.now();
    const result = await this.#serial.run(() => collectRows(engine, `SELECT ${select} FROM ${quoteIdent(name)} LIMIT ${lim} OFFSET ${off}`, lim, cols ?? info?.columns));
    return { ...result, truncated: false, elapsedMs: performance.now() - started };
  }
}

