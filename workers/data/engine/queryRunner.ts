import { DataType, tableToIPC, Table, type RecordBatch, type Schema } from 'apache-arrow';
import type { ColumnInfo, QueryOutcome, QueryResult } from '../../../protocol/data';
import { rowsOf, type Engine } from './duckdbEngine';
import { briefSqlError } from './sqlError';
import { nameOf, splitScript, type SqlStatement } from './sqlScript';

export const DEFAULT_MAX_ROWS = 10_000;

/** DuckDB-style names for Arrow types, when DuckDB does not name a result's types itself. */
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

/**
 * The name a statement is prepared under while it is judged and run: one at a time (the engine's
 * queue runs one job at a time), deallocated after.
 */
export const PREPARED_NAME = 'dataseer_statement';
export const PREPARE_PREFIX = `PREPARE ${PREPARED_NAME} AS `;

/** DuckDB's error about the text it was given with `prefix` before it, pointing at the statement's own text instead. */
export function withoutPrefix(message: string, prefix: string): string {
  const lines = message.split('\n');
  const at = lines.findIndex((l) => l.startsWith(`LINE 1: ${prefix}`));
  if (at < 0) return message;
  lines[at] = `LINE 1: ${(lines[at] ?? '').slice(`LINE 1: ${prefix}`.length)}`;
  const caret = lines[at + 1];
  if (caret !== undefined && caret.startsWith(' '.repeat(prefix.length))) lines[at + 1] = caret.slice(prefix.length);
  return lines.join('\n');
}

/**
 * DuckDB's own type names for the prepared statement's result columns, read from its catalog
 * (`duckdb_prepared_statements()`): nothing is parsed or bound again. Undefined when DuckDB does
 * not list them.
 */
export async function preparedTypes(engine: Engine): Promise<string[] | undefined> {
  // One row per column, numbered (no JSON: the json extension may not be loaded).
  const rows = rowsOf(
    await engine.query(`SELECT generate_subscripts(result_types, 1)::INTEGER AS i, unnest(result_types) AS t FROM duckdb_prepared_statements() WHERE name = '${PREPARED_NAME}'`),
  );
  if (rows.length === 0) return undefined;
  const types: string[] = [];
  for (const r of rows) types[Number(r.i) - 1] = String(r.t);
  return types.length === rows.length && types.every((t) => typeof t === 'string') ? types : undefined;
}

/** Forgets the prepared statement (and its plan). */
export const deallocateSql = `DEALLOCATE PREPARE ${PREPARED_NAME}`;

/**
 * Runs the prepared statement, the plan DuckDB made when it was prepared, and returns its rows
 * (truncated to `maxRows`) with DuckDB's type names where it gave them.
 */
export async function runPrepared(engine: Engine, types: readonly string[] | undefined, maxRows: number, started: number): Promise<QueryOutcome> {
  try {
    const result = await collectRows(engine, `EXECUTE ${PREPARED_NAME}`, Math.max(0, Math.floor(maxRows)));
    const columns = types && types.length === result.columns.length ? result.columns.map((c, i) => ({ name: c.name, type: types[i] ?? c.type })) : result.columns;
    return { ok: true, result: { ...result, columns, elapsedMs: performance.now() - started } };
  } catch (e) {
    return { ok: false, message: briefSqlError(e) };
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

/**
 * Runs one statement and returns its rows (truncated to `maxRows`); DuckDB's error text comes back
 * as a value. A query is parsed and planned once: prepared, its column types read from DuckDB's
 * catalog of prepared statements, then executed; anything else (or a query DuckDB will not
 * prepare) runs as written, its column types from its Arrow result.
 */
export async function runStatement(engine: Engine, text: string, firstWord: string | undefined, maxRows: number, started = performance.now()): Promise<QueryOutcome> {
  // A statement DuckDB will not prepare runs as written below, so its error is DuckDB's own.
  if (firstWord && DESCRIBABLE.has(firstWord) && (await engine.query(`${PREPARE_PREFIX}${text}`).then(() => true, () => false))) {
    try {
      return await runPrepared(engine, await preparedTypes(engine).catch(() => undefined), maxRows, started);
    } finally {
      await engine.query(deallocateSql).catch(() => undefined);
    }
  }
  try {
    const result = await collectRows(engine, text, Math.max(0, Math.floor(maxRows)));
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
export async function runQuery(engine: Engine, sql: string, maxRows = DEFAULT_MAX_ROWS, split?: readonly SqlStatement[]): Promise<QueryOutcome> {
  const started = performance.now();
  try {
    // The console's assessment (assess.ts) has lexed the script already: it is not lexed twice.
    const statements = split ?? (await splitScript(engine, sql));
    const last = statements.at(-1);
    if (!last) return { ok: false, message: 'The query is empty.' };
    for (const stmt of statements.slice(0, -1)) await engine.query(stmt.text);
    return await runStatement(engine, last.text, nameOf(last.tokens[0]), maxRows, started);
  } catch (e) {
    return { ok: false, message: briefSqlError(e) };
  }
}
