import type { QueryOutcome } from '../../../protocol/data';
import { rowsOf, type Engine } from './duckdbEngine';
import { deallocateSql, PREPARE_PREFIX, PREPARED_NAME, preparedTypes, runPrepared, runStatement, withoutPrefix } from './queryRunner';
import { briefSqlError } from './sqlError';
import { isKeyword, nameOf, splitScript, TokenKind, type SqlStatement } from './sqlScript';
import { scopeProblem } from './modelScope';
import { ModelRun } from './catalogMemo';

/**
 * The one path for SQL run on the model's or a file's behalf (the agent's `run_sql`, Python's
 * `sql()`): DuckDB decides, not a token list.
 * - One statement per call, as DuckDB's own lexer splits the text (so `E'\''` or `$$;$$` hide
 *   nothing: DuckDB parses the whole text before running any of it, with the same lexer).
 * - Parsed and planned once: DuckDB prepares the statement, and what it does and reads comes from
 *   that prepared physical plan (`EXPLAIN (FORMAT JSON) EXECUTE`): only query operators, scans of
 *   the datasets, and pure table functions. A write, a session change (SET VARIABLE, temp objects,
 *   ATTACH, COMMIT…) or a file/URL reader has no place in it, however the text is quoted, cased or
 *   escaped. The plan judged is the plan run (`EXECUTE`); the result's column types come from
 *   DuckDB's list of prepared statements, not from another DESCRIBE.
 * - It runs inside `BEGIN TRANSACTION READ ONLY`, rolled back afterwards: even a plan this misread
 *   could not write a table.
 */

/** What model SQL may read: the datasets (lower-cased names), some of them views over a file. */
export interface ModelScope {
  tables: ReadonlySet<string>;
  /** Datasets that are views over a file too big to load: their plans scan the file with read_csv. */
  views: ReadonlySet<string>;
  /**
   * Where the datasets live (catalog and schema, lower-cased). A scan must read them there: a
   * user's own `priv.penguins` has the same name in DuckDB's plan. Default: `memory.main`, where
   * the app creates them (modelScope.ts).
   */
  home?: { catalog: string; schema: string };
}

/** Physical operators of a query (DuckDB's PhysicalOperatorType names): none writes or changes the session. */
const QUERY_OPERATORS = new Set([
  'PROJECTION', 'FILTER', 'ORDER_BY', 'TOP_N', 'LIMIT', 'LIMIT_PERCENT', 'STREAMING_LIMIT', 'RESERVOIR_SAMPLE', 'STREAMING_SAMPLE',
  'WINDOW', 'STREAMING_WINDOW', 'UNNEST', 'UNGROUPED_AGGREGATE', 'HASH_GROUP_BY', 'PERFECT_HASH_GROUP_BY', 'PARTITIONED_AGGREGATE',
  'DELIM_JOIN', 'LEFT_DELIM_JOIN', 'RIGHT_DELIM_JOIN', 'BLOCKWISE_NL_JOIN', 'NESTED_LOOP_JOIN', 'HASH_JOIN', 'INDEX_JOIN',
  'PIECEWISE_MERGE_JOIN', 'IE_JOIN', 'ASOF_JOIN', 'CROSS_PRODUCT', 'POSITIONAL_JOIN', 'POSITIONAL_SCAN', 'UNION', 'EMPTY_RESULT',
  'DUMMY_SCAN', 'CHUNK_SCAN', 'COLUMN_DATA_SCAN', 'DELIM_SCAN', 'EXPRESSION_SCAN', 'CTE', 'CTE_SCAN', 'REC_CTE', 'REC_CTE_SCAN',
  // USING KEY recursive CTEs read their keyed state through a recurring-table scan.
  'REC_KEY_CTE', 'REC_REC_CTE_SCAN', 'PIVOT', 'RESULT_COLLECTOR',
]);

