/**
 * The owning side of one worker: spawns it, runs its boot (init call, ports) before anyone may
 * call it, and on a crash rejects every pending call with a clear error, terminates it and
 * applies the restart policy. The data, agent and Python clients each hold one; none of them
 * spawns, terminates or restarts a worker by itself.
 */
import type { RequestMap } from '../../protocol/rpc';
import { RpcClient, WorkerGoneError } from '../../protocol/rpcClient';

/**
 * - `eager`: a crashed worker is started again at once, at most `max` times in a row (a worker
 *   that keeps dying is left down, rather than looping forever);
 * - `lazy`: a crashed worker stays down until the next `start()` (the next call) spawns one.
 */
export type RestartPolicy = { mode: 'eager'; max: number } | { mode: 'lazy' };

/**
 * Opens a channel from this worker to another engine: the opener hands the other side its end
 * and calls `attach` with this worker's end (src/engines/mesh.ts does, and hands it again
 * whenever the other side restarts).
 */
export type ConnectPort = (attach: (port: MessagePort) => Promise<void>) => Promise<void>;

export interface WorkerSessionOptions<M extends RequestMap, E extends { type: string }> {
  /** How messages name the worker: "the data engine stopped…". */
  name: string;
  /** The one place a client's worker is created (tests pass a stand-in). */
  spawn: () => Worker;
  onEvent?: (event: E) => void;
  /** Runs on every spawn before `start()` resolves: the init call, the ports to other workers. */
  boot: (rpc: RpcClient<M, E>) => Promise<void>;
  restart: RestartPolicy;
  /**
   * The worker died (not a `kill`): every pending call has been rejected with `message`;
   * `restarting` when the policy starts a new one now.
   */
  onCrash?: (message: string, restarting: boolean) => void;
  /** A worker is up; `afterCrash` when it replaced one that crashed. */
  onReady?: (afterCrash: boolean) => void;
}

export class WorkerSession<M extends RequestMap, E extends { type: string }> {
  #options: WorkerSessionOptions<M, E>;
  /** The spawned worker and its client, from spawn until it dies or is killed. */
  #live: { worker: Worker; rpc: RpcClient<M, E>; booted: boolean } | null = null;
  #starting: Promise<RpcClient<M, E>> | null = null;
  #crashes = 0;
  #afterCrash = false;

  constructor(options: WorkerSessionOptions<M, E>) {
    this.#options = options;
  }

  /** Spawns and boots the worker if it is not up; safe to call any number of times. */
  start(): Promise<RpcClient<M, E>> {
    this.#starting ??= this.#boot();
    return this.#starting;
  }

  /** The booted worker's client, or null while none is up (for calls that must not start one). */
  get current(): RpcClient<M, E> | null {
    return this.#live?.booted ? this.#live.rpc : null;
  }

  async #boot(): Promise<RpcClient<M, E>> {
    const worker = this.#options.spawn();
    const rpc = new RpcClient<M, E>(worker, this.#options.onEvent);
    const live = { worker, rpc, booted: false };
    this.#live = live;
    worker.addEventListener('error', (ev: Event) => {
      ev.preventDefault();
      const text = (ev as Event & { message?: unknown }).message;
      this.#crashed(worker, typeof text === 'string' && text ? text : `the ${this.#options.name} crashed`);
    });
    worker.addEventListener('messageerror', () => this.#crashed(worker, `the ${this.#options.name} sent an unreadable message`));
    try {
      await this.#options.boot(rpc);
    } catch (e) {
      if (this.#live === live) this.#drop('failed to start');
      throw e;
    }
    if (this.#live !== live) throw new WorkerGoneError(`the ${this.#options.name} stopped while starting`);
    live.booted = true;
    const afterCrash = this.#afterCrash;
    this.#afterCrash = false;
    this.#options.onReady?.(afterCrash);
    return rpc;
  }

  #crashed(worker: Worker, message: string): void {
    if (this.#live?.worker !== worker) return;
    this.#drop(message);
    this.#afterCrash = true;
    const policy = this.#options.restart;
    // Counted over the page's life: a worker that keeps dying is left down after `max` restarts.
    const restarting = policy.mode === 'eager' && this.#crashes++ < policy.max;
    this.#options.onCrash?.(message, restarting);
    if (restarting) this.start().catch(() => {});
  }

  /** Terminates the worker now: every pending call rejects with `reason`; `start()` spawns anew. */
  kill(reason: string): void {
    this.#drop(reason);
  }

  #drop(reason: string): void {
    const live = this.#live;
    if (!live) return;
    this.#live = null;
    this.#starting = null;
    live.rpc.dispose(reason);
    live.worker.terminate();
  }

  /** Shuts the worker down (the page is going away); a later `start()` spawns a new one. */
  dispose(reason = `the ${this.#options.name} was shut down`): void {
    this.kill(reason);
  }
}
