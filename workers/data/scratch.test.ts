import { it } from 'vitest';
import { rowsOf } from './duckdbEngine';
import { NodeEngine } from './testing/nodeEngine';
it('x', async () => {
  const e = await NodeEngine.open();
  await e.query("CREATE TABLE t AS SELECT [1,2,3] AS l, 3 AS x, {'a':1} AS s");
  await e.query("CREATE SCHEMA priv; CREATE TABLE priv.t AS SELECT 1 AS y");
  const conn = (e as any).conn;
  for (const q of ["SELECT * FROM priv.t", "SELECT * FROM memory.priv.t", "WITH t AS (SELECT 1) SELECT * FROM t", "SELECT * FROM t"]) {
    try { console.log(q, conn.getTableNames(q)); } catch (err) { console.log('gtn ERR', String(err)); }
    try { console.log(rowsOf(await e.query(`SELECT json_serialize_sql('${q}') AS j`))[0]); } catch (err) { console.log('jss ERR', String(err).slice(0,200)); }
    await e.query("SET explain_output='all'");
    try { const r = rowsOf(await e.query('EXPLAIN (FORMAT JSON) ' + q)); console.log(JSON.stringify(r).slice(0,1500)); } catch (err) { console.log(q, 'ERR', String(err)); }
    await e.query("RESET explain_output");
  }
  console.log(rowsOf(await e.query("SELECT database_name, schema_name, table_name FROM duckdb_tables()")));
  console.log(rowsOf(await e.query("SELECT current_database(), current_schema(), current_setting('search_path') AS sp")));
});