/**
 * Operators that run a table function over the rows of another operator (a lateral call such as
 * `FROM t, unnest(t.list)` or `generate_series(1, t.n)`): judged by the function DuckDB bound
 * (`extra_info.Name`), like a table function scan.
 */
const FUNCTION_OPERATORS = new Set(['INOUT_FUNCTION']);

/** What a refused operator does, in words the model can act on. */
const OPERATOR_WORDS: Record<string, string> = {
  INSERT: 'inserts rows', DELETE: 'deletes rows', UPDATE: 'updates rows', CREATE_TABLE: 'creates a table', CREATE_TABLE_AS: 'creates a table',
  BATCH_CREATE_TABLE_AS: 'creates a table', CREATE_VIEW: 'creates a view', CREATE_SCHEMA: 'creates a schema', CREATE_MACRO: 'creates a macro',
  CREATE_SEQUENCE: 'creates a sequence', CREATE_TYPE: 'creates a type', CREATE_INDEX: 'creates an index', CREATE_SECRET: 'creates a secret',
  DROP: 'drops an object', ALTER: 'alters an object', COPY_TO_FILE: 'writes a file', BATCH_COPY_TO_FILE: 'writes a file', EXPORT: 'exports the database',
  ATTACH: 'attaches a database', DETACH: 'detaches a database', SET: 'changes a setting', SET_VARIABLE: 'sets a variable', RESET: 'resets a setting',
  PRAGMA: 'runs a PRAGMA', LOAD: 'loads an extension', TRANSACTION: 'changes the transaction', VACUUM: 'vacuums', PREPARE: 'prepares a statement',
  EXECUTE: 'executes a prepared statement', EXPLAIN_ANALYZE: 'runs EXPLAIN ANALYZE', UPDATE_EXTENSIONS: 'updates extensions', MERGE_INTO: 'merges rows',
};

/** Why an operator outside QUERY_OPERATORS is refused, and what to write instead. */
function operatorProblem(op: string): string {
  const words = OPERATOR_WORDS[op];
  const what = words ? `it ${words} (DuckDB plans a ${op} step)` : `DuckDB plans it with a ${op} step, which is not one of a read-only query's steps`;
  return `${what}; ${READ_ONLY_HINT}. Rewrite it as one SELECT over the datasets, or, if it must change something, ask the user to run it in the SQL console`;
}

/**
 * Table functions that compute or describe the catalog: no file, URL, SQL-from-string or side
 * effect. (DuckDB's `query()`/`query_table()` bind to their query's own plan, judged like any other.)
 */
const PURE_FUNCTIONS = new Set([
  'range', 'generate_series', 'unnest', 'repeat', 'repeat_row', 'summary', 'test_all_types', 'test_vector_types',
  'duckdb_columns', 'duckdb_constraints', 'duckdb_databases', 'duckdb_dependencies', 'duckdb_functions', 'duckdb_indexes',
  'duckdb_keywords', 'duckdb_schemas', 'duckdb_sequences', 'duckdb_tables', 'duckdb_types', 'duckdb_views', 'duckdb_settings',
  'duckdb_extensions', 'duckdb_optimizers', 'duckdb_memory', 'duckdb_variables', 'duckdb_prepared_statements',
  'pragma_table_info', 'pragma_show', 'pragma_version', 'pragma_platform', 'pragma_collations', 'pragma_database_size',
  'pragma_storage_info', 'pragma_metadata_info', 'pragma_user_agent',
]);

/**
 * What a view dataset's plan scans. DuckDB's plan does not name the file, so such a scan is let
 * through only for a statement that names a view dataset; the engine's own lock
 * (enable_external_access = false, allowed_directories) still keeps every reader on the files the
 * app registered for the user's datasets.
 */
const FILE_READERS = new Set(['read_csv', 'read_csv_auto']);

