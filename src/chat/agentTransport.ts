/**
 * The agent worker's transport: spawns it (lazily, again after a crash), hands it its ports to
 * the other engines, and routes each run's events to that run's stream. Every event is parsed
 * here, once, as it enters the page; one that does not match the contract is reported, never
 * silently dropped. The view-model (AgentClient.svelte.ts) holds what the chat renders.
 */
import { WorkerGoneError, type RpcClient } from '../../protocol/rpcClient';
import { WorkerSession, type ConnectPort } from '../engines/workerSession';
import { parseAgentEvent, type AgentEvent, type AgentRequests } from '../../protocol/agent/wire';
import { RunStream } from './runStream';
import { messageOf } from '../../shared/errors';

export type AgentRpc = RpcClient<AgentRequests, AgentEvent>;

/**
 * The page ended a run the user stopped because its worker did not confirm the stop in time
 * (the page owns a run's lifecycle: Stop always returns the UI to idle).
 */
export class RunStoppedError extends Error {
  override name = 'RunStoppedError';
}

/** How long Stop waits for the worker's own `run_end` before the page ends the run itself. */
export const STOP_GRACE_MS = 800;
/** How long a stopped run may stay unfinished in its worker before the worker is replaced. */
export const STUCK_RUN_MS = 5000;

export interface AgentTransportOptions {
  /** Opens the channel the agent worker sends `DataRequests` on, at every spawn. */
  connectData: ConnectPort;
  /** Opens the channel for `AgentPythonRequests` (run_python); without it the agent has no Python. */
  connectPython?: ConnectPort;
  /** Spawns the worker (src/engines/spawn.ts; tests pass a stand-in). */
  createWorker: () => Worker;
  /** Names each run (the page names it, so its events are routed from the first). */
  newId: () => string;
  /** The worker's life as the page shows it: starting, ready, or failed with the reason. */
  onStatus(status: 'starting' | 'ready' | 'failed', error: string | null): void;
  /** An event the worker sent that did not match the contract. */
  onProtocolError(message: string): void;
  /** Overrides STOP_GRACE_MS / STUCK_RUN_MS (tests). */
  stopGraceMs?: number;
  stuckRunMs?: number;
}

export class AgentTransport {
  readonly #options: AgentTransportOptions;
  readonly #session: WorkerSession<AgentRequests, AgentEvent>;
  /** Each run in progress, by its id: where its events go (one at a time in practice). */
  readonly #runs = new Map<string, RunStream<AgentEvent>>();
  /**
   * Stopped runs the page ended before their worker did, by id: each settles at its late
   * `run_end`, or when the worker that holds it is replaced. A new run waits for them, since the
   * worker takes one run at a time.
   */
  readonly #lingering = new Map<string, () => void>();
  readonly #lingeringDone = new Set<Promise<void>>();

