/**
 * The page's one line to the data worker: spawns it (again after a crash), starts DuckDB with
 * `init`, sends requests and hands every event to one listener. It holds no view state: the
 * DatasetsModel (through DataClient) does.
 */
import type { RpcClient } from '../../protocol/rpcClient';
import { WorkerSession } from '../engines/workerSession';
import type { DataEvent, DataRequests } from '../../protocol/data';
import { messageOf } from '../../shared/errors';

/** Makes the worker (src/engines/spawn.ts; tests use a MessageChannel stand-in). */
export type WorkerFactory = () => Worker;

export type DataInit = DataRequests['init']['res'];

export interface TransportHooks {
  onEvent(event: DataEvent): void;
  /** DuckDB is up (each start, including after a crash). */
  onStarted(init: DataInit): void;
  onStartFailed(message: string): void;
  onCrash(message: string, restarting: boolean): void;
  onReady(afterCrash: boolean): void;
}

/** Give up restarting a worker that keeps dying, rather than loop forever. */
const MAX_RESTARTS = 3;

export class DataTransport {
  readonly #session: WorkerSession<DataRequests, DataEvent>;
  #restartListeners: (() => void)[] = [];

  constructor(factory: WorkerFactory, hooks: TransportHooks) {
    this.#session = new WorkerSession<DataRequests, DataEvent>({
      name: 'data engine',
      spawn: factory,
      onEvent: (e) => hooks.onEvent(e),
      restart: { mode: 'eager', max: MAX_RESTARTS },
      boot: async (rpc) => {
        try {
          hooks.onStarted(await rpc.call('init', {}));
        } catch (e) {
          hooks.onStartFailed(messageOf(e));
          throw e;
        }
      },
      onCrash: (message, restarting) => hooks.onCrash(message, restarting),
      onReady: (afterCrash) => {
        hooks.onReady(afterCrash);
        if (afterCrash) for (const listener of this.#restartListeners) listener();
      },
    });
  }

  /** Starts the worker and DuckDB; safe to call more than once. */
  async start(): Promise<void> {
    await this.#session.start();
  }

  /** One request to the worker (started first if need be). */
  async call<K extends keyof DataRequests & string>(type: K, payload: DataRequests[K]['req'], transfer: Transferable[] = []): Promise<DataRequests[K]['res']> {
    const rpc: RpcClient<DataRequests, DataEvent> = await this.#session.start();
    return rpc.call(type, payload, transfer);
  }

  /**
   * Called each time the worker came back after a crash: ports other workers held to the old one
   * are dead and must be handed again (the engines' mesh does). Returns the unsubscribe.
   */
  onRestarted(listener: () => void): () => void {
    this.#restartListeners.push(listener);
    return () => {
      this.#restartListeners = this.#restartListeners.filter((l) => l !== listener);
    };
  }

  /** Terminates the worker; every pending call rejects. */
  dispose(): void {
    this.#session.dispose();
  }
}
