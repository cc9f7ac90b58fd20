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

  call<K extends keyof M & string>(type: K, payload: M[K]['req'], transfer: Transferable[] = []): Promise<M[K]['res']> {
    const id = this.#nextId++;
    return new Promise<M[K]['res']>((resolve, reject) => {
      this.#pending.set(id, { type, resolve: resolve as (v: unknown) => void, reject });
      try {
        this.#endpoint.postMessage({ kind: 'request', id, type, payload }, transfer);
      } catch (e) {
        this.#pending.delete(id);
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  }

  /** Rejects every pending call; used on worker `error` and on terminate. */
  failAll(error: Error): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) p.reject(error);
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
    this.#pending.delete(msg.id);
    if (msg.type !== pending.type) {
      pending.reject(new Error(`unexpected response type ${String(msg.type)} for ${pending.type}`));
    } else if (msg.ok) {
      pending.resolve(msg.result);
    } else {
      pending.reject(deserializeError(msg.error));
    }
  }
}
