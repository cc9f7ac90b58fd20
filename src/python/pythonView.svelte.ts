/**
 * The Python view-model: what the Python panel and the notebook render of the interpreter — its
 * status, the latest run with its output streaming in, the packages, how it started and how it
 * last recovered. PythonClient (PythonClient.svelte.ts: the worker, its run queue and halting)
 * keeps these fields up to date.
 */
import { version as pyodideVersion } from 'pyodide/package.json';
import type { PackageReport, RunOutcome } from '../../protocol/python';
import type { HaltReason } from './halt';

export const DEFAULT_PACKAGE_BASE_URL = `https://cdn.jsdelivr.net/pyodide/v${pyodideVersion}/full/`;
export const DEFAULT_TIME_LIMIT_MS = 30_000;

export type PythonStatus = 'idle' | 'starting' | 'ready' | 'running' | 'restarting' | 'failed';

export interface OutputChunk {
  stream: 'stdout' | 'stderr';
  text: string;
}

/** A finished run: its outcome plus everything it printed (see `textOf`). */
export type CompletedRun = RunRecord & { outcome: RunOutcome };

export interface RunRecord {
  runId: string;
  code: string;
  output: OutputChunk[];
  /** Packages fetched for this run (first use). */
  loading: string[];
  outcome: RunOutcome | null;
}

/** How the last halted run was recovered, and how long until Python was usable again. */
export interface Recovery {
  reason: HaltReason | 'crash';
  how: 'interrupted' | 'restarted';
  ms: number;
}

export class PythonView {
  status = $state<PythonStatus>('idle');
  /** Why the worker failed to start, when status is 'failed'. */
  startError = $state<string | null>(null);
  /** The latest run, its output streaming in while it runs. */
  current = $state<RunRecord | null>(null);
  packages = $state<PackageReport | null>(null);
  startupMs = $state<number | null>(null);
  /** Whether the interpreter came from the saved memory snapshot (fast) or a full start. */
  startedFrom = $state<'snapshot' | 'fresh' | null>(null);
  versions = $state<{ pyodide: string; python: string } | null>(null);
  timeLimitMs = $state(DEFAULT_TIME_LIMIT_MS);
  packageBaseUrl = $state(DEFAULT_PACKAGE_BASE_URL);
  lastRecovery = $state<Recovery | null>(null);
  restarts = $state(0);
  /** Runs queued or in progress. */
  pending = $state(0);

  /** True from the moment a run is asked for until its outcome is known. */
  get busy(): boolean {
    return this.pending > 0;
  }
}
