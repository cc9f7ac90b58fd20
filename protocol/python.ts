/**
 * The Python worker's boundary (main thread ⇄ python worker). Requests pair with results through
 * `PythonRequests`; stdout/stderr stream as `PythonEvent`s while code runs.
 */

import type { JsonValue, PlotlyFigure } from './figure';

export type { JsonValue, PlotlyFigure };

/** What `result` became, ready for the UI. */
export type PyResult =
  | { kind: 'table'; columns: string[]; rows: JsonValue[][]; rowCount: number; truncated: boolean }
  | { kind: 'scalar'; value: number | string | boolean; repr: string }
  | { kind: 'json'; value: JsonValue }
  | { kind: 'repr'; text: string };


/** A Python exception, its traceback trimmed to the user's code. */
export interface PyError {
  type: string;
  message: string;
  traceback: string;
}

export type RunOutcome =
  | {
      ok: true;
      /** Absent when the code set no `result`. */
      result?: PyResult;
      figure?: PlotlyFigure;
      /** Problems with `fig` (wrong shape): the run still succeeded. */
      warnings: string[];
      elapsedMs: number;
      /** The interpreter's memory after the run (wasm memory never shrinks). */
      heapBytes?: number;
      /** See the error variant. */
      sessionFresh?: boolean;
    }
  | {
      ok: false;
      error: PyError;
      elapsedMs: number;
      /** True when the worker was (or must be) replaced: the interpreter state is gone. */
      restarted: boolean;
      heapBytes?: number;
      /**
       * With a `session`: true when this run started its namespace empty — the session's first
       * run, or its state was lost (Python restarted). Absent when the code did not start.
       */
      sessionFresh?: boolean;
    };

export interface PackageReport {
  /** Packages loaded right now (beyond the standard library, always importable). */
  loaded: string[];
  /** Packages that can be fetched on first import from `packageBaseUrl` (needs a network). */
  onDemand: string[];
  packageBaseUrl: string;
}

export interface PythonInit {
  /** Base URL for non-bundled packages (wheels listed in the lockfile). */
  packageBaseUrl: string;
  /** Int32Array-sized SharedArrayBuffer for `setInterruptBuffer`; null when not isolated. */
  interruptBuffer: SharedArrayBuffer | null;
}

export type PythonRequests = {
  /** Loads Pyodide, seals the sandbox. Idempotent. */
  init: {
    req: PythonInit;
    res: {
      pyodideVersion: string;
      pythonVersion: string;
      startupMs: number;
      packages: PackageReport;
      /** `snapshot`: restored from the saved memory snapshot; `fresh`: a full start (which saves one). */
      startedFrom?: 'snapshot' | 'fresh';
    };
  };
  /** Hands the worker a port on which it sends `DataRequests` (for `sql()` and `datasets`). */
  connectData: { req: { port: MessagePort }; res: Record<string, never> };
  /**
   * `sqlPolicy`: who runs the code. `sql()` is always model SQL (the data worker runs one
   * read-only statement, judged by DuckDB); from a console (`no-dataset-changes`), a refusal also
   * points to the SQL console, which makes changes after asking.
   */
  run: { req: { runId: string; code: string; sqlPolicy?: SqlPolicy; session?: string }; res: RunOutcome };
  packages: { req: Record<string, never>; res: PackageReport };
};

/**
 * `run`'s `session`: runs that name the same session share one namespace (variables, imports,
 * functions), as cells of one Jupyter kernel do; `result` and `fig` are cleared before each run.
 * Without one, a run starts empty. Sessions live as long as the interpreter.
 */
export const CONSOLE_SESSION = 'console';
/** The session of a conversation's `run_python` calls: one namespace per conversation. */
export const conversationSession = (threadId: string): string => `conversation:${threadId}`;

export type SqlPolicy = 'read-only' | 'no-dataset-changes';

export type PythonEvent =
  | { type: 'stdout'; runId: string; text: string }
  | { type: 'stderr'; runId: string; text: string }
  /** Packages being fetched before a run (first use). */
  | { type: 'loading'; runId: string; packages: string[] }
  | { type: 'packages'; packages: PackageReport };

/**
 * The agent worker's own small request set for Python, on a port the page serves
 * (src/python/agentPort.ts) with the page's one interpreter, queue and time limit. The agent's
 * code is the model's: its `sql()` always gets the read-only guard.
 */
export type AgentPythonRequests = {
  /** `session`: the conversation's namespace (see `conversationSession`). */
  run: { req: { runId: string; code: string; session?: string }; res: RunOutcome };
  /** Stops that run, whether it is running or still queued behind the console's. */
  stop: { req: { runId: string }; res: Record<string, never> };
  packages: { req: Record<string, never>; res: PackageReport };
};

/**
 * What the agent's run prints, streamed as it is printed: each chunk crosses once. `packages`
 * (additive): what run_python can import beyond the standard library, pushed when the port is
 * served (if Python is up) and whenever the list changes, so the agent never asks per run.
 */
export type AgentPythonEvent = { type: 'stdout' | 'stderr'; runId: string; text: string } | { type: 'packages'; loaded: string[] };
