/**
 * Both directions of the model-SQL path, on the real DuckDB-WASM (Node build): realistic
 * read-only queries are never refused (a public text-to-SQL benchmark's gold queries and our own
 * everyday set), and no smuggling form writes, changes the session or reads outside the datasets.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type Engine } from './duckdbEngine';
import { runModelSql, type ModelScope } from './modelSql';
import { NodeEngine } from '../testing/nodeEngine';
import { ATTACKS } from '../testing/corpus/attacks';
import { EVERYDAY_QUERIES, EVERYDAY_SETUP } from '../testing/corpus/everyday';

interface Spider {
  schemas: Record<string, string[]>;
  queries: { db: string; sql: string }[];
}
const spider = JSON.parse(readFileSync(new URL('../testing/corpus/spider-dev.json', import.meta.url), 'utf8')) as Spider;
const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** Whether DuckDB runs `sql` read-only on a plain connection, with no guard at all. */
async function runsPlainly(engine: NodeEngine, sql: string): Promise<boolean> {
  await engine.query('BEGIN TRANSACTION READ ONLY');
  try {
    await engine.query(sql);
    return true;
  } catch {
    return false;
  } finally {
    await engine.query('ROLLBACK').catch(() => undefined);
  }
}

describe('acceptance corpus: read-only analytical SQL is never refused', { timeout: 600_000 }, () => {
  it('runs every Spider dev gold query that DuckDB runs plainly (≥ 1,000 with the everyday set)', async () => {
    const engine = await NodeEngine.open();
    const scopes = new Map<string, ModelScope>();
    for (const [db, creates] of Object.entries(spider.schemas)) {
      // One schema per benchmark database: their table names overlap.
      await engine.query(`CREATE SCHEMA ${quote(db)}`);
      await engine.query(`SET schema = ${quote(db).replace(/"/g, "'")}`);
      for (const sql of creates) await engine.query(sql);
      const names = rowsOf(await engine.query(`SELECT table_name FROM duckdb_tables() WHERE schema_name = '${db}'`)).map((r) => String(r.table_name).toLowerCase());
      // The datasets live in their benchmark's schema (where the guard holds their scans).
      scopes.set(db, { tables: new Set(names), views: new Set(), home: { catalog: 'memory', schema: db.toLowerCase() } });
    }
    const refused: string[] = [];
    let plain = 0;
    for (const { db, sql } of spider.queries) {
      await engine.query(`SET schema = '${db}'`);
      if (!(await runsPlainly(engine, sql))) continue;
      plain++;
      const outcome = await runModelSql(engine, sql, 10, scopes.get(db) ?? { tables: new Set(), views: new Set() });
      if (!outcome.ok) refused.push(`${db}: ${sql} → ${outcome.message}`);
    }
    expect(refused).toEqual([]);
    expect(plain + EVERYDAY_QUERIES.length).toBeGreaterThanOrEqual(1_000);
  });

  it('runs the everyday set: IN lists, keyword-named columns, windows, PIVOT, lambdas, E-strings…', async () => {
    const engine = await NodeEngine.open();
    for (const sql of EVERYDAY_SETUP) await engine.query(sql);
    const scope: ModelScope = { tables: new Set(['penguins', 'weather']), views: new Set() };
    const notPlain: string[] = [];
    const refused: string[] = [];
    for (const sql of EVERYDAY_QUERIES) {
      if (!(await runsPlainly(engine, sql))) notPlain.push(sql);
      const outcome = await runModelSql(engine, sql, 10, scope);
      if (!outcome.ok) refused.push(`${sql} → ${outcome.message}`);
    }
    // The set is meaningful only if DuckDB runs every query of it.
    expect(notPlain).toEqual([]);
    expect(refused).toEqual([]);
  });
});

