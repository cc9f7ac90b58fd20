import type { RecordBatch, Schema, Table } from 'apache-arrow';

/**
 * The slice of DuckDB the data engine uses. The browser implements it over AsyncDuckDB (its own
 * nested worker, see duckdbBoot.ts); tests implement it over the Node build of the same
 * DuckDB-WASM (testing/nodeEngine.ts), so every SQL-generating module runs against the real engine.
 */
/** DuckDB's lexer output: token start offsets and kinds (0 identifier, 1 number, 2 string, 3 operator, 4 keyword, 5 comment). */
export interface ScriptTokens {
  offsets: number[];
  types: number[];
}

export interface ResultStream {
  schema: Schema;
  batches: AsyncIterable<RecordBatch>;
}

/** One step of an engine's start, as wall-clock time (epoch ms) so another thread can place it. */
export interface StartPhase {
  phase: string;
  at: number;
}

/** Which of DuckDB's own extensions the engine loaded at set-up (extensions.ts), and how. */
export interface ExtensionState {
  icu: boolean;
  json: boolean;
  parquet: boolean;
  /** One line per extension: loaded from where, or why not. */
  detail: string[];
}

export interface Engine {
  /** When each step of the start ended, where the engine records it (the browser's does). */
  readonly startPhases?: readonly StartPhase[];
  /** Absent: none loaded (the Node test engine, DuckDB-WASM without its extension repository). */
  readonly extensions?: ExtensionState;
  /**
   * How many statements and inserts (query, send, insertArrowStream) this engine has been handed:
   * the catalog cannot change without one. Model SQL keeps what it read of the catalog only while
   * no one else's call has been made since (catalogMemo.ts). Absent: nothing is kept.
   */
  readonly calls?: number;
  version(): Promise<string>;
  /** Runs a statement and materialises its whole result. */
  query(sql: string): Promise<Table>;
  /** Starts one statement whose result is pulled batch by batch; `cancel()` abandons the rest. */
  send(sql: string): Promise<ResultStream>;
  cancel(): Promise<void>;
  /** DuckDB's own lexer over `sql`: where each token starts and its kind (see sqlScript.ts). */
  tokenize(sql: string): Promise<ScriptTokens>;
  /** Inserts one self-contained Arrow IPC stream; `create` makes the table from its schema. */
  insertArrowStream(ipc: Uint8Array, table: string, create: boolean): Promise<void>;
  /** Makes a Blob readable by SQL under `name` without copying it into wasm memory. */
  registerBlob(name: string, blob: Blob): Promise<void>;
  dropFile(name: string): Promise<void>;
}

/** Settings every engine gets right after opening: no extension downloads (they hang offline). */
/** Where the app registers the files it reads with DuckDB (the only place SQL may read). */
export const REGISTERED_DIR = '/dataseer/';

export const ENGINE_CONFIG_SQL = [
  'SET autoinstall_known_extensions = false',
  'SET autoload_known_extensions = false',
  // Lets DuckDB-WASM report execution progress (percentage) while a long statement runs.
  'SET enable_progress_bar = true',
  'SET enable_progress_bar_print = false',
];

/**
 * Locked down last (after DuckDB's own extensions are loaded, extensions.ts): SQL (the user's, the
 * model's) reads only the files the app registered under /dataseer/, never a URL or another file,
 * and cannot undo this (SET is refused from here on).
 */
export const ENGINE_LOCK_SQL = [`SET allowed_directories = ['${REGISTERED_DIR}']`, 'SET enable_external_access = false', 'SET lock_configuration = true'];

export const ENGINE_SETUP_SQL = [...ENGINE_CONFIG_SQL, ...ENGINE_LOCK_SQL];

/** Runs one operation at a time: DuckDB has one connection here and streamed results must not interleave. */
export class Serial {
  #tail: Promise<unknown> = Promise.resolve();
  #running: string | undefined;

  /**
   * Queues `fn` behind every statement before it. `owner` names who asked ('page' unless a peer
   * did), so a cancel can stop only its own caller's statement (peerChannel.ts).
   */
  run<T>(fn: () => Promise<T>, owner = 'page'): Promise<T> {
    const job = async () => {
      this.#running = owner;
      try {
        return await fn();
      } finally {
        this.#running = undefined;
      }
    };
    const result = this.#tail.then(job, job);
    this.#tail = result.catch(() => undefined);
    return result;
  }

  /** Who the statement running now belongs to (undefined when idle). */
  runningFor(): string | undefined {
    return this.#running;
  }
}

/** Plain JS values of a materialised result, for the engine's own bookkeeping queries. */
export function rowsOf(table: Table): Record<string, unknown>[] {
  return table.toArray().map((row: { toJSON(): Record<string, unknown> }) => row.toJSON());
}
