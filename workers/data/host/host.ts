/**
 * The data worker's request handlers: each request dispatched to the module that does its job —
 * loading.ts (any source, any format; bigFile.ts for files bigger than memory), restore.ts and
 * saving.ts (the next visit), listChanges.ts (remove, rename, the console's changes), reread.ts
 * (a load report's fix), peerChannel.ts (the agent's and Python's read-only port). The engine,
 * storage and readers come in as dependencies so this runs in Node tests against the real
 * DuckDB-WASM build.
 */
import type { DataPeer, DataPeerRequests, DataRequests, DatasetInfo, DatasetProfile, LoadOutcome, LoadSource, ProfileSampleOutcome, QueryOutcome, QueryResult, RereadOutcome } from '../../../protocol/data';
import { PAGE_CANCELLED, PROFILE_PAGE_COLUMNS } from '../../../protocol/data';
import type { ReadOverrides } from '../../../protocol/loadReport';
import type { Handlers } from '../../../protocol/rpcServer';
import { quoteIdent } from '../../../shared/sql';
import { assessSql } from '../checks/assess';
import { describeTable } from '../engine/catalog';
import { HostContext, type Emit, type HostDeps } from './hostContext';
import { consoleQuery, remove, rename } from './listChanges';
import { load } from './loading';
import { modelQuery, modelScope, PeerPorts, readChannel } from './peerChannel';
import { queryTables } from './queryTables';
import { profileSample, profileTable } from '../checks/profile';
import { collectRows, DEFAULT_MAX_ROWS } from '../engine/queryRunner';
import { reread } from './reread';
import { announceSaved, restore } from './restore';

export type { HostDeps, Readers } from './hostContext';

const MAX_PAGE = 10_000;

/** A profile covers at most this many columns, a page of the table's (see the profile handler). */
export const MAX_PROFILE_COLUMNS = PROFILE_PAGE_COLUMNS;

export class DataHost {
  readonly #ctx: HostContext;
  readonly #peers: PeerPorts;
  #warmUpQueued = false;

  constructor(deps: HostDeps) {
    this.#ctx = new HostContext(deps, restore);
    this.#peers = new PeerPorts(this.#ctx, (peer) => this.readChannel(peer));
  }

  addListener(emit: Emit): void {
    this.#ctx.addListener(emit);
  }

  removeListener(emit: Emit): void {
    this.#ctx.removeListener(emit);
  }

