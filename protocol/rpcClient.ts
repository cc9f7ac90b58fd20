import {
  deserializeError,
  isObject,
  type Endpoint,
  type EventMessage,
  type RequestMap,
  type ResponseOf,
} from './rpc';

/** Thrown into every pending call when the worker dies, errors or is terminated. */
export class WorkerGoneError extends Error {
  override name = 'WorkerGoneError';
}

/** A call that got no answer within its timeout. */
export class CallTimeoutError extends Error {
  override name = 'CallTimeoutError';
}

/** A call whose abort signal fired before the answer came. */
export class CallAbortedError extends Error {
  override name = 'CallAbortedError';
}

export interface CallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

interface Pending {
  type: string;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/**
 * The calling side of a boundary: sends typed requests, matches responses by id, and never
 * leaves a promise unsettled (error responses, unexpected responses, a worker error and
 * `dispose()` all reject).
 */
export class RpcClient<M extends RequestMap, E extends { type: string }> {
  #endpoint: Endpoint;
  #nextId = 1;
  #pending = new Map<number, Pending>();
  #listener: (ev: MessageEvent) => void;
  #onEvent: (event: E) => void;

  constructor(endpoint: Endpoint, onEvent: (event: E) => void = () => {}) {
    this.#endpoint = endpoint;
    this.#onEvent = onEvent;
    this.#listener = (ev) => this.#receive(ev.data);
    endpoint.addEventListener('message', this.#listener);
    endpoint.start?.();
  }

  /**
   * Sends a request. `timeoutMs` rejects it with a `CallTimeoutError` when no answer came in
   * time, `signal` when aborted; either way the call stops waiting (the other side may still
   * finish, and its late answer is ignored).
   */
  call<K extends keyof M & string>(type: K, payload: M[K]['req'], transfer: Transferable[] = [], options: CallOptions = {}): Promise<M[K]['res']> {
    const id = this.#nextId++;
    return new Promise<M[K]['res']>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => settle(() => reject(new CallAbortedError(`${type} was stopped`)));
      const settle = (act: () => void) => {
        if (!this.#pending.delete(id)) return;
        if (timer !== undefined) clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        act();
      };
      this.#pending.set(id, {
        type,
        resolve: (v) => settle(() => resolve(v as M[K]['res'])),
        reject: (e) => settle(() => reject(e)),
      });
      if (options.signal?.aborted) return onAbort();
      options.signal?.addEventListener('abort', onAbort);
      if (options.timeoutMs !== undefined) {
        timer = setTimeout(() => settle(() => reject(new CallTimeoutError(`${type} got no answer within ${Math.round((options.timeoutMs ?? 0) / 1000)} s`))), options.timeoutMs);
      }
      try {
        this.#endpoint.postMessage({ kind: 'request', id, type, payload }, transfer);
      } catch (e) {
        settle(() => reject(e instanceof Error ? e : new Error(String(e))));
      }
    });
  }

  /** Rejects every pending call; used on worker `error` and on terminate. */
  failAll(error: Error): void {
    for (const p of [...this.#pending.values()]) p.reject(error);
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  dispose(reason = 'worker terminated'): void {
    this.#endpoint.removeEventListener('message', this.#listener);
    this.failAll(new WorkerGoneError(reason));
  }

  #receive(data: unknown): void {
    if (!isObject(data)) return;
    if (data.kind === 'event') {
      this.#onEvent((data as unknown as EventMessage<E>).event);
      return;
    }
    if (data.kind !== 'response' || typeof data.id !== 'number') return;
    const msg = data as unknown as ResponseOf<M>;
    const pending = this.#pending.get(msg.id);
    if (!pending) return;
    if (msg.type !== pending.type) {
      pending.reject(new Error(`unexpected response type ${String(msg.type)} for ${pending.type}`));
    } else if (msg.ok) {
      pending.resolve(msg.result);
    } else {
      pending.reject(deserializeError(msg.error));
    }
  }
}
