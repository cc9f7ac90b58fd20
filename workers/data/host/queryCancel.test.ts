/**
 * Issue 37: a console query named by a `queryId` reports DuckDB's progress and its Cancel stops
 * that query only — still queued, it never runs; running, DuckDB is interrupted — and never a
 * profile, a load or a load report fix that runs meanwhile (the old id-less Cancel interrupted
 * whatever page statement DuckDB was running). The real host on DuckDB-WASM's Node build; that
 * build runs a statement in one blocking call, so a "running" statement is held by a gate in
 * front of the engine, which DuckDB-WASM's `cancelSent` opens with DuckDB's own interrupt error.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { tableFromIPC } from 'apache-arrow';
import { beforeEach, describe, expect, it } from 'vitest';
import { PAGE_CANCELLED, runQueryId, type DataEvent, type DataRequests } from '../../../protocol/data';
import type { Handlers } from '../../../protocol/rpcServer';
import type { Engine, ResultStream } from '../engine/duckdbEngine';
import { DataHost, type Readers } from './host';
import { NodeEngine } from '../testing/nodeEngine';

const noReader = async () => {
  throw new Error('reader not used in this test');
};
const readers: Readers = { parquet: noReader, arrow: noReader, excel: noReader, json: noReader, listExcelSheets: async () => [] };

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

/** The Node engine, with statements containing `HOLD` held until `cancel()` (or `release()`). */
class GatedEngine implements Engine {
  cancels = 0;
  #progress: ((pct: number) => void) | undefined;
  #open: { resolve: () => void; reject: (e: Error) => void } | undefined;
  held: Promise<void>;
  #heldNow!: () => void;
  constructor(private readonly inner: NodeEngine) {
    this.held = new Promise((r) => (this.#heldNow = r));
  }
  get calls() {
    return this.inner.calls;
  }
  version() {
    return this.inner.version();
  }
  /** A query is prepared first, then run by `EXECUTE`: the statement after a held PREPARE is held. */
  #armed = false;
  query(sql: string) {
    if (sql.startsWith('PREPARE') && sql.includes('HOLD')) this.#armed = true;
    return this.inner.query(sql);
  }
  /** Statements held besides those naming HOLD (a preview window's read names no HOLD). */
  holdAlso: RegExp | undefined;
  async send(sql: string): Promise<ResultStream> {
    const hold = sql.includes('HOLD') || this.holdAlso?.test(sql) || (this.#armed && sql.startsWith('EXECUTE'));
    if (sql.startsWith('EXECUTE')) this.#armed = false;
    if (hold) {
      this.#progress?.(40);
      await new Promise<void>((resolve, reject) => {
        this.#open = { resolve, reject };
        this.#heldNow();
      });
    }
    return this.inner.send(sql);
  }
  async cancel(): Promise<void> {
    this.cancels++;
    // What DuckDB says of a statement its connection's cancel interrupted.
    this.#open?.reject(new Error('INTERRUPT Error: Interrupted!'));
    this.#open = undefined;
    await this.inner.cancel();
  }
  release(): void {
    this.#open?.resolve();
  }
  tokenize(sql: string) {
    return this.inner.tokenize(sql);
  }
  insertArrowStream(ipc: Uint8Array, table: string, create: boolean) {
    return this.inner.insertArrowStream(ipc, table, create);
  }
  registerBlob(name: string, blob: Blob) {
    return this.inner.registerBlob(name, blob);
  }
  dropFile(name: string) {
    return this.inner.dropFile(name);
  }
  onProgress(handler: (pct: number) => void): void {
    this.#progress = handler;
  }
}

async function setUp() {
  const engine = new GatedEngine(await NodeEngine.open());
  const host = new DataHost({ boot: async () => engine, openStorage: async () => undefined, readers });
  const h: Handlers<DataRequests> = host.handlers();
  const call = async <K extends keyof DataRequests & string>(type: K, payload: DataRequests[K]['req']): Promise<DataRequests[K]['res']> => {
    const handler = h[type] as (p: DataRequests[K]['req']) => Promise<{ result: DataRequests[K]['res'] }> | { result: DataRequests[K]['res'] };
    return (await handler(payload)).result;
  };
  const events: DataEvent[] = [];
  host.addListener((e) => events.push(e));
  await call('init', {});
  const made = await call('load', { source: { kind: 'file', file: new File([`id,v\n${Array.from({ length: 400 }, (_, i) => `${i},${i % 9}`).join('\n')}\n`], 'other.csv') }, options: { loadId: 'l1' } });
  if (!made.ok) throw new Error(made.message);
  return { engine, host, call, events };
}

describe('cancelling a console query by its id', { timeout: 30_000 }, () => {
  it('running: its progress is reported, DuckDB is interrupted, the outcome says cancelled, the engine answers after', async () => {
    const { engine, call, events } = await setUp();
    const running = call('consoleQuery', { sql: "SELECT 'HOLD' AS h, count(*) FROM range(10)", queryId: 'q1' });
    await engine.held;
    expect(events).toContainEqual({ type: 'queryProgress', queryId: 'q1', fraction: 0.4 });
    expect(await call('cancel', { queryId: 'q1' })).toEqual({ cancelled: true });
    expect(engine.cancels).toBe(1);
    expect(await running).toEqual({ ok: false, message: 'Query cancelled.', cancelled: true });
    expect(engine.cancels).toBeGreaterThanOrEqual(1);
    const after = await call('consoleQuery', { sql: 'SELECT count(*) AS n, sum(id) AS s FROM other', queryId: 'q2' });
    expect(after.ok).toBe(true);
  });

  it('queued behind another page statement: it answers at once, never runs, and that statement is not interrupted', async () => {
    const { engine, call } = await setUp();
    // A page statement that is not this query (as a profile or a load report fix would be).
    const first = call('consoleQuery', { sql: "SELECT 'HOLD' AS h, count(*) AS n FROM other", queryId: 'q-first' });
    await engine.held;
    const queued = call('consoleQuery', { sql: 'CREATE TABLE made_by_queued AS SELECT 1 AS x', queryId: 'q-queued' });
    expect(await call('cancel', { queryId: 'q-queued' })).toEqual({ cancelled: true });
    // It answers at once, not after the statement before it (which is still held).
    expect(await queued).toEqual({ ok: false, message: 'Query cancelled.', cancelled: true });
    // The running statement was not interrupted: it finishes with its rows once let go.
    expect(engine.cancels).toBe(0);
    engine.release();
    const done = await first;
    expect(done.ok).toBe(true);
    const tables = await call('consoleQuery', { sql: "SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'made_by_queued'" });
    if (!tables.ok) throw new Error(tables.message);
    expect(Number(tableFromIPC(tables.result.ipc).get(0)?.toJSON().n)).toBe(0);
    expect((await call('list', {})).map((d) => d.name)).toEqual(['other']);
  });

  it('an id that is not running interrupts nothing: a profile asked for beside it completes', async () => {
    const { engine, call } = await setUp();
    const profile = call('profile', { name: 'other', profileId: 'p1' });
    expect(await call('cancel', { queryId: 'not-running' })).toEqual({ cancelled: true });
    const p = await profile;
    expect(p.columns.map((c) => c.name)).toEqual(['id', 'v']);
    expect(engine.cancels).toBe(0);
  });
});

/**
 * A halted Python run stops its own `sql()` by id (createEngines.ts `onHalt`): before, the halt
 * sent the id-less page cancel, which interrupted whatever page statement ran (a profile, a fix)
 * and never Python's own query.
 */
describe("cancelling a halted Python run's query by the run's id", { timeout: 30_000 }, () => {
  it("running: DuckDB is interrupted, the run's later sql() answers at once, the engine answers after", async () => {
    const { engine, host, call } = await setUp();
    const python = host.readChannel('python');
    const queryId = runQueryId('python', 'run-1');
    const running = python.modelQuery({ sql: "SELECT 'HOLD' AS h, count(*) AS n FROM other", queryId });
    await engine.held;
    expect(await call('cancel', { queryId })).toEqual({ cancelled: true });
    expect(engine.cancels).toBe(1);
    expect((await running).result).toEqual({ ok: false, message: 'Query cancelled.', cancelled: true });
    // The halted run's next statement never reaches DuckDB.
    const before = engine.calls;
    expect((await python.modelQuery({ sql: 'SELECT 1 AS one', queryId })).result).toMatchObject({ cancelled: true });
    expect(engine.calls).toBe(before);
    // Another run's sql() and the page's console run as before.
    expect((await python.modelQuery({ sql: 'SELECT count(*) AS n FROM other', queryId: runQueryId('python', 'run-2') })).result.ok).toBe(true);
    expect((await call('consoleQuery', { sql: 'SELECT count(*) AS n FROM other' })).ok).toBe(true);
  });

  it('queued behind a page statement: it answers at once, and the page statement is not interrupted', async () => {
    const { engine, host, call } = await setUp();
    const first = call('consoleQuery', { sql: "SELECT 'HOLD' AS h, count(*) AS n FROM other", queryId: 'page-statement' });
    await engine.held;
    const queryId = runQueryId('python', 'run-queued');
    const queued = host.readChannel('python').modelQuery({ sql: 'SELECT count(*) AS n FROM other', queryId });
    expect(await call('cancel', { queryId })).toEqual({ cancelled: true });
    expect((await queued).result).toEqual({ ok: false, message: 'Query cancelled.', cancelled: true });
    expect(engine.cancels).toBe(0);
    engine.release();
    expect((await first).ok).toBe(true);
  });

  it("a halt while a profile runs (Python's query not running) leaves the profile whole", async () => {
    const { engine, call } = await setUp();
    const profile = call('profile', { name: 'other', profileId: 'p-python' });
    expect(await call('cancel', { queryId: runQueryId('python', 'run-idle') })).toEqual({ cancelled: true });
    expect((await profile).columns.map((c) => c.name)).toEqual(['id', 'v']);
    expect(engine.cancels).toBe(0);
  });
});

/**
 * A preview window over a view of a big file is a scan up to its OFFSET: the grid names each
 * window's read, and a window scrolled past (or cancelled) is stopped instead of holding the
 * engine for rows nobody will see.
 */
describe('cancelling a preview window by its id', { timeout: 30_000 }, () => {
  it('running: DuckDB is interrupted and the window fails as cancelled; the next window reads', async () => {
    const { engine, host, call } = await setUp();
    // The far window of a big view, held as a scan would be.
    engine.holdAlso = /OFFSET 300\b/;
    const running = host.page('other', 300, 50, undefined, 'w1');
    await engine.held;
    expect(await call('cancel', { queryId: 'w1' })).toEqual({ cancelled: true });
    await expect(running).rejects.toThrow(PAGE_CANCELLED);
    expect(engine.cancels).toBe(1);
    const next = await host.page('other', 0, 5, undefined, 'w2');
    expect(next.columns.map((c) => c.name)).toEqual(['id', 'v']);
    expect(tableFromIPC(next.ipc).numRows).toBe(5);
  });

  it('queued behind another statement: it fails at once and never reads; the statement runs on', async () => {
    const { engine, host, call } = await setUp();
    const first = call('consoleQuery', { sql: "SELECT 'HOLD' AS h, count(*) AS n FROM other", queryId: 'before' });
    await engine.held;
    const queued = host.page('other', 100, 50, undefined, 'w-queued');
    expect(await call('cancel', { queryId: 'w-queued' })).toEqual({ cancelled: true });
    await expect(queued).rejects.toThrow(PAGE_CANCELLED);
    expect(engine.cancels).toBe(0);
    engine.release();
    expect((await first).ok).toBe(true);
  });
});
