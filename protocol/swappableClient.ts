/**
 * The calling side of a port that can be handed again: when the worker behind it restarts,
 * `replace` rejects every call still waiting on the old port with a clear error and sends later
 * calls to the new one. Every call carries a timeout (per request type) and the caller's abort
 * signal, so nothing waits forever on a worker that is gone.
 */
import type { Endpoint, RequestMap } from './rpc';
import { RpcClient, type CallOptions } from './rpcClient';

export class SwappableClient<M extends RequestMap, E extends { type: string }> {
  #current: RpcClient<M, E>;

  constructor(
    endpoint: Endpoint,
    private readonly options: { name: string; timeoutMs: (type: keyof M & string) => number | undefined; onEvent?: (event: E) => void },
  ) {
    this.#current = new RpcClient<M, E>(endpoint, options.onEvent);
  }

  /** The worker restarted: calls in flight fail now, new calls go to `endpoint`. */
  replace(endpoint: Endpoint): void {
    const old = this.#current;
    this.#current = new RpcClient<M, E>(endpoint, this.options.onEvent);
    old.dispose(`the ${this.options.name} restarted while this was running; run it again`);
  }

  call<K extends keyof M & string>(type: K, payload: M[K]['req'], transfer: Transferable[] = [], options: CallOptions = {}): Promise<M[K]['res']> {
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs(type);
    return this.#current.call(type, payload, transfer, { ...options, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
  }

  get pendingCount(): number {
    return this.#current.pendingCount;
  }

  dispose(reason?: string): void {
    this.#current.dispose(reason);
  }
}