describe('attack corpus: nothing smuggled succeeds on the model path', { timeout: 600_000 }, () => {
  let engine: NodeEngine;
  const scope: ModelScope = { tables: new Set(['penguins', 'weather']), views: new Set() };
  beforeAll(async () => {
    engine = await NodeEngine.open();
    for (const sql of EVERYDAY_SETUP) await engine.query(sql);
    // A table the user made in the console is not a dataset the model may read.
    await engine.query('CREATE TABLE scratch AS SELECT 1 AS x');
  });

  const state = async () =>
    JSON.stringify({
      penguins: rowsOf(await engine.query('SELECT * FROM memory.main.penguins ORDER BY ALL')),
      weather: rowsOf(await engine.query('SELECT count(*)::INT AS n, sum(temp_max) AS t FROM memory.main.weather')),
      tables: rowsOf(await engine.query('SELECT database_name, schema_name, table_name FROM duckdb_tables() ORDER BY ALL')),
      views: rowsOf(await engine.query('SELECT database_name, view_name FROM duckdb_views() WHERE NOT internal ORDER BY ALL')),
      databases: rowsOf(await engine.query('SELECT database_name FROM duckdb_databases() ORDER BY ALL')),
      // The statement the judge prepared is gone once the call ends.
      prepared: rowsOf(await engine.query('SELECT name FROM duckdb_prepared_statements()')),
      variables: rowsOf(await engine.query('SELECT * FROM duckdb_variables()')),
      other: rowsOf(await engine.query("SELECT (SELECT count(*) FROM duckdb_sequences())::INT AS seq, (SELECT count(*) FROM duckdb_types() WHERE NOT internal)::INT AS types, (SELECT count(*) FROM duckdb_functions() WHERE NOT internal)::INT AS macros, (SELECT count(*) FROM duckdb_schemas())::INT AS schemas, current_database() AS db, current_schema() AS sch")),
    });

  it.each(ATTACKS.map((sql) => [sql]))('%s', async (sql) => {
    const before = await state();
    const outcome = await runModelSql(engine, sql, 10, scope);
    expect(outcome.ok, outcome.ok ? 'ran' : outcome.message).toBe(false);
    if (!outcome.ok) expect(outcome.message.length).toBeGreaterThan(10);
    expect(await state()).toEqual(before);
    // No transaction was left open: the engine takes a new one.
    await engine.query('BEGIN TRANSACTION');
    await engine.query('ROLLBACK');
  });
});

describe('one parse, one plan: the plan judged is the plan run', { timeout: 120_000 }, () => {
  /** The engine, with every statement sent to DuckDB written down. */
  function recording(engine: NodeEngine): { engine: Engine; sent: string[] } {
    const sent: string[] = [];
    const wrapped: Engine = {
      version: () => engine.version(),
      query: (sql) => (sent.push(sql), engine.query(sql)),
      send: (sql) => (sent.push(sql), engine.send(sql)),
      cancel: () => engine.cancel(),
      tokenize: (sql) => engine.tokenize(sql),
      insertArrowStream: (ipc, table, create) => engine.insertArrowStream(ipc, table, create),
      registerBlob: (name, blob) => engine.registerBlob(name, blob),
      dropFile: (name) => engine.dropFile(name),
    };
    return { engine: wrapped, sent };
  }

  it('sends the model\'s text to DuckDB once (PREPARE), judges EXECUTE\'s plan, runs EXECUTE, and names DuckDB\'s types', async () => {
    const node = await NodeEngine.open();
    await node.query("CREATE TABLE sales AS SELECT range % 3 AS region, range AS qty, 'x' || range AS note FROM range(1000)");
    const { engine, sent } = recording(node);
    const sql = 'SELECT region, count(*) AS n, sum(qty) AS total, list(note ORDER BY qty)[1] AS first_note FROM sales GROUP BY region ORDER BY region';
    const outcome = await runModelSql(engine, sql, 100, { tables: new Set(['sales']), views: new Set() });
    expect(outcome.ok, outcome.ok ? '' : outcome.message).toBe(true);
    // The model's text appears in exactly one statement: the one DuckDB parses and plans.
    expect(sent.filter((s) => s.includes(sql))).toEqual([`PREPARE dataseer_statement AS ${sql}`]);
    expect(sent.some((s) => /^\s*(DESCRIBE|EXPLAIN \(FORMAT JSON\) SELECT)/i.test(s))).toBe(false);
    expect(sent).toContain('EXPLAIN (FORMAT JSON) EXECUTE dataseer_statement');
    expect(sent).toContain('EXECUTE dataseer_statement');
    // BIGINT and HUGEINT arrive as doubles over Arrow here (castBigIntToDouble): the names are DuckDB's own.
    if (outcome.ok) expect(outcome.result.columns).toEqual([
      { name: 'region', type: 'BIGINT' },
      { name: 'n', type: 'BIGINT' },
      { name: 'total', type: 'HUGEINT' },
      { name: 'first_note', type: 'VARCHAR' },
    ]);
    expect(rowsOf(await node.query('SELECT name FROM duckdb_prepared_statements()'))).toEqual([]);
  });

  it('still judges EXPLAIN and DESCRIBE by their query, and refuses a write before anything runs', async () => {
    const node = await NodeEngine.open();
    await node.query('CREATE TABLE sales AS SELECT range AS qty FROM range(10)');
    const scope: ModelScope = { tables: new Set(['sales']), views: new Set() };
    const described = await runModelSql(node, 'DESCRIBE SELECT qty * 2 AS double_qty FROM sales', 10, scope);
    expect(described.ok && described.result.rowCount).toBe(1);
    const hidden = await runModelSql(node, "DESCRIBE SELECT * FROM read_csv('/dataseer/x.csv')", 10, scope);
    expect(hidden.ok).toBe(false);
    const write = await runModelSql(node, 'INSERT INTO sales VALUES (1)', 10, scope);
    expect(write.ok).toBe(false);
    expect(rowsOf(await node.query('SELECT count(*)::INT AS n FROM sales'))).toEqual([{ n: 10 }]);
  });
});
