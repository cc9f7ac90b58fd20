/**
 * The main thread's handle on the Python worker: starts it lazily (or warms it after the first
 * paint), runs code one run at a time under a time limit, and replaces the worker when an
 * interrupt is not honoured, memory ran out or the worker died. What it shows is its
 * view-model's (PythonView, pythonView.svelte.ts), which it extends.
 */
import type { RpcClient } from '../../protocol/rpcClient';
import { WorkerSession, type ConnectPort } from '../engines/workerSession';
import type { PackageReport, PythonEvent, PythonRequests, RunOutcome, SqlPolicy } from '../../protocol/python';
import { explainRestart, graceVerdict, haltedOutcome, type HaltReason } from './halt';
import { PythonView, type OutputChunk, type RunRecord, type CompletedRun } from './pythonView.svelte';
import { bloated, withHeapNote, withStateLost } from './runNotes';
import { messageOf } from '../../shared/errors';

export { DEFAULT_PACKAGE_BASE_URL, DEFAULT_TIME_LIMIT_MS, type CompletedRun, type OutputChunk, type PythonStatus, type Recovery, type RunRecord } from './pythonView.svelte';
export { HEAP_RECYCLE_BYTES, STATE_LOST_NOTE } from './runNotes';
/** How long an interrupt may take before the worker is terminated. */
export const INTERRUPT_GRACE_MS = 2_000;

export interface RunOptions {
  timeLimitMs?: number;
  /** Runs without becoming `current` (runs the agent asks for: the console keeps the user's). */
  background?: boolean;
  /** The run's id (default: a fresh UUID); `stop(runId)` targets it. */
  runId?: string;
  /** What the run's `sql()` may do (default: anything but changing a dataset). */
  sqlPolicy?: SqlPolicy;
  /** Each chunk of output as it is printed (the agent's port forwards it). */
  onOutput?: (chunk: OutputChunk) => void;
  /** The namespace the run shares with earlier runs of the same session (PythonRequests.run). */
  session?: string;
}

export interface PythonClientOptions {
  /** Opens the channel on which the Python worker sends `DataRequests` (for `sql()`), at every spawn. */
  connectData?: ConnectPort;
  packageBaseUrl?: string;
  timeLimitMs?: number;
  /** Spawns the worker (src/engines/spawn.ts; tests pass a stand-in). */
  createWorker: () => Worker;
  /**
   * Start Python only on a page whose headers are in force (cross-origin isolation comes with the
   * content security policy that keeps model-written code off the network, securityPolicy.ts).
   */
  requireProtection?: boolean;
  /** Called when a run is halted (time limit, Stop), with its id: to cancel the DuckDB query its sql() started. */
  onHalt?: (runId: string) => void;
  /**
   * True while something else needs the cores (a dataset loading or being restored): the
   * background warm-up waits for it rather than compete with it. Asking to run Python never waits.
   */
  isBusy?: () => boolean;
}

export const UNPROTECTED_MESSAGE =
  'Python is off on this page: its security policy is not in force yet (it comes with the service worker or with a server that sends Dataseer’s headers). Reload the page; if this message stays, this browser cannot run the service worker here.';

type Rpc = RpcClient<PythonRequests, PythonEvent>;

export class PythonClient extends PythonView {
  /** True when interrupts work (cross-origin isolated); otherwise a halt terminates the worker. */
  readonly interruptible: boolean;

  #options: PythonClientOptions;
  #session: WorkerSession<PythonRequests, PythonEvent>;
  /** The live worker's interrupt flag (null when not isolated, or no worker). */
  #interrupt: Int32Array | null = null;
  /** Runs stopped while still queued: they end at once when their turn comes. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered.
  #stopped = new Set<string>();
  #queue: Promise<unknown> = Promise.resolve();
  #halt: ((reason: HaltReason) => void) | null = null;
  #runningId: string | null = null;
  #warmTimer: ReturnType<typeof setTimeout> | null = null;
  /** Runs not finished yet, by id: where their streamed output goes. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a routing table, not UI state: the records it holds are.
  #active = new Map<string, RunRecord>();
  /** Where a run's output is forwarded as it arrives (`RunOptions.onOutput`). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a routing table, never rendered.
  #outputs = new Map<string, (chunk: OutputChunk) => void>();
  /** Sessions that have run in some interpreter: one that starts empty again has lost its state. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered.
  #sessions = new Set<string>();
  /** Told each new package list (the agent's port pushes it on). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- listeners, never rendered.
  #packageWatchers = new Set<(report: PackageReport) => void>();

  constructor(options: PythonClientOptions) {
    super();
    this.#options = options;
    if (options.timeLimitMs) this.timeLimitMs = options.timeLimitMs;
    if (options.packageBaseUrl) this.packageBaseUrl = options.packageBaseUrl;
    this.interruptible = typeof SharedArrayBuffer !== 'undefined' && globalThis.crossOriginIsolated === true;
    this.#session = new WorkerSession<PythonRequests, PythonEvent>({
      name: 'Python worker',
      spawn: options.createWorker,
      onEvent: (e) => this.#onEvent(e),
      // Replaced on demand: after a crash or a failed run, the next run starts a fresh interpreter.
      restart: { mode: 'lazy' },
      boot: (rpc) => this.#boot(rpc),
      onCrash: () => {
        this.#interrupt = null;
        if (this.status !== 'running') this.status = 'idle';
      },
    });
  }

  /** Starts the worker if it is not up; resolves when Python is ready. */
  start(): Promise<void> {
    if (this.#options.requireProtection && globalThis.crossOriginIsolated !== true) {
      this.status = 'failed';
      this.startError = UNPROTECTED_MESSAGE;
      return Promise.reject(new Error(UNPROTECTED_MESSAGE));
    }
    return this.#session.start().then(() => undefined);
  }

