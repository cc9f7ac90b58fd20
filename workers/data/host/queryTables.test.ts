/**
 * A trusted query's tables come from DuckDB's binder (issue 32), through the data worker's
 * `queryTables` request on the Node build of DuckDB-WASM: names that only look like a table's
 * (a CTE, a string literal) do not count, quoted and differently cased names do, and a view
 * dataset over a big file is found although its plan scans the file.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DataRequests } from '../../../protocol/data';
import type { Handlers } from '../../../protocol/rpcServer';
import { HEADROOM_BYTES } from '../engine/footprint';
import { DataHost, type HostDeps } from './host';
import { DatasetStorage } from './storage';
import { NodeEngine } from '../testing/nodeEngine';

const noReader = async () => {
  throw new Error('not used');
};

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

function makeHost(over: Partial<HostDeps> = {}) {
  const host = new DataHost({
    boot: () => NodeEngine.open(),
    openStorage: () => DatasetStorage.open({ useOpfs: false }),
    readers: { parquet: noReader, arrow: noReader, excel: noReader, json: noReader, listExcelSheets: async () => [] },
    ...over,
  });
  const h: Handlers<DataRequests> = host.handlers();
  return async <K extends keyof DataRequests & string>(type: K, payload: DataRequests[K]['req']): Promise<DataRequests[K]['res']> => {
    const handler = h[type] as (p: DataRequests[K]['req']) => Promise<{ result: DataRequests[K]['res'] }>;
    return (await handler(payload)).result;
  };
}

const tablesOf = async (call: ReturnType<typeof makeHost>, sql: string) => {
  const out = await call('queryTables', { sql });
  if (!out.ok) throw new Error(out.message);
  return out.tables;
};

describe('the tables a query reads, by DuckDB’s binder', { timeout: 120_000 }, () => {
  it('counts what the plan scans: not a CTE that shadows a table, not a name in a string', async () => {
    const call = makeHost();
    await call('init', {});
    await call('load', { source: { kind: 'text', text: 'id,cust,amount\n1,10,5\n2,11,7', fileName: 'orders.csv' }, options: { loadId: 'o' } });
    await call('load', { source: { kind: 'text', text: 'id,region\n10,North\n11,South', fileName: 'customers.csv' }, options: { loadId: 'c' } });

    // A CTE named like a dataset is the CTE: what it reads is what counts.
    expect(await tablesOf(call, 'WITH orders AS (SELECT * FROM customers) SELECT * FROM orders')).toEqual(['customers']);
    // Quoted, differently cased or qualified: the binder resolves them.
    expect(await tablesOf(call, 'SELECT sum(amount) FROM "ORDERS"')).toEqual(['orders']);
    expect(await tablesOf(call, 'SELECT sum("customers".amount) FROM memory.main."orders" AS "customers" JOIN customers c ON c.id = "customers".cust')).toEqual(['customers', 'orders']);
    // A subquery's table is read too.
    expect(await tablesOf(call, 'SELECT sum(amount) FROM orders WHERE cust IN (SELECT id FROM customers WHERE region = \'North\')')).toEqual(['customers', 'orders']);
    // A table's name inside a string literal (or a column alias) reads nothing.
    expect(await tablesOf(call, "SELECT 'customers' AS customers, count(*) FROM orders")).toEqual(['orders']);
    // A query over no table at all reads none.
    expect(await tablesOf(call, 'SELECT 42 AS orders')).toEqual([]);
  });

  it('refuses what the agent could not run, with DuckDB’s reason', async () => {
    const call = makeHost();
    await call('init', {});
    await call('load', { source: { kind: 'text', text: 'id,amount\n1,5', fileName: 'orders.csv' }, options: { loadId: 'o' } });
    const write = await call('queryTables', { sql: 'DELETE FROM orders' });
    expect(write.ok).toBe(false);
    expect(!write.ok && write.message).toMatch(/refused/);
    const typo = await call('queryTables', { sql: 'SELECT amount FROM order_typo' });
    expect(!typo.ok && typo.message).toMatch(/order_typo/);
    // Nothing was changed by asking.
    expect(await tablesOf(call, 'SELECT count(*) FROM orders')).toEqual(['orders']);
  });

  it('finds a view dataset over a big file (its plan scans the file), and leaves the view in place', async () => {
    const call = makeHost({ memoryCeilingBytes: HEADROOM_BYTES + 1 });
    await call('init', {});
    const big = ['id,city', ...Array.from({ length: 50 }, (_, i) => `${i},c${i % 3}`)].join('\n');
    const loaded = await call('load', { source: { kind: 'text', text: big, fileName: 'huge.csv' }, options: { loadId: 'h' } });
    expect(loaded.ok && loaded.datasets[0]?.view).toBe(true);
    await call('load', { source: { kind: 'text', text: 'city,name\nc1,Oslo\nc2,Bergen', fileName: 'cities.csv' }, options: { loadId: 'c' } });
    expect(await tablesOf(call, 'SELECT count(DISTINCT city) FROM huge')).toEqual(['huge']);
    expect(await tablesOf(call, 'SELECT h.id, c.name FROM huge h JOIN cities c USING (city)')).toEqual(['cities', 'huge']);
    // A CTE named like the view is the CTE.
    expect(await tablesOf(call, 'WITH huge AS (SELECT * FROM cities) SELECT * FROM huge')).toEqual(['cities']);
    expect(await tablesOf(call, "SELECT 'huge' AS t FROM cities")).toEqual(['cities']);
    const still = await call('consoleQuery', { sql: 'SELECT count(*) AS n FROM huge' });
    expect(still.ok).toBe(true);
  });
});
