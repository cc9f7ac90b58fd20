/**
 * The peer port (the agent's and Python's) by allow-list: only `DataPeerRequests` are served,
 * whatever the page's handlers grow to, and a peer's `cancel` stops only its own statement.
 * Runs the real DataHost on the Node build of DuckDB-WASM.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DataEvent, DataPeerRequests, DataRequests } from '../../../protocol/data';
import { RpcClient } from '../../../protocol/rpcClient';
import type { Engine } from '../engine/duckdbEngine';
import { DataHost } from './host';
import { DatasetStorage } from './storage';
import { NodeEngine } from '../testing/nodeEngine';

const noReader = async () => {
  throw new Error('not used');
};

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

/**
 * The Node build of DuckDB-WASM runs a statement synchronously, so nothing can cancel it midway:
 * this engine holds a statement that reads `range(4000000000)` (or executes one prepared so) until `cancel()`, as the
 * browser's worker-hosted DuckDB does, and answers it with DuckDB's interrupt error.
 */
async function holdingEngine(): Promise<Engine> {
  const engine = await NodeEngine.open();
  let release: (() => void) | undefined;
  const hold = <T>(): Promise<T> =>
    new Promise<T>((_, reject) => {
      release = () => reject(new Error('INTERRUPT Error: Interrupted!'));
    });
  // A query is prepared first (queryRunner.ts) and run as `EXECUTE`: the slow one is held then.
  let slowPrepared = false;
  const slow = (sql: string) => /range\(4000000000\)/.test(sql);
  return {
    version: () => engine.version(),
    query: (sql) => {
      if (/^PREPARE /.test(sql)) slowPrepared = slow(sql);
      return /^SELECT count\(\*\) AS n FROM range\(4000000000\)/.test(sql) ? hold() : engine.query(sql);
    },
    send: (sql) => ((slow(sql) && !/^\s*(EXPLAIN|DESCRIBE)/i.test(sql)) || (/^EXECUTE /.test(sql) && slowPrepared) ? hold() : engine.send(sql)),
    cancel: async () => {
      release?.();
      release = undefined;
      await engine.cancel();
    },
    tokenize: (sql) => engine.tokenize(sql),
    insertArrowStream: (ipc, table, create) => engine.insertArrowStream(ipc, table, create),
    registerBlob: (name, blob) => engine.registerBlob(name, blob),
    dropFile: (name) => engine.dropFile(name),
  };
}

async function hostWithPeer() {
  const host = new DataHost({
    boot: () => holdingEngine(),
    openStorage: () => DatasetStorage.open({ useOpfs: false }),
    readers: { parquet: noReader, arrow: noReader, excel: noReader, json: noReader, listExcelSheets: async () => [] },
  });
  const page = host.handlers();
  await page.init({});
  const loaded = await page.load({ source: { kind: 'text', text: 'id,v\n1,a\n2,b\n', fileName: 't.csv' }, options: { loadId: 't' } });
  expect(loaded.result.ok).toBe(true);
  const channel = new MessageChannel();
  await page.connect({ port: channel.port2, peer: 'agent' });
  const peer = new RpcClient<DataPeerRequests, DataEvent>(channel.port1);
  // A peer's JavaScript can post any request name: this client sends the page's as well.
  const raw = peer as unknown as RpcClient<DataRequests & DataPeerRequests, DataEvent>;
  const close = () => {
    peer.dispose('done');
    channel.port1.close();
  };
  return { host, page, peer, raw, close };
}

describe('the peer data port', { timeout: 120_000 }, () => {
  it('serves exactly the allow-list, never a page request', () => {
    const host = new DataHost({ boot: () => NodeEngine.open(), openStorage: async () => undefined, readers: { parquet: noReader, arrow: noReader, excel: noReader, json: noReader, listExcelSheets: async () => [] } });
    const allowed: (keyof DataPeerRequests)[] = ['list', 'modelQuery', 'cancel', 'profile', 'profileSample'];
    expect(Object.keys(host.readChannel('python')).sort()).toEqual([...allowed].sort());
  });

  it('refuses every page request, and prototype names, over the wire; reads work', async () => {
    const { raw, peer, close } = await hostWithPeer();
    try {
      expect((await peer.call('list', {})).map((d) => d.name)).toEqual(['t']);
      const q = await peer.call('modelQuery', { sql: 'SELECT count(*) AS n FROM t' });
      expect(q.ok).toBe(true);
      for (const type of ['consoleQuery', 'load', 'remove', 'rename', 'reread', 'connect', 'page', 'assess', 'queryTables', 'init', 'cancelLoad', 'excelSheets', 'query'] as const) {
        await expect(raw.call(type as keyof DataRequests, {} as never), type).rejects.toThrow(/unknown request/);
      }
      for (const type of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
        await expect(raw.call(type as keyof DataRequests, {} as never), type).rejects.toThrow(/unknown request/);
      }
      // Model SQL that would change a dataset is still judged and refused.
      expect((await peer.call('modelQuery', { sql: 'DROP TABLE t' })).ok).toBe(false);
      expect((await peer.call('list', {})).map((d) => d.name)).toEqual(['t']);
    } finally {
      close();
    }
  });

  it("a peer's cancel stops its own statement, not the page's; the page's cancel not a peer's", async () => {
    const { host, page, peer, close } = await hostWithPeer();
    try {
      const slow = 'SELECT count(*) AS n FROM range(4000000000) a';
      // The page's long statement: the peer's cancel leaves it alone.
      const pageRun = page.consoleQuery({ sql: slow });
      await waitRunning(host, 'page');
      expect(await peer.call('cancel', {})).toEqual({ cancelled: false });
      expect((await page.cancel({})).result).toEqual({ cancelled: true });
      expect((await pageRun).result.ok).toBe(false);
      // The peer's long statement: the page's cancel leaves it alone, the peer's stops it.
      const peerRun = peer.call('modelQuery', { sql: slow });
      await waitRunning(host, 'agent');
      expect((await page.cancel({})).result).toEqual({ cancelled: false });
      expect(await peer.call('cancel', {})).toEqual({ cancelled: true });
      const outcome = await peerRun;
      expect(outcome.ok).toBe(false);
    } finally {
      close();
    }
  });
});

/** Waits until DuckDB runs `owner`'s statement. */
async function waitRunning(host: DataHost, owner: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (host.runningFor() === owner) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no statement of ${owner} started`);
}
