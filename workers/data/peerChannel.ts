/**
 * The read-only channel other workers (the agent, Python) hold to the data worker: list,
 * describe and query the datasets, and cancel their query. Model SQL is judged here, once, where
 * it runs (modelSql.ts: one read-only statement, by DuckDB's own analysis).
 */
import type { DataEvent, DataPeer, DataRequests, QueryOutcome } from '../../protocol/data';
import { serve, type Handlers, type Served } from '../../protocol/rpcServer';
import type { HostContext } from './hostContext';
import { runModelSql, type ModelScope } from './modelSql';
import { DEFAULT_MAX_ROWS } from './queryRunner';

/** What model SQL may read: the datasets (some of them views over a big file). */
function modelScope(ctx: HostContext): ModelScope {
  return { tables: new Set([...ctx.datasets.keys()].map((n) => n.toLowerCase())), views: new Set([...ctx.views.keys()].map((n) => n.toLowerCase())) };
}

/** Runs SQL on the model's (or a file's) behalf: read-only by DuckDB's own analysis, never a change. */
export async function modelQuery(ctx: HostContext, sql: string, maxRows: number): Promise<QueryOutcome> {
  const engine = await ctx.ready();
  return ctx.serial.run(() => runModelSql(engine, sql, maxRows, modelScope(ctx)));
}

/**
 * What another worker's port may ask, out of the page's handlers: nothing that loads, removes,
 * renames or connects, and no query that would change a dataset (only the page's SQL console
 * does that, after asking). Code that escaped into a worker's JavaScript finds nothing more.
 */
export function readChannel(ctx: HostContext, all: Handlers<DataRequests>): Handlers<DataRequests> {
  const refuse = (what: string) => () => {
    throw new Error(`${what} is not available on this port: only the page loads and changes datasets`);
  };
  return {
    ...all,
    init: refuse('init'),
    load: refuse('load'),
    cancelLoad: refuse('cancelLoad'),
    excelSheets: refuse('excelSheets'),
    reread: refuse('reread'),
    remove: refuse('remove'),
    rename: refuse('rename'),
    connect: refuse('connect'),
    query: async ({ sql, maxRows }) => {
      const outcome = await modelQuery(ctx, sql, maxRows ?? DEFAULT_MAX_ROWS);
      return { result: outcome, transfer: outcome.ok ? [outcome.result.ipc.buffer] : [] };
    },
  };
}

/**
 * Each peer's port, served until the peer hands a new one: a restarted peer's old port is closed
 * and forgotten, not served for ever. Peers hear the same events as the page, starting with the
 * list as it is when they connect.
 */
export class PeerPorts {
  readonly #ctx: HostContext;
  readonly #channel: () => Handlers<DataRequests>;
  readonly #peers = new Map<DataPeer, Served<DataEvent>>();

  constructor(ctx: HostContext, channel: () => Handlers<DataRequests>) {
    this.#ctx = ctx;
    this.#channel = channel;
  }

  connect(port: MessagePort, peer: DataPeer): void {
    const old = this.#peers.get(peer);
    if (old) {
      this.#ctx.removeListener(old.emit);
      old.close();
    }
    const served = serve<DataRequests, DataEvent>(port, this.#channel());
    this.#peers.set(peer, served);
    this.#ctx.addListener(served.emit);
    // The peer starts with the list as it is; later changes arrive as they happen, so it never
    // has to ask for the list before a run (Python's `datasets`) or a question.
    served.emit({ type: 'datasets', datasets: this.#ctx.list() });
  }
}
