import { describe, expect, it } from 'vitest';
import { assessSql, renameIn } from './assess';
import { splitStatements } from './sqlTokens';

const ds = ['penguins', 'weather', 'select'];

describe('assessSql', () => {
  it('lets reads through', () => {
    expect(assessSql('SELECT * FROM penguins WHERE species = $$drop table penguins$$', ds).destructive).toBe(false);
    expect(assessSql("SELECT 'DROP TABLE penguins; DELETE FROM weather' AS s", ds).destructive).toBe(false);
    expect(assessSql('-- drop table penguins\nSELECT 1 /* delete from weather */', ds).destructive).toBe(false);
    expect(assessSql('CREATE TABLE summary AS SELECT * FROM penguins', ds).destructive).toBe(false);
    expect(assessSql("COPY penguins TO 'out.csv'", ds).destructive).toBe(false);
  });
  it.each([
    ['DROP TABLE penguins', ['penguins']],
    ['drop table if exists main.Penguins, weather', ['penguins', 'weather']],
    ['DROP VIEW "weather"', ['weather']],
    ['ALTER TABLE penguins ADD COLUMN x INT', ['penguins']],
    ['DELETE FROM weather WHERE 1=1', ['weather']],
    ['UPDATE penguins SET x = 1', ['penguins']],
    ['TRUNCATE penguins', ['penguins']],
    ['TRUNCATE TABLE memory.main.weather', ['weather']],
    ['INSERT INTO penguins VALUES (1)', ['penguins']],
    ['INSERT OR REPLACE INTO penguins SELECT * FROM weather', ['penguins']],
    ['CREATE OR REPLACE TABLE weather AS SELECT 1', ['weather']],
    ['create or replace temp view penguins as select 1', ['penguins']],
    ['DROP TABLE "select"', ['select']],
    ["COPY weather FROM 'x.csv'", ['weather']],
    ['WITH t AS (SELECT 1) DELETE FROM penguins', ['penguins']],
    ['DROP SCHEMA main CASCADE', ['penguins', 'weather', 'select']],
  ])('%s → destructive', (sql, expected) => {
    const r = assessSql(sql, ds);
    expect(r.destructive).toBe(true);
    expect(r.datasets.sort()).toEqual([...expected].sort());
    expect(r.statement).toBe(sql);
  });
  it('ignores tables that are not datasets', () => {
    expect(assessSql('DROP TABLE scratch; DELETE FROM tmp', ds)).toEqual({ destructive: false, datasets: [], statement: '' });
  });
  it('finds the destructive statement among several, quote-aware', () => {
    const r = assessSql("SELECT ';'; SELECT 2; DELETE FROM \"weather\" WHERE a = 'x;y'", ds);
    expect(r).toEqual({ destructive: true, datasets: ['weather'], statement: "DELETE FROM \"weather\" WHERE a = 'x;y'" });
  });
  it('is not fooled by quoted names', () => {
    expect(assessSql('SELECT "drop" FROM penguins', ds).destructive).toBe(false);
    expect(assessSql('DROP TABLE "penguins_2"', ds).destructive).toBe(false);
  });
});

describe('splitStatements and renameIn', () => {
  it('splits on top-level semicolons only', () => {
    expect(splitStatements("select 1; select ';' ; -- x;\n select \"a;b\";;").map((s) => s.text)).toEqual([
      'select 1',
      "select ';'",
      '-- x;\n select "a;b"',
    ]);
  });
  it('reads renames', () => {
    const [s] = splitStatements('ALTER TABLE penguins RENAME TO "Birds"');
    expect(s && renameIn(s)).toEqual({ from: 'penguins', to: 'Birds' });
    const [t] = splitStatements('ALTER TABLE penguins ADD COLUMN x INT');
    expect(t && renameIn(t)).toBeUndefined();
  });
});