/** PRAGMAs DuckDB rewrites into a SELECT over its catalog (EXPLAIN cannot show them). */
const QUERY_PRAGMAS = new Set([
  'table_info', 'show', 'show_tables', 'show_tables_expanded', 'show_databases', 'database_list', 'version', 'platform',
  'collations', 'database_size', 'storage_info', 'metadata_info', 'user_agent', 'functions',
]);

/** Keywords that start a query DESCRIBE can wrap. */
const QUERY_STARTS = new Set(['select', 'from', 'with', 'values', 'table', 'pivot', 'unpivot', 'summarize', 'describe', 'show']);

const READ_ONLY_HINT = 'model SQL is read-only: one query per call (SELECT, WITH, FROM, VALUES, PIVOT, DESCRIBE, SHOW, SUMMARIZE, EXPLAIN, PRAGMA table_info) over the loaded datasets';

/** How to read rows without a file reader, for a refusal that names one. */
const READ_DATASETS_HINT = 'query the loaded datasets by name instead (SELECT … FROM <dataset>); to read a new file, ask the user to load it as a dataset';

/** The prepared statement's plan, as DuckDB made it when it was prepared (no second parse). */
const EXPLAIN_PREPARED = `EXPLAIN (FORMAT JSON) EXECUTE ${PREPARED_NAME}`;

interface PlanNode {
  name?: unknown;
  children?: unknown;
  extra_info?: unknown;
}

