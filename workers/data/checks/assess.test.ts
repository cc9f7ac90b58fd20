import { beforeAll, describe, expect, it } from 'vitest';
import { assessSql, renameIn } from './assess';
import { splitScript } from '../engine/sqlScript';
import { NodeEngine } from '../testing/nodeEngine';

const ds = ['penguins', 'weather', 'select'];
let engine: NodeEngine;

beforeAll(async () => {
  engine = await NodeEngine.open();
  await engine.query('CREATE TABLE penguins (species VARCHAR, x INT, "export" INT, "set" INT)');
  await engine.query('CREATE TABLE weather (a INT, x INT)');
  await engine.query('CREATE TABLE "select" (a INT)');
});

const assess = (sql: string) => assessSql(engine, sql, ds);

describe('assessSql on DuckDB', { timeout: 60_000 }, () => {
  it('lets reads through, whatever words they contain', async () => {
    for (const sql of [
      'SELECT * FROM penguins WHERE species = $$drop table penguins$$',
      "SELECT 'DROP TABLE penguins; DELETE FROM weather' AS s",
      '-- drop table penguins\nSELECT 1 /* delete from weather */',
      'CREATE TABLE summary AS SELECT * FROM penguins',
      "COPY penguins TO 'out.csv'",
      'SELECT export, "set", update FROM (SELECT 1 AS update), penguins',
      "SELECT E'\\' drop table penguins; --' AS s",
    ]) expect((await assess(sql)).destructive, sql).toBe(false);
  });

  it.each([
    ['DROP TABLE penguins', ['penguins']],
    ['drop table if exists main.Penguins, weather', ['penguins', 'weather']],
    ['DROP VIEW "weather"', ['weather']],
    ['ALTER TABLE penguins ADD COLUMN y INT', ['penguins']],
    ['DELETE FROM weather WHERE 1=1', ['weather']],
    ['UPDATE penguins SET x = 1', ['penguins']],
    ['TRUNCATE penguins', ['penguins']],
    ['TRUNCATE TABLE memory.main.weather', ['weather']],
    ["INSERT INTO penguins VALUES ('a', 1, 2, 3)", ['penguins']],
    ['INSERT OR REPLACE INTO penguins SELECT species, x, x, x FROM penguins', ['penguins']],
    ['CREATE OR REPLACE TABLE weather AS SELECT 1', ['weather']],
    ['create or replace temp view penguins as select 1', ['penguins']],
    ['CREATE TEMP VIEW penguins AS SELECT 1', ['penguins']],
    ['CREATE TEMPORARY TABLE Weather AS SELECT 1', ['weather']],
    ['DROP TABLE "select"', ['select']],
    ["COPY weather FROM 'x.csv'", ['weather']],
    ['WITH t AS (SELECT 1) DELETE FROM penguins', ['penguins']],
    ['MERGE INTO penguins USING weather ON penguins.x = weather.x WHEN MATCHED THEN DELETE', ['penguins']],
    ['DROP SCHEMA main CASCADE', ['penguins', 'weather', 'select']],
    ["USE memory", ['penguins', 'weather', 'select']],
    ["SET search_path = 'memory.main'", ['penguins', 'weather', 'select']],
  ])('%s → destructive', async (sql, expected) => {
    const r = await assess(sql);
    expect(r.destructive).toBe(true);
    expect(r.datasets.sort()).toEqual([...expected].sort());
    expect(r.statement).toBe(sql);
  });

  it('sees statements an escape string, dollar quote or nested comment would hide from a hand lexer', async () => {
    for (const [sql, statement] of [
      ["SELECT E'\\'' AS q; UPDATE penguins SET x = 1; SELECT 1", 'UPDATE penguins SET x = 1'],
      ["SELECT E'\\\\'; DROP TABLE penguins", 'DROP TABLE penguins'],
      ['SELECT $a$ x $a$; DELETE FROM penguins', 'DELETE FROM penguins'],
      ['SELECT 1 /* a /* nested */ still; comment */; DROP TABLE penguins', 'DROP TABLE penguins'],
      ['SELECT "a;b" FROM (SELECT 1 AS "a;b"); DROP TABLE "penguins"', 'DROP TABLE "penguins"'],
    ] as const) {
      const r = await assess(sql);
      expect(r, sql).toEqual({ destructive: true, datasets: ['penguins'], statement });
    }
  });

  it('ignores tables that are not datasets', async () => {
    expect(await assess('CREATE TABLE scratch AS SELECT 1 AS a; DROP TABLE scratch')).toEqual({ destructive: false, datasets: [], statement: '' });
  });

  it('finds the destructive statement among several, quote-aware', async () => {
    const r = await assess("SELECT ';'; SELECT 2; DELETE FROM \"weather\" WHERE a = 'x;y'");
    expect(r).toEqual({ destructive: true, datasets: ['weather'], statement: "DELETE FROM \"weather\" WHERE a = 'x;y'" });
  });

  it('is not fooled by quoted names', async () => {
    expect((await assess('SELECT "drop" FROM (SELECT 1 AS "drop")')).destructive).toBe(false);
    expect((await assess('DROP TABLE IF EXISTS "penguins_2"')).destructive).toBe(false);
  });
});

describe('splitScript and renameIn', { timeout: 60_000 }, () => {
  it('splits where DuckDB does', async () => {
    expect((await splitScript(engine, "select 1; select ';' ; -- x;\n select \"a;b\";; select E'\\';'")).map((s) => s.text)).toEqual([
      'select 1',
      "select ';'",
      '-- x;\n select "a;b"',
      "select E'\\';'",
    ]);
    expect((await splitScript(engine, "SELECT 'é∕'; SELECT 2")).map((s) => s.text)).toEqual(["SELECT 'é∕'", 'SELECT 2']);
  });
  it('reads renames', async () => {
    const [s] = await splitScript(engine, 'ALTER TABLE penguins RENAME TO "Birds"');
    expect(s && renameIn(s)).toEqual({ from: 'penguins', to: 'Birds' });
    const [t] = await splitScript(engine, 'ALTER TABLE penguins ADD COLUMN x INT');
    expect(t && renameIn(t)).toBeUndefined();
  });
});
