/**
 * The data worker's boundary (main thread ⇄ data worker, and python/agent workers ⇄ data worker
 * over MessageChannel ports). Requests pair with results through `DataRequests`; progress and
 * dataset-list changes arrive as `DataEvent`s.
 */
import type { LoadReport, ReadOverrides } from './loadReport';

export type DataFormat = 'csv' | 'tsv' | 'parquet' | 'json' | 'ndjson' | 'arrow' | 'xlsx';

export interface ColumnInfo {
  name: string;
  /** DuckDB's type name, e.g. BIGINT, DOUBLE, VARCHAR, DATE. */
  type: string;
}

export interface DatasetInfo {
  /** The SQL table name (contract rule: lower-cased file stem, other runs → `_`, clashes `_2`…). */
  name: string;
  /** The file it came from (or the URL's last segment, or "pasted.csv"). */
  fileName: string;
  format: DataFormat;
  /** For Excel: the sheet this table holds. */
  sheet?: string;
  rowCount: number;
  columns: ColumnInfo[];
  /** Size of the source bytes. */
  sizeBytes: number;
  loadedAt: number;
  /** False when persisting failed (quota…): the table works now but will not survive a reload. */
  persisted: boolean;
  /**
   * True for a file too big for the tab's memory, attached as a view over the file: every query
   * reads the file again (nothing is held in memory), and it is not saved.
   */
  view?: boolean;
  /** True while a big file's copy for the next visit is being written (the table is usable). */
  saving?: boolean;
  /** What the load found and did (loadReport.ts); absent for tables made before reports existed. */
  report?: LoadReport;
}

/** What the page sends to load: bytes it holds (it downloads a URL itself; the workers have no network). */
export type LoadSource = { kind: 'file'; file: File } | { kind: 'text'; text: string; fileName: string };

export interface LoadOptions {
  /** Excel: load only these sheets (default: every non-empty sheet). */
  sheets?: string[];
  /** Correlates progress events with the request. */
  loadId: string;
}

/** A load either adds datasets or explains, naming the file and the cause. Errors are values. */
export type LoadOutcome =
  | { ok: true; datasets: DatasetInfo[]; warnings: string[] }
  /** `cancelled`: the user's Cancel ended it (nothing was kept; no error to show). */
  | { ok: false; fileName: string; message: string; suggestion?: string; cancelled?: boolean };

/** `cancelled`: the user's Cancel stopped it before the swap: the table is as it was before. */
export type RereadOutcome = { ok: true; dataset: DatasetInfo } | { ok: false; message: string; cancelled?: true };

/** A query result: rows as an Arrow IPC stream (transferred, not copied). */
export interface QueryResult {
  columns: ColumnInfo[];
  ipc: Uint8Array;
  /** Rows in `ipc`. */
  rowCount: number;
  /** True when the statement produced more rows than `maxRows`. */
  truncated: boolean;
  elapsedMs: number;
}

/** `cancelled` (issue 37): the user's Cancel stopped it (DuckDB interrupted, or it never started). */
export type QueryOutcome = { ok: true; result: QueryResult } | { ok: false; message: string; cancelled?: true };

export interface HistogramBin {
  lo: number;
  hi: number;
  count: number;
}

export interface ColumnProfile {
  name: string;
  type: string;
  nulls: number;
  distinct: number;
  min?: number | string;
  max?: number | string;
  mean?: number;
  std?: number;
  /** Most frequent values for text-like columns. */
  top?: { value: string; count: number }[];
  /** Equal-width histogram for numeric columns. */
  histogram?: HistogramBin[];
}

/**
 * How many columns one profile covers (issue 37): a wider table is profiled a page of columns at a
 * time (`profile`'s `from`), which keeps each statement block and each page's cards bounded.
 */
export const PROFILE_PAGE_COLUMNS = 300;

export interface DatasetProfile {
  name: string;
  rowCount: number;
  columns: ColumnProfile[];
  /** The 0-based index in the table of `columns[0]` (absent: 0, the profile starts at the first column). */
  firstColumn?: number;
  elapsedMs: number;
  /**
   * Which statistics are estimates (a big table's exact ones would not fit in memory or time):
   * `distinct` by HyperLogLog (approx_count_distinct); `topSampleRows`: top values counted in a
   * reservoir sample of that many rows and scaled to the table; `histogramSampleRows`: histogram
   * bars counted in a reservoir sample of that many rows and scaled to the table (a long view:
   * exact bars would read its file once more). Absent: everything is exact.
   */
  approximate?: { distinct: boolean; topSampleRows?: number; histogramSampleRows?: number };
}