function asRecord(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** Why a table function DuckDB bound may not run as model SQL, or undefined. */
function functionProblem(name: string, readsView: boolean): string | undefined {
  const fn = name.toLowerCase();
  if (FILE_READERS.has(fn)) return readsView ? undefined : `${fn}() reads files or URLs; ${READ_DATASETS_HINT}`;
  if (PURE_FUNCTIONS.has(fn)) return undefined;
  return `${fn}() is not allowed in model SQL (it reads files, URLs or other SQL, or has side effects); ${READ_DATASETS_HINT}. Computed rows can come from unnest(), range() or generate_series()`;
}

/** Why a plan may not run as model SQL, or undefined. Fills `scanned` with the tables it reads. */
export function planProblem(node: PlanNode, scope: ModelScope, readsView = false, scanned = new Set<string>()): string | undefined {
  const op = String(node.name ?? '').trim().toUpperCase();
  const info = asRecord(node.extra_info);
  if (typeof info.Table === 'string') {
    // DuckDB names the scanned table; views were expanded into what they read.
    if (!scope.tables.has(info.Table.toLowerCase())) {
      return `it reads ${info.Table}, which is not a loaded dataset; query one of the datasets instead: ${[...scope.tables].join(', ') || '(none loaded)'}`;
    }
    scanned.add(info.Table.toLowerCase());
  } else if (typeof info.Function === 'string') {
    const problem = functionProblem(info.Function, readsView);
    if (problem) return problem;
  } else if (FUNCTION_OPERATORS.has(op)) {
    const name = typeof info.Name === 'string' ? info.Name : typeof info.Function === 'string' ? info.Function : undefined;
    if (name === undefined) return `DuckDB plans a table function over rows (${op}) without naming it; ${READ_DATASETS_HINT}`;
    const problem = functionProblem(name, readsView);
    if (problem) return problem;
  } else if (!QUERY_OPERATORS.has(op)) {
    return operatorProblem(op);
  }
  const children = Array.isArray(node.children) ? (node.children as PlanNode[]) : [];
  for (const child of children) {
    const problem = planProblem(asRecord(child), scope, readsView, scanned);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * `run`: how to run what was judged — the prepared plan itself, or (PRAGMA, EXPLAIN <query>,
 * DESCRIBE <query>, judged by their query's own plan) the statement as written. `tables`: the
 * datasets DuckDB's plan scans (lower-cased; a view dataset's file scan is not named).
 */
type Verdict = { ok: true; run: 'prepared' | 'text'; tables?: string[] } | { ok: false; message: string };

/**
 * Judges one statement by DuckDB's plan of it, leaving it prepared (PREPARED_NAME) when the plan
 * judged is the one to run. Runs inside the caller's read-only transaction.
 */
async function judge(run: ModelRun, stmt: SqlStatement, scope: ModelScope, depth = 0): Promise<Verdict> {
  const engine = run.engine;
  const [first, second] = stmt.tokens;
  if (isKeyword(first, 'pragma')) {
    const name = nameOf(second);
    return name && QUERY_PRAGMAS.has(name) ? { ok: true, run: 'text' } : { ok: false, message: `refused: PRAGMA ${name ?? ''} is not allowed: ${READ_ONLY_HINT}` };
  }
  if (isKeyword(first, 'explain') && depth === 0) {
    // EXPLAIN [ANALYZE] [(options)] <query>: the query is judged (EXPLAIN ANALYZE runs it).
    let i = 1;
    if (isKeyword(stmt.tokens[i], 'analyze')) i++;
    if (stmt.tokens[i]?.text === '(') {
      let d = 0;
      for (; i < stmt.tokens.length; i++) {
        const t = stmt.tokens[i]?.text;
        if (t === '(') d++;
        else if (t === ')' && --d === 0) break;
      }
      i++;
    }
    const rest = stmt.tokens.slice(i);
    const start = rest[0]?.start;
    if (start === undefined) return { ok: false, message: 'refused: EXPLAIN needs a query' };
    return textRun(await judge(run, { text: stmt.text.slice(start - (stmt.tokens[0]?.start ?? 0)), tokens: rest }, scope, depth + 1));
  }
  // DESCRIBE <query> binds the query without running it; its plan would hide what the query reads.
  if ((isKeyword(first, 'describe') || isKeyword(first, 'show')) && depth === 0 && second && (second.text === '(' || QUERY_STARTS.has(second.text.toLowerCase()))) {
    return textRun(await judge(run, { text: stmt.text.slice(second.start - (first?.start ?? 0)), tokens: stmt.tokens.slice(1) }, scope, depth + 1));
  }
  // Text put before a statement must not change which statement it is: EXPLAIN ANALYZE would run it.
  if (isKeyword(first, 'analyze') || isKeyword(first, 'explain')) return { ok: false, message: `refused: ${first?.text.toUpperCase() ?? ''} is not allowed here: ${READ_ONLY_HINT}` };
  let plan: unknown;
  try {
    // The one parse and plan: prepared as written (the lexer found one statement, so the prefix
    // only names it), then DuckDB shows the plan it holds.
    await engine.query(`${PREPARE_PREFIX}${stmt.text}`);
    const row = rowsOf(await engine.query(EXPLAIN_PREPARED))[0];
    plan = JSON.parse(String(row?.explain_value ?? '[]'));
  } catch (e) {
    const message = withoutPrefix(briefSqlError(e), PREPARE_PREFIX);
    // DuckDB refused to even plan a write inside the read-only transaction.
    if (/read-only mode|read-only transaction/i.test(message)) {
      return { ok: false, message: `refused: ${first?.text.toUpperCase() ?? 'this statement'} writes (${message}); ${READ_ONLY_HINT}` };
    }
    // The engine's lock refused a file or URL before any plan: say what to do instead.
    if (/file system operations are disabled|does not support lateral join column parameters/i.test(message)) {
      return { ok: false, message: `refused: it reads a file or URL (${message.split('\n')[0] ?? message}); ${READ_DATASETS_HINT}` };
    }
    // DuckDB cannot plan this kind of statement at all (ATTACH, USE, EXPORT, DETACH…).
    const near = /syntax error at or near "([^"]+)"/i.exec(message)?.[1];
    if (first?.kind === TokenKind.Keyword && near?.toLowerCase() === first.text.toLowerCase()) {
      return { ok: false, message: `refused: ${first.text.toUpperCase()} is not allowed: ${READ_ONLY_HINT}` };
    }
    return { ok: false, message };
  }
  // EXPLAIN EXECUTE shows the prepared plan under one EXECUTE step; anything else is not that plan.
  const [root, ...others] = Array.isArray(plan) ? plan : [plan];
  const executed = asRecord(root);
  if (others.length > 0 || String(executed.name ?? '').trim().toUpperCase() !== 'EXECUTE' || !Array.isArray(executed.children)) {
    return { ok: false, message: `refused: DuckDB's plan of it could not be read; ${READ_ONLY_HINT}` };
  }
  const roots: unknown[] = executed.children;
  const readsView = stmt.tokens.some((t) => scope.views.has((nameOf(t) ?? '').toLowerCase()));
  const scanned = new Set<string>();
  for (const root of roots) {
    const problem = planProblem(asRecord(root), scope, readsView, scanned);
    if (problem) return { ok: false, message: `refused: ${problem}` };
  }
  const misplaced = await scopeProblem(run, stmt, scope, scanned);
  return misplaced ? { ok: false, message: `refused: ${misplaced}` } : { ok: true, run: 'prepared', tables: [...scanned] };
}

/** A wrapper (EXPLAIN, DESCRIBE) judged by its query's plan runs as written. */
const textRun = (v: Verdict): Verdict => (v.ok ? { ...v, run: 'text' } : v);

/** Whether `sql` may run as model SQL, by DuckDB's analysis; nothing is executed. */
export async function judgeModelSql(engine: Engine, sql: string, scope: ModelScope): Promise<{ ok: true; tables?: string[] } | { ok: false; message: string }> {
  const verdict = await withReadOnly(engine, async (run) => {
    const stmt = await single(run.engine, sql);
    return 'message' in stmt ? { ok: false as const, message: stmt.message } : judge(run, stmt, scope);
  });
  return verdict.ok ? { ok: true, ...(verdict.tables ? { tables: verdict.tables } : {}) } : verdict;
}

async function single(engine: Engine, sql: string): Promise<SqlStatement | { message: string }> {
  const statements = await splitScript(engine, sql);
  if (statements.length === 0) return { message: 'the query is empty' };
  if (statements.length > 1) {
    return { message: `refused: send one statement per call; this text holds ${statements.length} (DuckDB splits it at each ";"). Run them one at a time, or combine them with WITH` };
  }
  return statements[0] as SqlStatement;
}

async function withReadOnly<T extends Verdict | QueryOutcome>(engine: Engine, fn: (run: ModelRun) => Promise<T>): Promise<T | { ok: false; message: string }> {
  const run = new ModelRun(engine);
  try {
    await run.engine.query('BEGIN TRANSACTION READ ONLY');
  } catch (e) {
    run.finish();
    // The console left a transaction open: model SQL would run inside the user's writes.
    return { ok: false, message: `refused: the SQL console has a transaction open (${briefSqlError(e)}); ask the user to COMMIT or ROLLBACK it` };
  }
  try {
    return await fn(run);
  } finally {
    // The statement judge() prepared is forgotten in the same trip.
    await run.engine.query(`ROLLBACK; ${deallocateSql}`).catch(() => undefined);
    run.finish();
  }
}

/** Runs model SQL: judged by DuckDB, then run read-only; every refusal is a value the model can act on. */
export async function runModelSql(engine: Engine, sql: string, maxRows: number, scope: ModelScope): Promise<QueryOutcome> {
  const started = performance.now();
  return withReadOnly(engine, async (run): Promise<QueryOutcome> => {
    const stmt = await single(run.engine, sql);
    if ('message' in stmt) return { ok: false, message: stmt.message };
    const verdict = await judge(run, stmt, scope);
    if (!verdict.ok) return verdict;
    if (verdict.run === 'prepared') return runPrepared(run.engine, await preparedTypes(run.engine).catch(() => undefined), maxRows, started);
    return runStatement(run.engine, stmt.text, nameOf(stmt.tokens[0]), maxRows, started);
  });
}
