import { isObject, serializeError, type Endpoint, type EventMessage, type RequestMap, type RequestOf } from './rpc';

/** What a handler returns: its result, plus buffers to transfer rather than copy. */
export interface Reply<T> {
  result: T;
  transfer?: Transferable[];
}

export type Handlers<M extends RequestMap> = {
  [K in keyof M & string]: (payload: M[K]['req']) => Promise<Reply<M[K]['res']>> | Reply<M[K]['res']>;
};

/** A served endpoint: `emit` sends events; `close` stops serving and closes a port. */
export interface Served<E> {
  emit: (event: E, transfer?: Transferable[]) => void;
  close: () => void;
}

/**
 * The worker side of a boundary: one dispatcher over a handler table. A handler's thrown error
 * becomes an error response, never an unanswered request.
 */
export function serve<M extends RequestMap, E extends { type: string }>(
  endpoint: Endpoint,
  handlers: Handlers<M>,
): Served<E> {
  const listener = (ev: MessageEvent) => {
    const data: unknown = ev.data;
    if (!isObject(data) || data.kind !== 'request' || typeof data.type !== 'string' || typeof data.id !== 'number') return;
    const req = data as unknown as RequestOf<M>;
    // Own keys only: a request named `constructor` or `__proto__` must not reach Object's prototype.
    const handler = Object.hasOwn(handlers, req.type) ? (handlers[req.type] as (p: unknown) => Promise<Reply<unknown>> | Reply<unknown>) : undefined;
    void (async () => {
      if (!handler) {
        endpoint.postMessage({ kind: 'response', id: req.id, type: req.type, ok: false, error: { name: 'Error', message: `unknown request ${req.type}` } });
        return;
      }
      try {
        const reply = await handler(req.payload);
        endpoint.postMessage({ kind: 'response', id: req.id, type: req.type, ok: true, result: reply.result }, reply.transfer ?? []);
      } catch (e) {
        endpoint.postMessage({ kind: 'response', id: req.id, type: req.type, ok: false, error: serializeError(e) });
      }
    })();
  };
  endpoint.addEventListener('message', listener);
  endpoint.start?.();
  let open = true;
  return {
    emit(event: E, transfer: Transferable[] = []) {
      if (!open) return;
      const msg: EventMessage<E> = { kind: 'event', event };
      endpoint.postMessage(msg, transfer);
    },
    close() {
      if (!open) return;
      open = false;
      endpoint.removeEventListener('message', listener);
      endpoint.close?.();
    },
  };
}
