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
}

export class AgentTransport {
  readonly #options: AgentTransportOptions;
  readonly #session: WorkerSession<AgentRequests, AgentEvent>;
  /** Each run in progress, by its id: where its events go (one at a time in practice). */
  readonly #runs = new Map<string, RunStream<AgentEvent>>();

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
    // A late event of a run that already ended (stopped, replaced) has no stream left: dropped.
    this.#runs.get(parsed.event.run_id)?.push(parsed.event);
  }

  #failRuns(error: Error): void {
    for (const stream of this.#runs.values()) stream.fail(error);
    this.#runs.clear();
  }

  /**
   * Starts a run and resolves once the worker accepted it, with the run's events as one async
   * iterator (ending at `run_end`; throwing if the worker dies). `signal` aborts it, whenever it
   * fires.
   */
  async begin(call: (rpc: AgentRpc, runId: string) => Promise<{ run_id: string }>, signal: AbortSignal): Promise<AsyncIterable<AgentEvent>> {
    const runId = this.#options.newId();
    const stream = new RunStream<AgentEvent>();
    this.#runs.set(runId, stream);
    const abort = () => void this.#session.current?.call('abort', { run_id: runId }).catch(() => undefined);
    try {
      const rpc = await this.start();
      await call(rpc, runId);
    } catch (e) {
      this.#runs.delete(runId);
      throw e;
    }
    // Stop pressed while the worker was accepting the run is honoured now.
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    const runs = this.#runs;
    return {
      async *[Symbol.asyncIterator]() {
        try {
          for await (const event of stream) {
            yield event;
            if (event.type === 'run_end') return;
          }
        } finally {
          runs.delete(runId);
          signal.removeEventListener('abort', abort);
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