  constructor(options: AgentTransportOptions) {
    this.#options = options;
    this.#session = new WorkerSession<AgentRequests, AgentEvent>({
      name: 'agent worker',
      spawn: options.createWorker,
      onEvent: (e) => this.#onEvent(e),
      // A crashed agent comes back with the next thing the user asks of it.
      restart: { mode: 'lazy' },
      boot: (rpc) => this.#boot(rpc),
      onCrash: (message) => {
        options.onStatus('failed', `The agent stopped: ${message}.`);
        this.#failRuns(new WorkerGoneError(`The agent stopped (${message}). Your question is kept; retry it.`));
      },
    });
  }

  /** Spawns the worker and connects it to the other engines; safe to call more than once. */
  start(): Promise<AgentRpc> {
    return this.#session.start();
  }

  async #boot(rpc: AgentRpc): Promise<void> {
    this.#options.onStatus('starting', null);
    try {
      await this.#options.connectData(async (port) => void (await rpc.call('connectData', { port }, [port])));
      await this.#options.connectPython?.(async (port) => void (await rpc.call('connectPython', { port }, [port])));
      this.#options.onStatus('ready', null);
    } catch (e) {
      this.#options.onStatus('failed', `The agent could not start: ${messageOf(e)}`);
      throw e;
    }
  }

  #onEvent(raw: unknown): void {
    const parsed = parseAgentEvent(raw);
    if (!parsed.ok) {
      this.#options.onProtocolError(`Ignored a malformed event from the agent: ${parsed.message}`);
      return;
    }
    if (parsed.event.type === 'run_end') this.#lingering.get(parsed.event.run_id)?.();
    // A late event of a run that already ended (stopped, replaced) has no stream left: dropped.
    this.#runs.get(parsed.event.run_id)?.push(parsed.event);
  }

  #failRuns(error: Error): void {
    for (const stream of this.#runs.values()) stream.fail(error);
    this.#runs.clear();
    // The worker that held the stopped runs is gone: nothing is left to wait for.
    for (const settle of [...this.#lingering.values()]) settle();
  }

  /**
   * The watchdog of a stopped run: if the worker has not ended it within the grace, the page ends
   * it (the reader gets a RunStoppedError) and keeps waiting for the worker's own `run_end`; a
   * worker that still has not sent it after STUCK_RUN_MS is stuck, and is replaced (the
   * conversation is saved by checkpoints in IndexedDB, so a new worker opens it as it was).
   */
  #watch(runId: string, stream: RunStream<AgentEvent>, onStopped: () => void): void {
    const grace = this.#options.stopGraceMs ?? STOP_GRACE_MS;
    setTimeout(() => {
      if (this.#runs.get(runId) !== stream) return;
      this.#runs.delete(runId);
      let settle: () => void = () => {};
      const done = new Promise<void>((resolve) => (settle = resolve));
      const timer = setTimeout(() => {
        if (!this.#lingering.has(runId)) return;
        this.#session.kill('the agent did not end a stopped run, so it was restarted');
        this.#failRuns(new WorkerGoneError('The agent did not end a stopped run, so it was restarted. Your conversation is kept.'));
      }, this.#options.stuckRunMs ?? STUCK_RUN_MS);
      this.#lingering.set(runId, () => {
        clearTimeout(timer);
        this.#lingering.delete(runId);
        this.#lingeringDone.delete(done);
        settle();
      });
      this.#lingeringDone.add(done);
      onStopped();
      stream.fail(new RunStoppedError('The run was stopped.'));
    }, grace);
  }

  /**
   * Starts a run and resolves once the worker accepted it, with the run's events as one async
   * iterator (ending at `run_end`; throwing if the worker dies). `signal` aborts it, whenever it
   * fires.
   */
  async begin(call: (rpc: AgentRpc, runId: string) => Promise<{ run_id: string }>, signal: AbortSignal): Promise<AsyncIterable<AgentEvent>> {
    // The worker takes one run at a time: a stopped run it has not ended yet goes first (it ends,
    // or its worker is replaced, within STUCK_RUN_MS).
    await Promise.all([...this.#lingeringDone]);
    const runId = this.#options.newId();
    const stream = new RunStream<AgentEvent>();
    this.#runs.set(runId, stream);
    let accepted = false;
    let stoppedByPage = false;
    const abort = () => void this.#session.current?.call('abort', { run_id: runId }).catch(() => undefined);
    const onStop = () => {
      if (accepted) abort();
      this.#watch(runId, stream, () => (stoppedByPage = true));
    };
    if (signal.aborted) onStop();
    else signal.addEventListener('abort', onStop, { once: true });
    let accepting: Promise<unknown> | undefined;
    try {
      const rpc = await this.start();
      accepting = call(rpc, runId);
      // A worker that does not answer the start cannot hold Stop: the watchdog's RunStoppedError
      // wins the race; if the run is accepted later, it is aborted then.
      await Promise.race([accepting, stream.failed()]);
      accepted = true;
      if (signal.aborted) abort();
    } catch (e) {
      this.#runs.delete(runId);
      signal.removeEventListener('abort', onStop);
      // Stopped before the worker answered: if it accepts the run after all, that run is aborted.
      if (stoppedByPage) accepting?.then(abort, () => undefined);
      throw e;
    }
    const runs = this.#runs;
    return {
      async *[Symbol.asyncIterator]() {
        try {
          for await (const event of stream) {
            yield event;
            if (event.type === 'run_end') return;
          }
        } finally {
          if (runs.get(runId) === stream) runs.delete(runId);
          signal.removeEventListener('abort', onStop);
        }
      },
    };
  }

  /** One request to the worker, started first if need be. */
  async call<K extends keyof AgentRequests & string>(type: K, payload: AgentRequests[K]['req']): Promise<AgentRequests[K]['res']> {
    const rpc = await this.start();
    return rpc.call(type, payload);
  }

  dispose(): void {
    this.#session.dispose();
    this.#failRuns(new WorkerGoneError('The agent was shut down.'));
  }
}
