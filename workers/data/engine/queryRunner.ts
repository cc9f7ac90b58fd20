import { DataType, tableToIPC, Table, type RecordBatch, type Schema } from 'apache-arrow';
import type { ColumnInfo, QueryOutcome, QueryResult } from '../../../protocol/data';
import { rowsOf, type Engine } from './duckdbEngine';
import { briefSqlError } from './sqlError';
import { nameOf, splitScript } from './sqlScript';

export const DEFAULT_MAX_ROWS = 10_000;

/** DuckDB-style names for Arrow types, when DuckDB cannot describe the statement itself. */
export function arrowTypeName(type: DataType): string {
  if (DataType.isInt(type)) {
    const base = { 8: 'TINYINT', 16: 'SMALLINT', 32: 'INTEGER', 64: 'BIGINT' }[type.bitWidth] ?? 'BIGINT';
    return type.isSigned ? base : `U${base}`;
  }
  if (DataType.isFloat(type)) return type.precision === 0 ? 'FLOAT' : type.precision === 1 ? 'FLOAT' : 'DOUBLE';
  if (DataType.isDecimal(type)) return `DECIMAL(${type.precision},${type.scale})`;
  if (DataType.isUtf8(type) || DataType.isLargeUtf8(type)) return 'VARCHAR';
  if (DataType.isBool(type)) return 'BOOLEAN';
  if (DataType.isDate(type)) return 'DATE';
  if (DataType.isTimestamp(type)) return 'TIMESTAMP';
  if (DataType.isTime(type)) return 'TIME';
  if (DataType.isInterval(type) || DataType.isDuration(type)) return 'INTERVAL';
  if (DataType.isBinary(type) || DataType.isLargeBinary(type)) return 'BLOB';
  if (DataType.isList(type) || DataType.isFixedSizeList(type)) return 'LIST';
  if (DataType.isStruct(type)) return 'STRUCT';
  if (DataType.isMap(type)) return 'MAP';
  if (DataType.isNull(type)) return 'NULL';
  return String(type);
}

function columnsFromSchema(schema: Schema): ColumnInfo[] {
  return schema.fields.map((f) => ({ name: f.name, type: arrowTypeName(f.type) }));
}

const DESCRIBABLE = new Set(['select', 'with', 'from', 'values', 'table', 'pivot', 'unpivot']);

/** DuckDB's own type names for a query's columns (one bind, no execution), or undefined. */
async function describeColumns(engine: Engine, statement: string, firstWord: string | undefined): Promise<ColumnInfo[] | undefined> {
  if (!firstWord || !DESCRIBABLE.has(firstWord)) return undefined;
  try {
    return rowsOf(await engine.query(`DESCRIBE ${statement}`)).map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
  } catch {
    return undefined;
  }
}

/**
 * Pulls at most `maxRows` rows of a streamed result, then abandons the rest: the whole result
 * is never materialised. Returns the rows as an Arrow IPC stream.
 */
export async function collectRows(engine: Engine, sql: string, maxRows: number, columns?: ColumnInfo[]): Promise<Omit<QueryResult, 'elapsedMs'>> {
  const { schema, batches } = await engine.send(sql);
  const kept: RecordBatch[] = [];
  let rows = 0;
  let truncated = false;
  for await (const batch of batches) {
    if (batch.numRows === 0) continue;
    if (rows >= maxRows) {
      truncated = true;
      break;
    }
    const take = Math.min(batch.numRows, maxRows - rows);
    kept.push(take < batch.numRows ? batch.slice(0, take) : batch);
    rows += take;
    if (take < batch.numRows) {
      truncated = true;
      break;
    }
  }
  if (truncated) await engine.cancel().catch(() => undefined);
  const table = kept.length > 0 ? new Table(kept) : new Table(schema);
  const cols = columns && columns.length === schema.fields.length ? columns : columnsFromSchema(schema);
  return { columns: cols, ipc: tableToIPC(table, 'stream'), rowCount: rows, truncated };
}

/** Runs one statement and returns its rows (truncated to `maxRows`); DuckDB's error text comes back as a value. */
export async function runStatement(engine: Engine, text: string, firstWord: string | undefined, maxRows: number, started = performance.now()): Promise<QueryOutcome> {
  try {
    const columns = await describeColumns(engine, text, firstWord);
    const result = await collectRows(engine, text, Math.max(0, Math.floor(maxRows)), columns);
    return { ok: true, result: { ...result, elapsedMs: performance.now() - started } };
  } catch (e) {
    return { ok: false, message: briefSqlError(e) };
  }
}

/**
 * Runs a script (the page's consoles): DuckDB's lexer splits it, every statement but the last is
 * executed, the last one's rows come back (truncated to `maxRows`). DuckDB's error text comes
 * back as a value.
 */
export async function runQuery(engine: Engine, sql: string, maxRows = DEFAULT_MAX_ROWS): Promise<QueryOutcome> {
  const started = performance.now();
  try {
    const statements = await splitScript(engine, sql);
    const last = statements.at(-1);
    if (!last) return { ok: false, message: 'The query is empty.' };
    for (const stmt of statements.slice(0, -1)) await engine.query(stmt.text);
    return await runStatement(engine, last.text, nameOf(last.tokens[0]), maxRows, started);
  } catch (e) {
    return { ok: false, message: briefSqlError(e) };
  }
}