  handlers(): Handlers<DataRequests> {
    const ctx = this.#ctx;
    return {
      init: async () => {
        // The saved datasets are named from the manifest at once, while DuckDB is still starting.
        void announceSaved(ctx);
        // Answer as soon as DuckDB is up: restoring big saved datasets can take many seconds, and
        // the page should be usable meanwhile. Restored tables arrive as `datasets` events, and
        // every other request still waits for the restore (ctx.ready).
        const engine = await ctx.engineReady();
        const restored = ctx.startRestore(engine);
        if (!this.#warmUpQueued && ctx.deps.warmUp) {
          this.#warmUpQueued = true;
          const warmUp = ctx.deps.warmUp;
          // A failed warm-up costs only speed: the first load compiles what it needs itself.
          void restored.then(() => ctx.serial.run(() => warmUp(engine))).catch(() => undefined);
        }
        const storage = await ctx.storageReady();
        const persisted = storage ? ((await ctx.deps.persisted?.().catch(() => false)) ?? false) : false;
        const readOnlyStorage = storage !== undefined && !(await ctx.mayWrite());
        const engineStart = engine.startPhases ? [...engine.startPhases] : undefined;
        return { result: { duckdbVersion: await engine.version(), datasets: ctx.list(), persistent: persisted, readOnlyStorage, ...(engineStart ? { engineStart } : {}) } };
      },
      load: async ({ source, options }) => ({ result: await this.load(source, options.loadId, options.sheets) }),
      excelSheets: async ({ file }) => ({ result: { sheets: await ctx.deps.readers.listExcelSheets(file) } }),
      reread: async ({ name, options, loadId }) => ({ result: await this.reread(name, options, loadId) }),
      list: async () => {
        await ctx.ready();
        // Not after the load report's checks: a table is usable once it is loaded, and a question
        // asked meanwhile is told the checks are running (workers/agent/context.ts); the findings
        // come with the next `datasets` event.
        return { result: ctx.list() };
      },
      remove: async ({ name }) => ({ result: await this.remove(name) }),
      rename: async ({ from, to }) => ({ result: await this.rename(from, to) }),
      cancel: async ({ queryId }) => {
        if (queryId !== undefined) {
          // One console query by its id (issue 37): queued, it never runs; running, DuckDB is
          // interrupted — never a profile, a load or a fix that runs meanwhile.
          ctx.cancelledQueries.add(queryId);
          ctx.wakeCancelled(queryId);
          if (ctx.querying === queryId) await (await ctx.engineReady()).cancel().catch(() => undefined);
          return { result: { cancelled: true } };
        }
        // The one connection runs one statement at a time: the page's Cancel stops only the
        // page's own, never a peer's (the agent's or Python's query has its own Stop).
        if (ctx.serial.runningFor() !== 'page') return { result: { cancelled: false } };
        const engine = await ctx.engineReady();
        await engine.cancel().catch(() => undefined);
        return { result: { cancelled: true } };
      },
      cancelLoad: async ({ loadId }) => {
        ctx.cancelledLoads.add(loadId);
        ctx.wakeCancelled(loadId);
        // A CSV parse is one DuckDB statement: interrupt it. Readers stop at their next batch.
        if (ctx.ingesting === loadId) await (await ctx.engineReady()).cancel().catch(() => undefined);
        return { result: { cancelled: true } };
      },
      consoleQuery: async ({ sql, maxRows, queryId }) => {
        const outcome = await this.query(sql, maxRows ?? DEFAULT_MAX_ROWS, queryId);
        return { result: outcome, transfer: outcome.ok ? [outcome.result.ipc.buffer] : [] };
      },
      page: async ({ name, offset, limit, maxColumns, queryId }) => {
        const result = await this.page(name, offset, limit, maxColumns, queryId);
        return { result, transfer: [result.ipc.buffer] };
      },
      profile: async ({ name, profileId, from }) => ({ result: await this.profile(name, 'page', profileId, from) }),
      cancelProfile: async ({ profileId }) => {
        ctx.cancelledProfiles.add(profileId);
        // The statement running now is interrupted; the profile stops before its next one.
        if (ctx.profiling === profileId) await (await ctx.engineReady()).cancel().catch(() => undefined);
        return { result: { cancelled: true } };
      },
      profileSample: async (req) => {
        const result = await this.profileSample(req, 'page');
        return { result, transfer: result.found ? [result.sample.ipc.buffer] : [] };
      },
      assess: async ({ sql }) => {
        const engine = await ctx.ready();
        return { result: await ctx.serial.run(() => assessSql(engine, sql, [...ctx.datasets.keys()])) };
      },
      queryTables: async ({ sql }) => {
        const engine = await ctx.ready();
        return { result: await ctx.serial.run(() => queryTables(engine, sql, modelScope(ctx), [...ctx.datasets.keys()])) };
      },
      connect: ({ port, peer }) => {
        this.#peers.connect(port, peer);
        return { result: {} };
      },
    };
  }