/** How far a running profile has got: `done` of `total` statements (one per block of columns). */
export interface ProfileProgress {
  done: number;
  total: number;
}

/** The agent's `profile_data` view of one dataset, in one request (`profileSample`). */
export interface ProfileSample {
  /** Every column of the dataset, in table order. */
  columns: string[];
  /**
   * The asked columns that exist (with none asked, the first columns up to the profile's limit),
   * in table order: counts and min/max/mean, without histograms or top values.
   */
  profile: DatasetProfile;
  /** The first rows of those columns. */
  sample: QueryResult;
}

/** `found: false`: no loaded dataset has that name; `datasets` are the names there are. */
export type ProfileSampleOutcome = ({ found: true } & ProfileSample) | { found: false; datasets: string[] };

/**
 * (issue 32) The datasets a query reads, by DuckDB's binder (`queryTables`); a query the agent
 * could not run as model SQL is refused with DuckDB's reason.
 */
export type QueryTablesOutcome = { ok: true; tables: string[] } | { ok: false; message: string };

/** Which loaded datasets a statement would drop, alter, replace or delete from. */
export interface SqlRisk {
  destructive: boolean;
  datasets: string[];
  statement: string;
}

export type DataRequests = {
  /** Starts DuckDB and restores persisted datasets. */
  /**
   * `readOnlyStorage`: another tab of the app writes the saved datasets; this one reads them but
   * saves nothing (absent from older workers: false).
   */
  init: {
    req: Record<string, never>;
    res: {
      duckdbVersion: string;
      datasets: DatasetInfo[];
      persistent: boolean;
      readOnlyStorage?: boolean;
      /** When each step of DuckDB's start ended (epoch ms, in order): explains the cold start. */
      engineStart?: { phase: string; at: number }[];
    };
  };
  load: { req: { source: LoadSource; options: LoadOptions }; res: LoadOutcome };
  /**
   * Reads a CSV/TSV dataset's file again with a load report's fix (`{}`: as first detected) and
   * replaces its table under the same name; a failed re-read leaves the table as it was.
   * `loadId` (additive, issue 37): its `progress` events carry it and `cancelLoad` with it stops
   * the re-read before the swap (the table stays as it was; the outcome says `cancelled`).
   */
  reread: { req: { name: string; options: ReadOverrides; loadId?: string }; res: RereadOutcome };
  /** Lists an Excel workbook's sheets so the user can pick. */
  excelSheets: { req: { file: File }; res: { sheets: string[] } };
  list: { req: Record<string, never>; res: DatasetInfo[] };
  remove: { req: { name: string }; res: DatasetInfo[] };
  rename: { req: { from: string; to: string }; res: DatasetInfo[] };
  /** The SQL console's (and notebook's) SQL: it may change datasets, after the page asked. */
  /**
   * `queryId` (additive, issue 37): names the run, so `cancel` with it stops this query only —
   * running (DuckDB interrupted) or still queued (it never runs) — and `queryProgress` events
   * report DuckDB's progress on it.
   */
  consoleQuery: { req: { sql: string; maxRows?: number; queryId?: string }; res: QueryOutcome };
  /**
   * With `queryId`: stops that console query, or a peer's `modelQuery` named so (a halted Python
   * run's `sql()`: `runQueryId`), running or queued (it answers `cancelled`), never another
   * statement. Without: interrupts the page's own statement if DuckDB is running one; its
   * `query` then answers with an error. Not queued behind it. A peer's `cancel` stops only that
   * peer's statement (DataPeerRequests).
   */
  cancel: { req: { queryId?: string }; res: { cancelled: boolean } };
  /** Cancels a load (running or queued): what it made is dropped; its `load` answers `cancelled`. */
  cancelLoad: { req: { loadId: string }; res: { cancelled: boolean } };
  /** A window of a dataset's rows, for the virtualised preview grid. */
  /**
   * `queryId` (additive, issue 37): `cancel({ queryId })` stops this window's read — over a view of
   * a big file each far window is a scan — running (DuckDB interrupted) or queued; it then fails
   * with `PAGE_CANCELLED`.
   */
  page: { req: { name: string; offset: number; limit: number; /** Only the first N columns (wide tables). */ maxColumns?: number; queryId?: string }; res: QueryResult };
  /**
   * `profileId` (additive): names the run so `cancelProfile` can stop it and `profileProgress`
   * events can report on it. `from` (additive, issue 37): the 0-based index of the first column to
   * profile; the profile covers PROFILE_PAGE_COLUMNS columns from there (absent: from the first),
   * so a 2,000-column table is profiled a page at a time.
   */
  profile: { req: { name: string; profileId?: string; from?: number }; res: DatasetProfile };
  /** Stops a running profile (its `profile` call then fails with "Profile cancelled."). */
  cancelProfile: { req: { profileId: string }; res: { cancelled: boolean } };
  /**
   * Additive: what the agent's `profile_data` needs of a loaded dataset in one trip — its column
   * names, the statistics of the asked columns (names that are not columns are ignored) and
   * their first `sampleRows` rows.
   */
  profileSample: { req: { name: string; columns?: string[]; sampleRows: number }; res: ProfileSampleOutcome };
  /** Classifies a statement before it runs, so the UI can ask first. */
  assess: { req: { sql: string }; res: SqlRisk };
  /** (issue 32) The datasets a query reads, as DuckDB binds it (a trusted query's tables). Nothing is run. */
  queryTables: { req: { sql: string }; res: QueryTablesOutcome };
  /**
   * Hands the data worker a port another worker will send DataRequests on. A peer's new port
   * replaces its previous one, which the data worker stops serving and closes.
   */
  connect: { req: { port: MessagePort; peer: DataPeer }; res: Record<string, never> };
};

