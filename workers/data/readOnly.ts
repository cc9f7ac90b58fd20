/**
 * The one guard for SQL a model writes (the agent's `run_sql`, and `sql()` inside the agent's
 * `run_python`): read-only statements only, and nothing that reaches files or the network. A
 * model — or a prompt hidden in a data file — must not be able to change the session (SET,
 * temp views that shadow a table, variables), attach or load anything, copy data out, or make
 * DuckDB fetch a URL (`read_text('http://…?d=' || rows)`). The content security policy already
 * keeps DuckDB's worker off the network; this refuses such SQL before it runs, with a message the
 * model can act on.
 */
import { splitStatements, type Statement, type Token } from './sqlTokens';

/** Statements may start with these (FROM-first and VALUES included). */
const READ_VERBS = new Set(['select', 'with', 'from', 'values', 'table', 'describe', 'summarize', 'explain', 'show', 'pragma']);

/** Keywords that change something or reach outside, wherever they appear. */
const FORBIDDEN_WORDS = new Set([
  'set', 'reset', 'attach', 'detach', 'load', 'install', 'force', 'copy', 'export', 'import', 'create', 'drop', 'alter',
  'insert', 'update', 'delete', 'truncate', 'call', 'checkpoint', 'vacuum', 'use', 'begin', 'commit', 'rollback',
  'transaction', 'prepare', 'execute', 'deallocate', 'secret', 'merge', 'upsert',
]);

/** Table and scalar functions that read files or URLs, or run SQL of their own. */
const FORBIDDEN_FUNCTIONS = new Set([
  'read_csv', 'read_csv_auto', 'read_text', 'read_blob', 'read_parquet', 'parquet_scan', 'parquet_metadata', 'parquet_schema',
  'parquet_file_metadata', 'parquet_kv_metadata', 'read_json', 'read_json_auto', 'read_json_objects', 'read_json_objects_auto',
  'read_ndjson', 'read_ndjson_auto', 'read_ndjson_objects', 'glob', 'sniff_csv', 'iceberg_scan', 'iceberg_metadata', 'delta_scan',
  'read_xlsx', 'st_read', 'sqlite_scan', 'sqlite_attach', 'postgres_scan', 'postgres_attach', 'mysql_scan', 'query', 'query_table',
  'getvariable', 'setvariable', 'load_extension', 'httpfs', 'read_arrow', 'arrow_scan',
]);

/** PRAGMAs that only describe. */
const READ_PRAGMAS = new Set(['table_info', 'show_tables', 'show_tables_expanded', 'database_list', 'version', 'storage_info', 'show']);

const word = (t: Token | undefined) => (t?.kind === 'word' ? t.value : undefined);

function statementProblem(stmt: Statement): string | undefined {
  const t = stmt.tokens;
  const verb = word(t[0]);
  if (!verb || !READ_VERBS.has(verb)) return `only read-only queries are allowed (SELECT, WITH, FROM, DESCRIBE, SUMMARIZE, EXPLAIN, SHOW, PRAGMA table_info); "${stmt.text.slice(0, 60)}" is not one`;
  if (verb === 'pragma' && !READ_PRAGMAS.has(word(t[1]) ?? '')) return `PRAGMA ${word(t[1]) ?? ''} is not allowed; only PRAGMA table_info and other descriptive pragmas are`;
  for (let i = 0; i < t.length; i++) {
    const tok = t[i];
    const w = word(tok);
    if (w && FORBIDDEN_WORDS.has(w) && !(w === 'set' && verb === 'pragma')) return `${w.toUpperCase()} is not allowed in a read-only query`;
    const next = t[i + 1];
    if (w && FORBIDDEN_FUNCTIONS.has(w) && next?.kind === 'punct' && next.text === '(') {
      return `${w}() reads files or URLs (or runs other SQL) and is not allowed; query the loaded datasets by name`;
    }
    // FROM 'file.csv' / JOIN 'http://…': DuckDB reads a quoted path as a file (replacement scan).
    if ((w === 'from' || w === 'join' || (tok?.kind === 'punct' && tok.text === ',' && t.slice(0, i).some((x) => word(x) === 'from'))) && next?.kind === 'string') {
      return 'a quoted file name or URL in FROM is not allowed; query the loaded datasets by name';
    }
  }
  return undefined;
}

/** Why `sql` may not run as model SQL, or undefined when it is a plain read-only query. */
export function readOnlyProblem(sql: string): string | undefined {
  const statements = splitStatements(sql);
  if (statements.length === 0) return 'the query is empty';
  for (const stmt of statements) {
    const problem = statementProblem(stmt);
    if (problem) return problem;
  }
  return undefined;
}
