/**
 * The main thread's handle on the Python worker: starts it lazily (or warms it after the first
 * paint), runs code one run at a time under a time limit, and replaces the worker when an
 * interrupt is not honoured, memory ran out or the worker died.
 */
import { version as pyodideVersion } from 'pyodide/package.json';
import PythonWorker from '../../workers/python/python.worker.ts?worker';
import { RpcClient, WorkerGoneError } from '../../workers/protocol/rpcClient';
import type { PackageReport, PythonEvent, PythonRequests, RunOutcome, SqlPolicy } from '../../workers/protocol/python';
import { explainRestart, haltedOutcome, type HaltReason } from './halt';
import { messageOf } from '../../shared/errors';

export const DEFAULT_PACKAGE_BASE_URL = `https://cdn.jsdelivr.net/pyodide/v${pyodideVersion}/full/`;
export const DEFAULT_TIME_LIMIT_MS = 30_000;
/** Above this much interpreter memory the worker is replaced after a run (wasm never shrinks). */
export const HEAP_RECYCLE_BYTES = 1024 ** 3;
/** How long an interrupt may take before the worker is terminated. */
export const INTERRUPT_GRACE_MS = 2_000;

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

export interface RunOptions {
  timeLimitMs?: number;
  /** Runs without becoming `current` (runs the agent asks for: the console keeps the user's). */
  background?: boolean;
  /** The run's id (default: a fresh UUID); `stop(runId)` targets it. */
  runId?: string;
  /** What the run's `sql()` may do (default: anything but changing a dataset). */
  sqlPolicy?: SqlPolicy;
}

export interface PythonClientOptions {
  /** Gives the data worker one end of a channel the Python worker sends `DataRequests` on. */
  connectData?: (port: MessagePort) => Promise<void>;
  packageBaseUrl?: string;
  timeLimitMs?: number;
  createWorker?: () => Worker;
  /**
   * Start Python only on a page whose headers are in force (cross-origin isolation comes with the
   * content security policy that keeps model-written code off the network, securityPolicy.ts).
   */
  requireProtection?: boolean;
  /** Called when a run is halted (time limit, Stop): e.g. to cancel the DuckDB query its sql() started. */
  onHalt?: () => void;
  /**
   * True while something else needs the cores (a dataset loading or being restored): the
   * background warm-up waits for it rather than compete with it. Asking to run Python never waits.
   */
  isBusy?: () => boolean;
}

export const UNPROTECTED_MESSAGE =
  'Python is off on this page: its security policy is not in force yet (it comes with the service worker or with a server that sends Dataseer’s headers). Reload the page; if this message stays, this browser cannot run the service worker here.';

type Rpc = RpcClient<PythonRequests, PythonEvent>;

interface Session {
  worker: Worker;
  rpc: Rpc;
  interrupt: Int32Array | null;
  ready: Promise<void>;
}

export class PythonClient {
  status = $state<PythonStatus>('idle');
  /** Why the worker failed to start, when status is 'failed'. */
  startError = $state<string | null>(null);
  /** The latest run, its output streaming in while it runs. */
  current = $state<RunRecord | null>(null);
  packages = $state<PackageReport | null>(null);
  startupMs = $state<number | null>(null);
  versions = $state<{ pyodide: string; python: string } | null>(null);
  timeLimitMs = $state(DEFAULT_TIME_LIMIT_MS);
  packageBaseUrl = $state(DEFAULT_PACKAGE_BASE_URL);
  lastRecovery = $state<Recovery | null>(null);
  restarts = $state(0);
  /** True when interrupts work (cross-origin isolated); otherwise a halt terminates the worker. */
  readonly interruptible: boolean;

  #options: PythonClientOptions;
  #session: Session | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #halt: ((reason: HaltReason) => void) | null = null;
  #runningId: string | null = null;
  #warmTimer: ReturnType<typeof setTimeout> | null = null;
  /** Runs not finished yet, by id: where their streamed output goes. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a routing table, not UI state: the records it holds are.
  #active = new Map<string, RunRecord>();

  constructor(options: PythonClientOptions = {}) {
    this.#options = options;
    if (options.timeLimitMs) this.timeLimitMs = options.timeLimitMs;
    if (options.packageBaseUrl) this.packageBaseUrl = options.packageBaseUrl;
    this.interruptible = typeof SharedArrayBuffer !== 'undefined' && globalThis.crossOriginIsolated === true;
  }

  /** Runs queued or in progress. */
  pending = $state(0);