/** The workers that hold a port to the data worker. */
export type DataPeer = 'agent' | 'python';

/** The id a peer's run gives its DuckDB statements (`modelQuery`'s `queryId`), from the run's own id. */
export function runQueryId(peer: DataPeer, runId: string): string {
  return `${peer}-run:${runId}`;
}

/**
 * Everything a peer (the agent, model-written Python) may ask the data worker, and nothing else:
 * an allow-list, so a request added to `DataRequests` for the page is never open to a peer. No
 * request here loads, removes, renames, connects or changes a dataset.
 */
export type DataPeerRequests = {
  /** The datasets (peers also hear every change as a `datasets` event). */
  list: DataRequests['list'];
  /**
   * Model-written SQL: one read-only statement over the datasets, judged by DuckDB's own plan.
   * `queryId` (additive, issue 37): Python's `sql()` names its run's statements (`runQueryId`),
   * so the page's `cancel({ queryId })` on a halt stops them and nothing else; the mark stays, so
   * a halted run's later `sql()` calls answer `cancelled` at once.
   */
  modelQuery: { req: { sql: string; maxRows?: number; queryId?: string }; res: QueryOutcome };
  /** Interrupts this peer's own running statement (never the page's or the other peer's). */
  cancel: DataRequests['cancel'];
  profile: DataRequests['profile'];
  profileSample: DataRequests['profileSample'];
};

/** The error of a `page` request its Cancel stopped. */
export const PAGE_CANCELLED = 'Rows cancelled.';

export type LoadPhase = 'reading' | 'storing' | 'parsing' | 'inserting' | 'restoring' | 'done';

/** A saved source the restore brings back (an Excel workbook's sheets come back together). */
export interface RestoringSource {
  /** The id its restore's `progress` events carry (`restore:<key>`). */
  loadId: string;
  fileName: string;
  /** The datasets it holds, by their saved names. */
  datasets: string[];
  sizeBytes: number;
}

export type DataEvent =
  /**
   * What the restore will bring back, said once as it begins (from the saved manifest, before
   * DuckDB is up); each source's `progress` then follows by its `loadId`, and a `progress` with
   * `loadId: 'restore'` and phase `done` ends the restore. Not sent when nothing is saved.
   */
  | { type: 'restoring'; sources: RestoringSource[] }
  | { type: 'progress'; loadId: string; fileName: string; phase: LoadPhase; fraction?: number; detail?: string }
  /** The list, once per change of it: a load (its datasets added), a removal, a rename, a console change. */
  | { type: 'datasets'; datasets: DatasetInfo[] }
  /**
   * One dataset's entry, changed after the list announced it, the list otherwise the same: a big
   * file's load report checks and its copy for the next visit are done. Replace the entry of that
   * name (a name not in the list is a dataset gone meanwhile: ignore it).
   */
  | { type: 'dataset'; dataset: DatasetInfo }
  /** DuckDB's progress on a running console query given a `queryId` (0–1 of its work, DuckDB's estimate). */
  | { type: 'queryProgress'; queryId: string; fraction: number }
  /** A running profile's progress (only for a `profile` call given a `profileId`). */
  | ({ type: 'profileProgress'; profileId: string } & ProfileProgress)
  /**
   * A tab that could not write the saved datasets (another tab does) now holds the writer lock:
   * the other tab closed. It still does not write — what it restored may be out of date — until
   * it is reloaded.
   */
  | { type: 'storageFreed' };
