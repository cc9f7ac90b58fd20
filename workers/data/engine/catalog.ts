import type { ColumnInfo } from '../../../protocol/data';
import { rowsOf, type Engine } from './duckdbEngine';
import { quoteIdent, quoteLiteral } from '../../../shared/sql';

/** What DuckDB itself knows about its tables: the source of truth behind the dataset list. */

/** `known`: the table's columns as just read from the catalog, not asked again. */
export async function describeTable(engine: Engine, name: string, known?: ColumnInfo[]): Promise<{ columns: ColumnInfo[]; rowCount: number }> {
  const columns = known ?? (await columnTypes(engine, name));
  const count = rowsOf(await engine.query(`SELECT count(*)::DOUBLE AS n FROM ${quoteIdent(name)}`))[0];
  return { columns, rowCount: Number(count?.n ?? 0) };
}

/** A table's columns and their DuckDB types, in order. */
export async function columnTypes(engine: Engine, name: string): Promise<ColumnInfo[]> {
  const cols = rowsOf(
    await engine.query(
      `SELECT column_name, data_type FROM duckdb_columns() WHERE schema_name = 'main' AND table_name = ${quoteLiteral(name)} ORDER BY column_index`,
    ),
  );
  return cols.map((c) => ({ name: String(c.column_name), type: String(c.data_type) }));
}

/** Every table and view in the main schema (user-made ones too, so names never clash). */
export async function tableNames(engine: Engine): Promise<string[]> {
  const rows = rowsOf(
    await engine.query(
      "SELECT table_name AS name FROM duckdb_tables() WHERE schema_name = 'main' UNION ALL SELECT view_name FROM duckdb_views() WHERE schema_name = 'main' AND NOT internal",
    ),
  );
  return rows.map((r) => String(r.name));
}

/**
 * The tables and views of the main database's main schema: what a dataset name means. (Temporary
 * objects and attached databases are not datasets.)
 */
export async function mainTableNames(engine: Engine): Promise<string[]> {
  const rows = rowsOf(
    await engine.query(
      "SELECT table_name AS name FROM duckdb_tables() WHERE database_name = 'memory' AND schema_name = 'main' UNION ALL SELECT view_name FROM duckdb_views() WHERE database_name = 'memory' AND schema_name = 'main' AND NOT internal",
    ),
  );
  return rows.map((r) => String(r.name));
}

/** Bytes DuckDB holds in memory now (tables, buffers), for the footprint check. */
export async function memoryUsed(engine: Engine): Promise<number> {
  try {
    const row = rowsOf(await engine.query('SELECT coalesce(sum(memory_usage_bytes), 0)::DOUBLE AS used FROM duckdb_memory()'))[0];
    return Number(row?.used ?? 0);
  } catch {
    return 0;
  }
}
