/**
 * DuckDB's dialect on the model-SQL path (issue #31), on the real DuckDB-WASM (Node build):
 * lateral unnest, lists, structs, PIVOT, QUALIFY, ASOF and USING KEY are accepted; a user's own
 * table with a dataset's name, and file readers, are refused with a message that says why and
 * how to rewrite.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from './duckdbEngine';
import { runModelSql, type ModelScope } from './modelSql';
import { referencesTo } from './modelScope';
import { splitScript } from './sqlScript';
import { NodeEngine } from '../testing/nodeEngine';
import { DIALECT_ACCEPTED, DIALECT_DATASETS, DIALECT_REFUSED, DIALECT_SETUP } from '../testing/corpus/duckdbDialect';

let engine: NodeEngine;
const scope: ModelScope = { tables: new Set(DIALECT_DATASETS), views: new Set() };

/** A refusal names what to do instead. */
const REWRITE = /instead|Rewrite|rewrite|ask the user|Ask the user|write the dataset|; write /;

beforeAll(async () => {
  engine = await NodeEngine.open();
  for (const sql of DIALECT_SETUP) await engine.query(sql);
}, 120_000);

async function runsPlainly(sql: string): Promise<string | null> {
  await engine.query('BEGIN TRANSACTION READ ONLY');
  try {
    await engine.query(sql);
    return null;
  } catch (e) {
    return String(e);
  } finally {
    await engine.query('ROLLBACK').catch(() => undefined);
  }
}

describe('DuckDB dialect: accepted', { timeout: 120_000 }, () => {
  it.each(DIALECT_ACCEPTED.map((sql) => [sql]))('%s', async (sql) => {
    // The set means something only if DuckDB runs each query plainly.
    expect(await runsPlainly(sql)).toBeNull();
    const outcome = await runModelSql(engine, sql, 10, scope);
    expect(outcome.ok ? 'ok' : outcome.message).toBe('ok');
  });

  it('reads the dataset, not the homonym, through a lateral unnest', async () => {
    const outcome = await runModelSql(engine, 'SELECT species, tag FROM penguins, unnest(tags) AS u(tag) ORDER BY ALL', 10, scope);
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(outcome.result.rowCount).toBe(3);
  });
});

describe('DuckDB dialect: refused, with why and how to rewrite', { timeout: 120_000 }, () => {
  it.each(DIALECT_REFUSED.map((sql) => [sql]))('%s', async (sql) => {
    const outcome = await runModelSql(engine, sql, 10, scope);
    expect(outcome.ok, outcome.ok ? `ran: ${JSON.stringify(outcome.result.columns)}` : '').toBe(false);
    if (!outcome.ok) {
      expect(outcome.message).not.toMatch(/INOUT FUNCTION statement|not a query \(/);
      expect(outcome.message).toMatch(/^refused: /);
      expect(outcome.message).toMatch(REWRITE);
    }
  });

  it('a temporary table that shadows a dataset is refused for a bare name and allowed by full name', async () => {
    await engine.query('CREATE TEMP TABLE penguins AS SELECT 1 AS species');
    try {
      const bare = await runModelSql(engine, 'SELECT * FROM penguins', 10, scope);
      expect(bare.ok).toBe(false);
      if (!bare.ok) expect(bare.message).toMatch(/temp\.main\.penguins.*drop or rename/s);
      const full = await runModelSql(engine, 'SELECT count(*) AS n FROM memory.main.penguins', 10, scope);
      expect(full.ok).toBe(true);
    } finally {
      await engine.query('DROP TABLE temp.penguins');
    }
  });

  it('after a console SET schema, a bare name that finds the homonym is refused; the full name still reads the dataset', async () => {
    await engine.query("SET schema = 'priv'");
    try {
      const bare = await runModelSql(engine, 'SELECT * FROM penguins', 10, scope);
      expect(bare.ok).toBe(false);
      if (!bare.ok) expect(bare.message).toMatch(/looked up in memory\.priv.*memory\.main\.penguins/s);
      const full = await runModelSql(engine, 'SELECT count(*) AS n FROM memory.main.penguins', 10, scope);
      expect(full.ok).toBe(true);
    } finally {
      await engine.query("SET schema = 'main'");
    }
  });

  it('a view or table macro the user made over the homonym is refused while the homonym exists', async () => {
    await engine.query('CREATE VIEW pv AS SELECT * FROM priv.penguins');
    await engine.query('CREATE MACRO pm() AS TABLE SELECT * FROM priv.penguins');
    try {
      for (const sql of ['SELECT * FROM pv', 'SELECT * FROM pm()']) {
        const outcome = await runModelSql(engine, sql, 10, scope);
        expect(outcome.ok, sql).toBe(false);
      }
    } finally {
      await engine.query('DROP VIEW pv');
      await engine.query('DROP MACRO TABLE pm');
    }
  });

  it('the old INOUT message is gone: a refused operator says what it does and what to write', async () => {
    const outcome = await runModelSql(engine, "INSERT INTO penguins SELECT * FROM penguins", 10, scope);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.message).toMatch(/ask the user to run it in the SQL console|writes/);
  });

  it('no dataset changed and nothing was left open', async () => {
    expect(rowsOf(await engine.query('SELECT count(*)::INT AS n FROM memory.main.penguins'))[0]?.n).toBe(3);
    await engine.query('BEGIN TRANSACTION');
    await engine.query('ROLLBACK');
  });
});

describe('referencesTo', () => {
  it('finds each relation reference to a name with its qualifiers, as DuckDB lexes them', async () => {
    const [stmt] = await splitScript(engine, 'SELECT penguins.species, p.penguins FROM "PRIV" . penguins, memory.main.penguins, penguins');
    expect(referencesTo(stmt?.tokens ?? [], 'penguins')).toEqual([['p'], ['priv'], ['memory', 'main'], []]);
  });
});