  /** Starts Python in the background once the page has painted and gone quiet for a moment. */
  warmAfterFirstPaint(delayMs = 1500): void {
    if (this.status !== 'idle' || this.#warmTimer) return;
    const kick = () => {
      this.#warmTimer = setTimeout(() => {
        this.#warmTimer = null;
        if (this.status !== 'idle') return;
        if (this.#options.isBusy?.()) kick();
        else this.start().catch(() => {});
      }, delayMs);
    };
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => kick());
    else kick();
  }

  /**
   * Runs code (queued behind any run in progress) and becomes `current`. Never rejects:
   * failures are outcomes. The returned record holds the run's stdout/stderr.
   */
  run(code: string, opts: RunOptions = {}): Promise<CompletedRun> {
    this.pending++;
    let record: RunRecord = { runId: opts.runId ?? crypto.randomUUID(), code, output: [], loading: [], outcome: null };
    if (!opts.background) {
      this.current = record;
      // The $state proxy, so output streamed into it reaches the view.
      record = this.current;
    }
    this.#active.set(record.runId, record);
    const next = this.#queue
      .then(() => this.#runNow(record, opts.timeLimitMs ?? this.timeLimitMs, opts.sqlPolicy, opts.onOutput, opts.session))
      .then((outcome) => ({ ...record, outcome }))
      .finally(() => {
        this.pending--;
        this.#active.delete(record.runId);
        this.#stopped.delete(record.runId);
      });
    this.#queue = next.catch(() => {});
    return next;
  }

  /**
   * Stops the run in progress (interrupt, then terminate after the grace period); with a
   * `runId`, only when that run is the one in progress.
   */
  stop(runId?: string): void {
    if (runId !== undefined && runId !== this.#runningId) {
      // Still queued: it ends as soon as its turn comes, without running.
      if (this.#active.has(runId)) this.#stopped.add(runId);
      return;
    }
    this.#halt?.('stop');
  }

  async refreshPackages(): Promise<PackageReport | null> {
    await this.start();
    const rpc = this.#session.current;
    if (!rpc) return null;
    this.#setPackages(await rpc.call('packages', {}));
    return this.packages;
  }

  /**
   * Calls `listener` with the package list now (when Python has reported one) and whenever it
   * changes (a start, a restart, a package loaded on first use); returns the way to stop.
   */
  watchPackages(listener: (report: PackageReport) => void): () => void {
    this.#packageWatchers.add(listener);
    if (this.packages) listener($state.snapshot(this.packages));
    return () => this.#packageWatchers.delete(listener);
  }

  #setPackages(report: PackageReport): void {
    this.packages = report;
    for (const w of this.#packageWatchers) w(report);
  }

  /** Replaces the worker (fresh interpreter). */
  async restart(): Promise<void> {
    this.#kill('restarted');
    this.restarts++;
    await this.start();
  }

  dispose(): void {
    if (this.#warmTimer) clearTimeout(this.#warmTimer);
    this.#kill('disposed');
    this.status = 'idle';
  }

  async #boot(rpc: Rpc): Promise<void> {
    this.status = this.status === 'restarting' ? 'restarting' : 'starting';
    this.startError = null;
    const interrupt = this.interruptible ? new Int32Array(new SharedArrayBuffer(4)) : null;
    try {
      // The data side may not be up yet; Python still starts, and sql() explains what is missing.
      await this.#options.connectData?.(async (port) => void (await rpc.call('connectData', { port }, [port]))).catch(() => {});
      const info = await rpc.call('init', { packageBaseUrl: this.packageBaseUrl, interruptBuffer: (interrupt?.buffer as SharedArrayBuffer | undefined) ?? null });
      this.#interrupt = interrupt;
      this.startupMs = info.startupMs;
      this.startedFrom = info.startedFrom ?? null;
      this.versions = { pyodide: info.pyodideVersion, python: info.pythonVersion };
      this.#setPackages(info.packages);
      this.status = 'ready';
    } catch (e) {
      this.startError = messageOf(e);
      this.status = 'failed';
      throw e;
    }
  }

  #kill(reason: string): void {
    this.#interrupt = null;
    this.#session.kill(reason);
  }

  #onEvent(e: PythonEvent): void {
    switch (e.type) {
      case 'stdout':
      case 'stderr': {
        const chunk: OutputChunk = { stream: e.type, text: e.text };
        this.#active.get(e.runId)?.output.push(chunk);
        this.#outputs.get(e.runId)?.(chunk);
        break;
      }
      case 'loading':
        this.#active.get(e.runId)?.loading.push(...e.packages);
        break;
      case 'packages':
        this.#setPackages(e.packages);
        break;
    }
  }

  async #runNow(record: RunRecord, limitMs: number, sqlPolicy?: SqlPolicy, onOutput?: (chunk: OutputChunk) => void, session?: string): Promise<RunOutcome> {
    const started = performance.now();
    const { runId, code } = record;
    const finish = (outcome: RunOutcome): RunOutcome => {
      record.outcome = outcome;
      if (this.status === 'running') this.status = this.#session.current ? 'ready' : 'idle';
      return outcome;
    };
    if (this.#stopped.has(runId)) {
      return finish({ ok: false, error: { type: 'Interrupted', message: 'Stopped by the user before it ran.', traceback: '' }, elapsedMs: 0, restarted: false });
    }
    try {
      await this.start();
    } catch (e) {
      return finish({ ok: false, error: { type: 'StartupError', message: `Python could not start: ${messageOf(e)}`, traceback: '' }, elapsedMs: 0, restarted: false });
    }
    const rpc = this.#session.current;
    const interrupt = this.#interrupt;
    if (!rpc) return finish({ ok: false, error: { type: 'StartupError', message: 'Python is not running', traceback: '' }, elapsedMs: 0, restarted: false });
    this.status = 'running';
    if (onOutput) this.#outputs.set(runId, onOutput);

    let haltReason: HaltReason | null = null;
    let haltAt = 0;
    let grace: ReturnType<typeof setTimeout> | null = null;
    const halt = (reason: HaltReason) => {
      if (haltReason) return;
      haltReason = reason;
      // sql() waits on the data worker, which an interrupt cannot reach: stop its query too.
      this.#options.onHalt?.(runId);
      haltAt = performance.now();
      if (interrupt) Atomics.store(interrupt, 0, 2);
      // Not honoured in time (a C loop, a swallowed KeyboardInterrupt) or no interrupt at all:
      // the worker goes, and the pending call rejects.
      grace = setTimeout(() => {
        grace = graceVerdict(interrupt, () => this.#kill(`run halted (${reason})`));
      }, interrupt ? INTERRUPT_GRACE_MS : 0);
    };
    this.#halt = halt;
    this.#runningId = runId;
    // Cleared here, where the clock starts, so a stale halt cannot stop this run and a halt that
    // lands before the worker starts the code is still seen by it.
    if (interrupt) Atomics.store(interrupt, 0, 0);
    const limit = setTimeout(() => halt('timeout'), limitMs);

    let outcome: RunOutcome;
    try {
      outcome = await rpc.call('run', { runId, code, ...(sqlPolicy ? { sqlPolicy } : {}), ...(session ? { session } : {}) });
    } catch (e) {
      const elapsedMs = Math.round(performance.now() - started);
      outcome = { ok: false, error: { type: 'WorkerError', message: messageOf(e), traceback: '' }, elapsedMs, restarted: true };
    } finally {
      clearTimeout(limit);
      if (grace) clearTimeout(grace);
      this.#halt = null;
      this.#runningId = null;
      this.#outputs.delete(runId);
    }

    let interrupted = false;
    if (haltReason) {
      interrupted = !outcome.ok && outcome.error.type === 'KeyboardInterrupt' && this.#session.current === rpc;
      outcome = haltedOutcome(haltReason, limitMs, outcome, interrupted);
      if (interrupted) this.lastRecovery = { reason: haltReason, how: 'interrupted', ms: Math.round(performance.now() - haltAt) };
    }
    if (!haltReason && !outcome.ok && outcome.restarted) outcome = explainRestart(outcome);
    if (session && outcome.sessionFresh !== undefined) {
      // A session that had state before and starts empty now lost it with the interpreter.
      const lost = outcome.sessionFresh && this.#sessions.has(session);
      this.#sessions.add(session);
      if (lost) outcome = withStateLost(outcome);
    }
    const tooBig = bloated(outcome);
    if (tooBig) outcome = withHeapNote(outcome);
    if (tooBig || (!outcome.ok && outcome.restarted)) {
      // Shown now; the promise settles once the fresh worker is up, so queued runs wait for it.
      record.outcome = outcome;
      this.#kill('replaced after a failed run');
      this.status = 'restarting';
      this.restarts++;
      const restartedAt = performance.now();
      await this.start().catch(() => {});
      if (haltReason && !interrupted) this.lastRecovery = { reason: haltReason, how: 'restarted', ms: Math.round(performance.now() - haltAt) };
      else if (!haltReason) this.lastRecovery = { reason: 'crash', how: 'restarted', ms: Math.round(performance.now() - restartedAt) };
    }
    return finish(outcome);
  }
}

/** Everything a run printed on one stream, as one string. */
export function textOf(output: OutputChunk[], stream: OutputChunk['stream']): string {
  return output
    .filter((c) => c.stream === stream)
    .map((c) => c.text)
    .join('');
}