  /** True from the moment a run is asked for until its outcome is known. */
  get busy(): boolean {
    return this.pending > 0;
  }

  /** Starts the worker if it is not up; resolves when Python is ready. */
  start(): Promise<void> {
    if (this.#options.requireProtection && globalThis.crossOriginIsolated !== true) {
      this.status = 'failed';
      this.startError = UNPROTECTED_MESSAGE;
      return Promise.reject(new Error(UNPROTECTED_MESSAGE));
    }
    this.#session ??= this.#spawn();
    return this.#session.ready;
  }

  /** Starts Python in the background once the page has painted and gone quiet for a moment. */
  warmAfterFirstPaint(delayMs = 1500): void {
    if (this.#session || this.#warmTimer) return;
    const kick = () => {
      this.#warmTimer = setTimeout(() => {
        this.#warmTimer = null;
        if (this.#session) return;
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
      .then(() => this.#runNow(record, opts.timeLimitMs ?? this.timeLimitMs, opts.sqlPolicy))
      .then((outcome) => ({ ...record, outcome }))
      .finally(() => {
        this.pending--;
        this.#active.delete(record.runId);
      });
    this.#queue = next.catch(() => {});
    return next;
  }

  /**
   * Stops the run in progress (interrupt, then terminate after the grace period); with a
   * `runId`, only when that run is the one in progress.
   */
  stop(runId?: string): void {
    if (runId !== undefined && runId !== this.#runningId) return;
    this.#halt?.('stop');
  }

  async refreshPackages(): Promise<PackageReport | null> {
    await this.start();
    const s = this.#session;
    if (!s) return null;
    this.packages = await s.rpc.call('packages', {});
    return this.packages;
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

  #spawn(): Session {
    const worker = this.#options.createWorker?.() ?? new PythonWorker({ name: 'python' });
    const rpc: Rpc = new RpcClient<PythonRequests, PythonEvent>(worker, (e) => this.#onEvent(e));
    const interrupt = this.interruptible ? new Int32Array(new SharedArrayBuffer(4)) : null;
    const session: Session = { worker, rpc, interrupt, ready: Promise.resolve() };
    worker.addEventListener('error', (ev) => {
      ev.preventDefault();
      rpc.failAll(new WorkerGoneError(`the Python worker crashed${ev.message ? `: ${ev.message}` : ''}`));
      if (this.#session === session) this.#session = null;
      if (this.status !== 'running') this.status = 'idle';
    });
    this.status = this.status === 'restarting' ? 'restarting' : 'starting';
    this.startError = null;
    session.ready = (async () => {
      await this.#connectData(rpc);
      const info = await rpc.call('init', { packageBaseUrl: this.packageBaseUrl, interruptBuffer: interrupt?.buffer as SharedArrayBuffer | null ?? null });
      if (this.#session !== session) return;
      this.startupMs = info.startupMs;
      this.versions = { pyodide: info.pyodideVersion, python: info.pythonVersion };
      this.packages = info.packages;
      if (this.status !== 'running') this.status = 'ready';
    })();
    session.ready.catch((e: unknown) => {
      if (this.#session !== session) return;
      this.startError = messageOf(e);
      this.status = 'failed';
      this.#kill('failed to start');
    });
    return session;
  }

  /** The data worker restarted: hands the running Python a port to the new one. */
  async reconnectData(): Promise<void> {
    const s = this.#session;
    if (!s) return;
    await s.ready.catch(() => undefined);
    if (this.#session === s) await this.#connectData(s.rpc);
  }

  async #connectData(rpc: Rpc): Promise<void> {
    if (!this.#options.connectData) return;
    const channel = new MessageChannel();
    await rpc.call('connectData', { port: channel.port2 }, [channel.port2]);
    // The data side may not be up yet; Python still starts, and sql() explains what is missing.
    await this.#options.connectData(channel.port1).catch(() => {});
  }

  #kill(reason: string): void {
    const s = this.#session;
    this.#session = null;
    if (!s) return;
    s.rpc.dispose(reason);
    s.worker.terminate();
  }

  #onEvent(e: PythonEvent): void {
    switch (e.type) {
      case 'stdout':
      case 'stderr':
        this.#active.get(e.runId)?.output.push({ stream: e.type, text: e.text });
        break;
      case 'loading':
        this.#active.get(e.runId)?.loading.push(...e.packages);
        break;
      case 'packages':
        this.packages = e.packages;
        break;
    }
  }

  async #runNow(record: RunRecord, limitMs: number, sqlPolicy?: SqlPolicy): Promise<RunOutcome> {
    const started = performance.now();
    const { runId, code } = record;
    const finish = (outcome: RunOutcome): RunOutcome => {
      record.outcome = outcome;
      if (this.status === 'running') this.status = this.#session ? 'ready' : 'idle';
      return outcome;
    };
    try {
      await this.start();
    } catch (e) {
      return finish({ ok: false, error: { type: 'StartupError', message: `Python could not start: ${messageOf(e)}`, traceback: '' }, elapsedMs: 0, restarted: false });
    }
    const session = this.#session;
    if (!session) return finish({ ok: false, error: { type: 'StartupError', message: 'Python is not running', traceback: '' }, elapsedMs: 0, restarted: false });
    this.status = 'running';

    let haltReason: HaltReason | null = null;
    let haltAt = 0;
    let grace: ReturnType<typeof setTimeout> | null = null;
    const halt = (reason: HaltReason) => {
      if (haltReason) return;
      haltReason = reason;
      // sql() waits on the data worker, which an interrupt cannot reach: stop its query too.
      this.#options.onHalt?.();
      haltAt = performance.now();
      if (session.interrupt) Atomics.store(session.interrupt, 0, 2);
      // Not honoured in time (a C loop, a swallowed KeyboardInterrupt) or no interrupt at all:
      // the worker goes, and the pending call rejects.
      grace = setTimeout(() => this.#kill(`run halted (${reason})`), session.interrupt ? INTERRUPT_GRACE_MS : 0);
    };
    this.#halt = halt;
    this.#runningId = runId;
    // Cleared here, where the clock starts, so a stale halt cannot stop this run and a halt that
    // lands before the worker starts the code is still seen by it.
    if (session.interrupt) Atomics.store(session.interrupt, 0, 0);
    const limit = setTimeout(() => halt('timeout'), limitMs);

    let outcome: RunOutcome;
    try {
      outcome = await session.rpc.call('run', { runId, code, ...(sqlPolicy ? { sqlPolicy } : {}) });
    } catch (e) {
      const elapsedMs = Math.round(performance.now() - started);
      outcome = { ok: false, error: { type: 'WorkerError', message: messageOf(e), traceback: '' }, elapsedMs, restarted: true };
    } finally {
      clearTimeout(limit);
      if (grace) clearTimeout(grace);
      this.#halt = null;
      this.#runningId = null;
    }

    let interrupted = false;
    if (haltReason) {
      interrupted = !outcome.ok && outcome.error.type === 'KeyboardInterrupt' && this.#session === session;
      outcome = haltedOutcome(haltReason, limitMs, outcome, interrupted);
      if (interrupted) this.lastRecovery = { reason: haltReason, how: 'interrupted', ms: Math.round(performance.now() - haltAt) };
    }
    if (!haltReason && !outcome.ok && outcome.restarted) outcome = explainRestart(outcome);
    const bloated = (outcome.heapBytes ?? 0) > HEAP_RECYCLE_BYTES;
    if (bloated && (outcome.ok || outcome.error.type !== 'MemoryError')) {
      const note = `Python grew to ${((outcome.heapBytes ?? 0) / 1024 ** 3).toFixed(1)} GB of memory, so it was restarted to give it back.`;
      if (outcome.ok) outcome = { ...outcome, warnings: [...outcome.warnings, note] };
      else outcome = { ...outcome, restarted: true, error: { ...outcome.error, message: `${outcome.error.message} ${note}`.trim() } };
    }
    if (bloated || (!outcome.ok && outcome.restarted)) {
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
