/**
 * The data worker's two SQL paths end to end (DataHost on the Node build of DuckDB-WASM): the
 * page's consoles ask before a change DuckDB finds in the script, and model SQL over another
 * worker's port (the agent's run_sql, Python's sql()) never changes anything. After every
 * statement the dataset list matches DuckDB's catalog.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { tableFromIPC } from 'apache-arrow';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DataEvent, DataPeerRequests, DataRequests, QueryOutcome } from '../../../protocol/data';
import { RpcClient } from '../../../protocol/rpcClient';
import type { Handlers } from '../../../protocol/rpcServer';
import { HEADROOM_BYTES } from '../engine/footprint';
import { DataHost, type HostDeps } from './host';
import { DatasetStorage } from './storage';
import { NodeEngine } from '../testing/nodeEngine';
import { ATTACKS } from '../testing/corpus/attacks';

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
  const call = async <K extends keyof DataRequests & string>(type: K, payload: DataRequests[K]['req']): Promise<DataRequests[K]['res']> => {
    const handler = h[type] as (p: DataRequests[K]['req']) => Promise<{ result: DataRequests[K]['res'] }>;
    return (await handler(payload)).result;
  };
  const load = (name: string, text: string) => call('load', { source: { kind: 'text', text, fileName: name }, options: { loadId: name } });
  /** The dataset list against DuckDB's catalog: names, columns and row counts. */
  const listMatchesCatalog = async () => {
    const list = await call('list', {});
    const catalog = rows(await call('consoleQuery', { sql: "SELECT table_name AS name FROM duckdb_tables() WHERE database_name = 'memory' AND schema_name = 'main' AND NOT temporary UNION ALL SELECT view_name FROM duckdb_views() WHERE database_name = 'memory' AND schema_name = 'main' AND NOT internal AND NOT temporary" })).map((r) => String(r.name));
    for (const d of list) {
      expect(catalog, `${d.name} is listed but not in DuckDB`).toContain(d.name);
      const n = rows(await call('consoleQuery', { sql: `SELECT count(*)::INTEGER AS n FROM memory.main."${d.name}"` }))[0]?.n;
      expect(n, `${d.name}'s row count`).toBe(d.rowCount);
    }
    return list.map((d) => d.name);
  };
  return { host, call, load, listMatchesCatalog };
}

const rows = (o: QueryOutcome) => {
  if (!o.ok) throw new Error(o.message);
  return tableFromIPC(o.result.ipc).toArray().map((r: { toJSON(): Record<string, unknown> }) => r.toJSON());
};

describe('the SQL console and notebook', { timeout: 120_000 }, () => {
  it('ask before a DROP smuggled after an escape string, and the list follows DuckDB after it runs', async () => {
    const { call, load, listMatchesCatalog } = makeHost();
    await call('init', {});
    await load('penguins.csv', 'species,mass\nAdelie,3750\nGentoo,4500\n');
    await load('weather.csv', 'w\nsun\n');
    const sql = "SELECT E'\\'' AS q; DROP TABLE penguins; SELECT 1";
    expect(await call('assess', { sql })).toEqual({ destructive: true, datasets: ['penguins'], statement: 'DROP TABLE penguins' });
    // The user confirmed: it runs, and the dataset leaves the list.
    expect(rows(await call('consoleQuery', { sql }))).toEqual([{ 1: 1 }]);
    expect(await listMatchesCatalog()).toEqual(['weather']);
  });

  it('ask before a temporary object shadows a dataset, and before USE or a search path change', async () => {
    const { call, load } = makeHost();
    await call('init', {});
    await load('penguins.csv', 'species\nAdelie\n');
    for (const sql of ['CREATE TEMP VIEW penguins AS SELECT 1 AS x', 'create temporary table "Penguins" as select 1', "SELECT 1; ATTACH ':memory:' AS m; USE m", "SET search_path = 'temp.main'"]) {
      const risk = await call('assess', { sql });
      expect(risk.destructive, sql).toBe(true);
      expect(risk.datasets, sql).toEqual(['penguins']);
    }
    expect((await call('assess', { sql: 'CREATE TEMP VIEW helper AS SELECT * FROM penguins' })).destructive).toBe(false);
  });

  it('keep the list equal to the catalog after every attack statement a user confirms', async () => {
    const { call, load, listMatchesCatalog } = makeHost();
    await call('init', {});
    await load('penguins.csv', 'species,body_mass_g\nAdelie,3750\nGentoo,4500\n');
    await load('weather.csv', 'w,temp_max\nsun,1\n');
    for (const sql of ATTACKS) {
      await call('consoleQuery', { sql });
      // A transaction the corpus opened (BEGIN) ends before the catalog is read; its end is a
      // console statement too.
      await call('consoleQuery', { sql: 'ROLLBACK' });
      await listMatchesCatalog();
    }
  });
});

describe('model SQL over another worker\'s port (run_sql, Python sql())', { timeout: 120_000 }, () => {
  it('refuses every attack and changes nothing; reads datasets, view datasets included', async () => {
    const { call, load, listMatchesCatalog } = makeHost({ memoryCeilingBytes: HEADROOM_BYTES + 1 });
    await call('init', {});
    const big = ['id,city', ...Array.from({ length: 50 }, (_, i) => `${i},c${i % 3}`)].join('\n');
    const loaded = await load('huge.csv', big);
    expect(loaded.ok && loaded.datasets[0]?.view).toBe(true);
    await call('consoleQuery', { sql: "CREATE TABLE penguins AS SELECT 'Adelie' AS species, 3750 AS body_mass_g" });
    await call('consoleQuery', { sql: 'CREATE TABLE weather AS SELECT 1 AS temp_max' });
    const channel = new MessageChannel();
    await call('connect', { port: channel.port2, peer: 'python' });
    const python = new RpcClient<DataPeerRequests, DataEvent>(channel.port1);
    try {
      expect(rows(await python.call('modelQuery', { sql: 'SELECT count(DISTINCT city)::INTEGER AS n FROM huge' }))).toEqual([{ n: 3 }]);
      // A view dataset's file is read through the view, not by name.
      expect((await python.call('modelQuery', { sql: "SELECT * FROM read_csv('/dataseer/view_1.csv')" })).ok).toBe(false);
      const before = await listMatchesCatalog();
      for (const sql of ATTACKS) {
        const outcome = await python.call('modelQuery', { sql });
        expect(outcome.ok, `${sql} ran`).toBe(false);
      }
      expect(await listMatchesCatalog()).toEqual(before);
      expect(rows(await call('consoleQuery', { sql: 'SELECT count(*)::INTEGER AS n FROM duckdb_variables()' }))).toEqual([{ n: 0 }]);
    } finally {
      python.dispose('done');
      channel.port1.close();
    }
  });
});
