/**
 * The generic request/response envelope every worker boundary uses. Each boundary defines a
 * `Map` of request type → { req, res } and an event union; this module pairs them up so a
 * request's payload and result types follow from its `type`.
 */

/** Anything that can carry messages: a Worker, a MessagePort, a DedicatedWorkerGlobalScope. */
export interface Endpoint {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (ev: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (ev: MessageEvent) => void): void;
  start?: () => void;
  /** A MessagePort has it: disentangles the port, so neither end hears the other again. */
  close?: () => void;
}

/** How an Error crosses a boundary; rebuilt into a real Error on the other side. */
export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
}

/** A request map: each key is a request type, paired with its payload and its result. */
export type RequestMap = Record<string, { req: unknown; res: unknown }>;

export type RequestOf<M extends RequestMap> = {
  [K in keyof M & string]: { kind: 'request'; id: number; type: K; payload: M[K]['req'] };
}[keyof M & string];

export type ResponseOf<M extends RequestMap> =
  | { [K in keyof M & string]: { kind: 'response'; id: number; type: K; ok: true; result: M[K]['res'] } }[keyof M & string]
  | { kind: 'response'; id: number; type: keyof M & string; ok: false; error: SerializedError };

/** Unsolicited messages from a worker (progress, stdout…), keyed by `type`. */
export interface EventMessage<E extends { type: string }> {
  kind: 'event';
  event: E;
}

export function serializeError(e: unknown): SerializedError {
  if (e instanceof Error) return { name: e.name, message: e.message, stack: e.stack };
  return { name: 'Error', message: typeof e === 'string' ? e : JSON.stringify(e) };
}

export function deserializeError(e: SerializedError): Error {
  const err = new Error(e.message);
  err.name = e.name;
  if (e.stack) err.stack = e.stack;
  return err;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}
