/**
 * DuckDB's worker can be started by the page itself, as the first thing its script does
 * (src/engines/early.ts), so that on a repeat visit its script, its `.wasm` compile and its own
 * start run while the page's bundle and the data worker's are still being fetched and evaluated:
 * no serial hops before it. The page then hands each side one end of a MessageChannel:
 *
 * - the data worker gets the first message `{ kind: DUCKDB_PORT, port }` (always sent by
 *   spawnDataWorker; `port: null` means "start DuckDB's worker yourself", as after a restart) and
 *   drives DuckDB through the port as AsyncDuckDB would drive a nested Worker (portAsWorker);
 * - DuckDB's worker gets the same message and answers through the port (bridgeToPort).
 */
import { isDuckDBPortMessage } from '../../../protocol/duckdbPort';

/**
 * In the data worker: the port the page sends before any request. Listens from the moment it is
 * called, so it must be called while the worker's script is evaluated (before `serve`), and keeps
 * that message from every later listener.
 */
export function receiveDuckDBPort(scope: EventTarget): Promise<MessagePort | null> {
  return new Promise((resolve) => {
    const take = (ev: Event) => {
      const data = (ev as MessageEvent).data;
      if (!isDuckDBPortMessage(data)) return;
      ev.stopImmediatePropagation();
      scope.removeEventListener('message', take);
      resolve(data.port);
    };
    scope.addEventListener('message', take);
  });
}

/** A MessagePort in the shape AsyncDuckDB drives a Worker through (messages, listeners, terminate). */
export function portAsWorker(port: MessagePort): Worker {
  const worker = {
    postMessage: (message: unknown, transfer?: Transferable[]) => port.postMessage(message, transfer ?? []),
    addEventListener: port.addEventListener.bind(port),
    removeEventListener: port.removeEventListener.bind(port),
    // The page owns DuckDB's worker and ends it with the data worker (spawn.ts); this end only lets go.
    terminate: () => port.close(),
  };
  port.start();
  return worker as unknown as Worker;
}

/** The part of a worker's global scope the bridge rewires. */
interface WorkerScope extends EventTarget {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((ev: MessageEvent) => unknown) | null;
}

/**
 * In DuckDB's worker, before DuckDB's own code runs: when the page sends a port, DuckDB's replies
 * (it calls `globalThis.postMessage` each time) go out through it and its requests come in through
 * it, to the `onmessage` handler DuckDB installs. Without that message nothing changes.
 */
export function bridgeToPort(scope: WorkerScope): void {
  const take = (ev: Event) => {
    const data = (ev as MessageEvent).data;
    if (!isDuckDBPortMessage(data) || !data.port) return;
    ev.stopImmediatePropagation();
    scope.removeEventListener('message', take);
    const port = data.port;
    scope.postMessage = (message, transfer) => port.postMessage(message, transfer ?? []);
    port.onmessage = (e) => void scope.onmessage?.(e);
  };
  scope.addEventListener('message', take);
}
