/**
 * The read-only channel other workers (the agent, Python) hold to the data worker. It serves
 * `DataPeerRequests` — an allow-list built here request by request, never a copy of the page's
 * handlers — so a request added for the page is not open to a peer, and code that escaped into a
 * peer's JavaScript finds nothing that loads, removes, renames, connects or changes a dataset.
 * Model SQL is judged here, once, where it runs (modelSql.ts: one read-only statement, by
 * DuckDB's own analysis).
 */
import type { DataEvent, DataPeer, DataPeerRequests, DataRequests, QueryOutcome } from '../../../protocol/data';
import { serve, type Handlers, type Served } from '../../../protocol/rpcServer';
import type { HostContext } from './hostContext';
import { runModelSql, type ModelScope } from '../engine/modelSql';
import { DEFAULT_MAX_ROWS } from '../engine/queryRunner';

const CANCELLED: QueryOutcome = { ok: false, message: 'Query cancelled.', cancelled: true };

/** What model SQL may read: the datasets (some of them views over a big file). */
export function modelScope(ctx: HostContext): ModelScope {
  return { tables: new Set([...ctx.datasets.keys()].map((n) => n.toLowerCase())), views: new Set([...ctx.views.keys()].map((n) => n.toLowerCase())) };
}

/**
 * Runs SQL on the model's (or a file's) behalf: read-only by DuckDB's own analysis, never a
 * change. `owner` tags the statement so only its owner's `cancel` interrupts it.
 */
export async function modelQuery(ctx: HostContext, sql: string, maxRows: number, owner: DataPeer = 'agent', queryId?: string): Promise<QueryOutcome> {
  const engine = await ctx.ready();
  if (queryId === undefined) return ctx.serial.run(() => runModelSql(engine, sql, maxRows, modelScope(ctx)), owner);
  // Named (issue 37): the page's `cancel({ queryId })` stops it alone — a halted Python run's
  // query, never a profile or a fix the page runs meanwhile. The mark is kept: the run is over,
  // so its later statements answer at once too.
  const out = await ctx.readById(queryId, () => runModelSql(engine, sql, maxRows, modelScope(ctx)), { owner, keepMark: true });
  return out === null || (!out.ok && ctx.cancelledQueries.has(queryId)) ? CANCELLED : out;
}

/** The host's reads a peer shares, queued under the peer's name. */
export interface SharedReads {
  list: Handlers<DataRequests>['list'];
  profile(name: string, owner: DataPeer): Promise<DataRequests['profile']['res']>;
  profileSample(req: DataRequests['profileSample']['req'], owner: DataPeer): Promise<DataRequests['profileSample']['res']>;
}

/** A peer's handlers: exactly the keys of `DataPeerRequests`. */
export function readChannel(ctx: HostContext, page: SharedReads, peer: DataPeer): Handlers<DataPeerRequests> {
  return {
    list: page.list,
    profile: async ({ name }) => ({ result: await page.profile(name, peer) }),
    profileSample: async (req) => {
      const result = await page.profileSample(req, peer);
      return { result, transfer: result.found ? [result.sample.ipc.buffer] : [] };
    },
    modelQuery: async ({ sql, maxRows, queryId }) => {
      const outcome = await modelQuery(ctx, sql, maxRows ?? DEFAULT_MAX_ROWS, peer, queryId);
      return { result: outcome, transfer: outcome.ok ? [outcome.result.ipc.buffer] : [] };
    },
    cancel: async () => {
      // DuckDB has one connection here: interrupting it stops whatever runs, so a peer may do so
      // only while the running statement is its own.
      if (ctx.serial.runningFor() !== peer) return { result: { cancelled: false } };
      const engine = await ctx.engineReady();
      await engine.cancel().catch(() => undefined);
      return { result: { cancelled: true } };
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
  readonly #channel: (peer: DataPeer) => Handlers<DataPeerRequests>;
  readonly #peers = new Map<DataPeer, Served<DataEvent>>();

  constructor(ctx: HostContext, channel: (peer: DataPeer) => Handlers<DataPeerRequests>) {
    this.#ctx = ctx;
    this.#channel = channel;
  }

  connect(port: MessagePort, peer: DataPeer): void {
    const old = this.#peers.get(peer);
    if (old) {
      this.#ctx.removeListener(old.emit);
      old.close();
    }
    const served = serve<DataPeerRequests, DataEvent>(port, this.#channel(peer));
    this.#peers.set(peer, served);
    this.#ctx.addListener(served.emit);
    // The peer starts with the list as it is; later changes arrive as they happen, so it never
    // has to ask for the list before a run (Python's `datasets`) or a question.
    served.emit({ type: 'datasets', datasets: this.#ctx.list() });
  }
}
