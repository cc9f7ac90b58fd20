/**
 * Model SQL keeps what it read of DuckDB's catalog only while nothing else has run: a homonym of a
 * dataset made by anyone (the console, a load) between two model queries is seen by the second.
 */
import { describe, expect, it, vi } from 'vitest';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import { runModelSql, type ModelScope } from './modelSql';
import { runQuery } from './queryRunner';
import { NodeEngine } from '../testing/nodeEngine';

const scope: ModelScope = { tables: new Set(['sales']), views: new Set() };
const CATALOG = /FROM duckdb_tables\(\)/;

async function engineWithSales(): Promise<NodeEngine> {
  const engine = await NodeEngine.open();
  await engine.query('CREATE TABLE sales AS SELECT range AS qty FROM range(10)');
  return engine;
}

describe('catalog facts kept between model runs', { timeout: 60_000 }, () => {
  it('reads the catalog once for back-to-back model queries', async () => {
    const engine = await engineWithSales();
    const query = vi.spyOn(engine, 'query');
    for (let i = 0; i < 3; i++) expect((await runModelSql(engine, 'SELECT sum(qty) AS s FROM sales', 10, scope)).ok).toBe(true);
    expect(query.mock.calls.filter(([sql]) => CATALOG.test(sql))).toHaveLength(1);
  });

  it('refuses a temporary homonym made in the console between two model queries', async () => {
    const engine = await engineWithSales();
    expect((await runModelSql(engine, 'SELECT sum(qty) AS s FROM sales', 10, scope)).ok).toBe(true);
    expect((await runQuery(engine, "CREATE TEMP TABLE sales AS SELECT 'secret' AS qty")).ok).toBe(true);
    const outcome = await runModelSql(engine, 'SELECT * FROM sales', 10, scope);
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? '' : outcome.message).toMatch(/temp\.main\.sales.*temporary/s);
  });

  it('refuses a homonym in another schema made in the console between two model queries', async () => {
    const engine = await engineWithSales();
    expect((await runModelSql(engine, 'SELECT * FROM priv_free_name', 10, scope)).ok).toBe(false);
    expect((await runModelSql(engine, 'SELECT sum(qty) AS s FROM sales', 10, scope)).ok).toBe(true);
    expect((await runQuery(engine, "CREATE SCHEMA priv; CREATE TABLE priv.sales AS SELECT 'secret' AS qty")).ok).toBe(true);
    const outcome = await runModelSql(engine, 'SELECT * FROM priv.sales', 10, scope);
    expect(outcome.ok ? '' : outcome.message).toMatch(/priv\.sales, which is not the dataset sales/);
  });

  it('refuses a homonym a load (a streamed CREATE TABLE AS) made between two model queries', async () => {
    const engine = await engineWithSales();
    expect((await runModelSql(engine, 'SELECT sum(qty) AS s FROM sales', 10, scope)).ok).toBe(true);
    const { batches } = await engine.send("CREATE TEMP TABLE sales AS SELECT 'secret' AS qty");
    for await (const _ of batches) {
      // Drained, as the load path drains its CREATE TABLE AS.
    }
    const outcome = await runModelSql(engine, 'SELECT * FROM sales', 10, scope);
    expect(outcome.ok ? '' : outcome.message).toMatch(/temp\.main\.sales.*temporary/s);
  });

  it('refuses a homonym an Arrow insert made between two model queries', async () => {
    const engine = await engineWithSales();
    await engine.query('CREATE TEMP TABLE stage (qty INTEGER)');
    expect((await runModelSql(engine, 'SELECT sum(qty) AS s FROM sales', 10, scope)).ok).toBe(true);
    // The insert appends to a temp table; the memo cannot tell an append from a create, so it rereads.
    await engine.insertArrowStream(tableToIPC(tableFromArrays({ qty: Int32Array.from([1]) }), 'stream'), 'stage', false);
    const query = vi.spyOn(engine, 'query');
    expect((await runModelSql(engine, 'SELECT sum(qty) AS s FROM sales', 10, scope)).ok).toBe(true);
    expect(query.mock.calls.filter(([sql]) => CATALOG.test(sql))).toHaveLength(1);
  });

  it('reads the catalog again when a statement slipped in while a model query ran', async () => {
    const engine = await engineWithSales();
    expect((await runModelSql(engine, 'SELECT sum(qty) AS s FROM sales', 10, scope)).ok).toBe(true);
    const query = vi.spyOn(engine, 'query');
    // Another caller's statement lands between the model run's own calls.
    const running = runModelSql(engine, 'SELECT sum(qty) AS s FROM sales', 10, scope);
    await engine.query('SELECT 1');
    expect((await running).ok).toBe(true);
    expect((await runModelSql(engine, 'SELECT sum(qty) AS s FROM sales', 10, scope)).ok).toBe(true);
    // The run with the stranger's statement and the one after both read the catalog.
    expect(query.mock.calls.filter(([sql]) => CATALOG.test(sql))).toHaveLength(2);
  });
});