  /** The handlers another worker's port gets (peerChannel.ts): `DataPeerRequests` only. */
  readChannel(peer: DataPeer = 'agent'): Handlers<DataPeerRequests> {
    const page = this.handlers();
    return readChannel(this.#ctx, { list: page.list, profile: (name, owner) => this.profile(name, owner), profileSample: (req, owner) => this.profileSample(req, owner) }, peer);
  }

  /**
   * A dataset's profile, MAX_PROFILE_COLUMNS columns from the `from`th (0-based; by default the
   * first page), queued as `owner`'s statement.
   */
  async profile(name: string, owner: string, profileId?: string, from = 0): Promise<DatasetProfile> {
    const ctx = this.#ctx;
    const engine = await ctx.ready();
    const info = ctx.datasets.get(name);
    try {
      return await ctx.serial.run(async () => {
        const described = info ?? { ...(await describeTable(engine, name)) };
        if (described.columns.length === 0) throw new Error(`No table named ${name}.`);
        if (profileId !== undefined) ctx.profiling = profileId;
        // Thousands of columns at once would render unreadably and hold one long answer: a page
        // of MAX_PROFILE_COLUMNS at a time, the page asks for the next (issue 37).
        const first = Number.isInteger(from) && from > 0 && from < described.columns.length ? from : 0;
        const profile = await profileTable(engine, name, described.columns.slice(first, first + MAX_PROFILE_COLUMNS), described.rowCount, {
          cancelled: () => profileId !== undefined && ctx.cancelledProfiles.has(profileId),
          view: ctx.views.has(name),
          ...(profileId !== undefined ? { onProgress: (done: number, total: number) => ctx.emit({ type: 'profileProgress', profileId, done, total }) } : {}),
        });
        return first > 0 ? { ...profile, firstColumn: first } : profile;
      }, owner);
    } finally {
      if (profileId !== undefined) {
        ctx.cancelledProfiles.delete(profileId);
        if (ctx.profiling === profileId) ctx.profiling = null;
      }
    }
  }

  /** What the agent's `profile_data` needs of one dataset, queued as `owner`'s statement. */
  async profileSample({ name, columns, sampleRows }: DataRequests['profileSample']['req'], owner: string): Promise<ProfileSampleOutcome> {
    const ctx = this.#ctx;
    const engine = await ctx.ready();
    const info = ctx.datasets.get(name);
    if (!info) return { found: false, datasets: ctx.list().map((d) => d.name) };
    const result = await ctx.serial.run(() => profileSample(engine, info, columns, sampleRows, MAX_PROFILE_COLUMNS), owner);
    return { found: true, ...result };
  }

  load(source: LoadSource, loadId: string, sheets?: string[]): Promise<LoadOutcome> {
    return load(this.#ctx, source, loadId, sheets);
  }

  reread(name: string, options: ReadOverrides, loadId?: string): Promise<RereadOutcome> {
    return reread(this.#ctx, name, options, loadId);
  }

  remove(name: string): Promise<DatasetInfo[]> {
    return remove(this.#ctx, name);
  }

  rename(from: string, to: string): Promise<DatasetInfo[]> {
    return rename(this.#ctx, from, to);
  }

  /** The SQL console's query (it may change datasets, after the page asked). */
  query(sql: string, maxRows: number, queryId?: string): Promise<QueryOutcome> {
    return consoleQuery(this.#ctx, sql, maxRows, queryId);
  }

  /** Model SQL: one read-only statement, judged by DuckDB. */
  modelQuery(sql: string, maxRows: number): Promise<QueryOutcome> {
    return modelQuery(this.#ctx, sql, maxRows);
  }

  /** A window of rows; with `queryId`, `cancel({ queryId })` stops it (it throws `PAGE_CANCELLED`). */
  async page(name: string, offset: number, limit: number, maxColumns?: number, queryId?: string): Promise<QueryResult> {
    const ctx = this.#ctx;
    const engine = await ctx.ready();
    const info = ctx.datasets.get(name);
    const lim = Math.max(0, Math.min(MAX_PAGE, Math.floor(limit)));
    const off = Math.max(0, Math.floor(offset));
    // A 5,000-column table would otherwise send millions of cells for one screen of rows.
    const cols = info && maxColumns !== undefined && info.columns.length > maxColumns ? info.columns.slice(0, Math.max(1, maxColumns)) : undefined;
    const select = cols ? cols.map((c) => quoteIdent(c.name)).join(', ') : '*';
    const started = performance.now();
    const read = () => collectRows(engine, `SELECT ${select} FROM ${quoteIdent(name)} LIMIT ${lim} OFFSET ${off}`, lim, cols ?? info?.columns);
    const result = queryId === undefined ? await ctx.serial.run(read) : await ctx.readById(queryId, read);
    if (result === null) throw new Error(PAGE_CANCELLED);
    return { ...result, truncated: false, elapsedMs: performance.now() - started };
  }

  /** Whose statement DuckDB runs now ('page', a peer, or undefined when idle). */
  runningFor(): string | undefined {
    return this.#ctx.serial.runningFor();
  }

  /** Resolves once every snapshot write in flight has finished (tests, shutdown). */
  snapshotsSettled(): Promise<void> {
    return this.#ctx.snapshots.settled();
  }
}
