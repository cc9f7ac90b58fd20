import type { SqlRisk } from '../../../protocol/data';
import { rowsOf, type Engine } from '../engine/duckdbEngine';
import { isKeyword, nameOf, splitScript, TokenKind, type SqlStatement, type SqlToken } from '../engine/sqlScript';

/**
 * Finds which loaded datasets a console script would change, replace, shadow or drop, so the UI
 * can ask before it runs. DuckDB decides what the script is: its lexer splits it (an escape
 * string hides no statement) and its planner names each statement's kind; the statement's own
 * tokens, as DuckDB lexed them, name the target.
 */

interface Target {
  verb: string;
  /** Lower-cased; `'*'` means every dataset (DROP SCHEMA, DETACH, USE…). */
  name: string;
}

/** Plan roots (DuckDB's PhysicalOperatorType) of statements that write or redefine a name. */
const WRITE_ROOTS = new Set([
  'INSERT', 'BATCH_INSERT', 'DELETE', 'UPDATE', 'MERGE_INTO', 'DROP', 'ALTER', 'CREATE_TABLE', 'CREATE_TABLE_AS',
  'BATCH_CREATE_TABLE_AS', 'CREATE_VIEW', 'CREATE_INDEX', 'CREATE_SCHEMA', 'CREATE_SEQUENCE', 'CREATE_MACRO', 'CREATE_TYPE',
  'VACUUM', 'SET', 'RESET', 'ATTACH', 'DETACH', 'TRANSACTION', 'COPY_DATABASE', 'EXPORT', 'LOAD', 'PRAGMA', 'EXTENSION',
]);

/** Plan roots that change an existing table's rows or shape. */
const CHANGES_A_TABLE = new Set(['INSERT', 'BATCH_INSERT', 'DELETE', 'UPDATE', 'MERGE_INTO', 'DROP', 'ALTER']);

/** Reads a possibly qualified name (`db.main."T"`) at `i`: its parts, the last one lower-cased for matching. */
function readName(tokens: SqlToken[], i: number): { parts: string[]; name: string; next: number } | undefined {
  const parts: string[] = [];
  let j = i;
  for (;;) {
    const n = nameOf(tokens[j]);
    if (n === undefined) break;
    parts.push(n);
    j++;
    if (tokens[j]?.text === '.') j++;
    else break;
  }
  const last = parts.at(-1);
  return last === undefined ? undefined : { parts, name: last.toLowerCase(), next: j };
}

function skip(tokens: SqlToken[], i: number, words: string[]): number {
  let j = i;
  while (words.some((w) => isKeyword(tokens[j], w) || nameOf(tokens[j]) === w)) j++;
  return j;
}

function nameList(tokens: SqlToken[], i: number): string[] {
  const names: string[] = [];
  let j = i;
  for (;;) {
    const n = readName(tokens, j);
    if (!n) break;
    names.push(n.name);
    j = n.next;
    if (tokens[j]?.text === ',') j++;
    else break;
  }
  return names;
}

/** What one statement would change, from its tokens as DuckDB lexed them. */
export function statementTargets(stmt: SqlStatement): Target[] {
  const t = stmt.tokens;
  const out: Target[] = [];
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    const tok = t[i];
    if (tok?.kind === TokenKind.Operator) {
      if (tok.text === '(') depth++;
      else if (tok.text === ')') depth--;
      continue;
    }
    // Subqueries cannot change a table.
    if (depth > 0 || tok?.kind !== TokenKind.Keyword) continue;
    const next = (k: number) => t[i + k];
    switch (tok.text.toLowerCase()) {
      case 'drop': {
        if (isKeyword(next(1), 'schema') || isKeyword(next(1), 'database')) {
          out.push({ verb: 'DROP SCHEMA', name: '*' });
          break;
        }
        if (!isKeyword(next(1), 'table') && !isKeyword(next(1), 'view')) break;
        for (const name of nameList(t, skip(t, i + 2, ['if', 'exists']))) out.push({ verb: 'DROP', name });
        break;
      }
      case 'alter': {
        if (!isKeyword(next(1), 'table') && !isKeyword(next(1), 'view')) break;
        const n = readName(t, skip(t, i + 2, ['if', 'exists']));
        if (n) out.push({ verb: 'ALTER', name: n.name });
        break;
      }
      case 'delete': {
        if (!isKeyword(next(1), 'from')) break;
        const n = readName(t, i + 2);
        if (n) out.push({ verb: 'DELETE FROM', name: n.name });
        break;
      }
      case 'update': {
        // `ON CONFLICT DO UPDATE SET` updates the INSERT's own target, reported already.
        if (isKeyword(t[i - 1], 'do') || isKeyword(next(1), 'set')) break;
        const n = readName(t, i + 1);
        if (n) out.push({ verb: 'UPDATE', name: n.name });
        break;
      }
      case 'truncate': {
        const n = readName(t, skip(t, i + 1, ['table']));
        if (n) out.push({ verb: 'TRUNCATE', name: n.name });
        break;
      }
      case 'insert': {
        let j = i + 1;
        if (isKeyword(t[j], 'or')) j += 2;
        if (!isKeyword(t[j], 'into')) break;
        const n = readName(t, j + 1);
        if (n) out.push({ verb: 'INSERT INTO', name: n.name });
        break;
      }
      case 'merge': {
        const n = readName(t, skip(t, i + 1, ['into']));
        if (n) out.push({ verb: 'MERGE INTO', name: n.name });
        break;
      }
      case 'copy': {
        // COPY t FROM 'file' appends to t; COPY t TO … only reads it.
        const n = readName(t, i + 1);
        if (n && isKeyword(t[n.next], 'from')) out.push({ verb: 'COPY', name: n.name });
        break;
      }
      case 'create': {
        const replace = isKeyword(next(1), 'or') && isKeyword(next(2), 'replace');
        let j = replace ? i + 3 : i + 1;
        const temp = isKeyword(t[j], 'temp') || isKeyword(t[j], 'temporary');
        j = skip(t, j, ['temp', 'temporary', 'table', 'view', 'materialized', 'if', 'not', 'exists']);
        const n = readName(t, j);
        // A temporary object named like a dataset hides it from every later query.
        const intoTemp = n !== undefined && n.parts.length > 1 && n.parts[0]?.toLowerCase() === 'temp';
        if (n && (replace || temp || intoTemp)) out.push({ verb: replace ? 'CREATE OR REPLACE' : 'CREATE TEMP (shadows)', name: n.name });
        break;
      }
      case 'detach':
        out.push({ verb: 'DETACH', name: '*' });
        break;
      case 'use':
        // Unqualified names would then mean another database's tables.
        out.push({ verb: 'USE', name: '*' });
        break;
      case 'set':
      case 'reset': {
        if (i !== 0) break;
        const n = nameOf(next(1)) ?? nameOf(next(2));
        if (n === 'schema' || n === 'search_path' || (isKeyword(next(1), 'local') && (nameOf(next(2)) === 'schema' || nameOf(next(2)) === 'search_path'))) {
          out.push({ verb: 'SET search_path', name: '*' });
        }
        break;
      }
    }
  }
  return out;
}

/** DuckDB's plan root for a statement, or undefined when DuckDB cannot plan it on its own. */
async function planRoot(engine: Engine, stmt: SqlStatement): Promise<string | undefined> {
  try {
    const row = rowsOf(await engine.query(`EXPLAIN (FORMAT JSON) ${stmt.text}`))[0];
    const plan: unknown = JSON.parse(String(row?.explain_value ?? '[]'));
    const root: unknown = Array.isArray(plan) ? plan[0] : plan;
    const name = typeof root === 'object' && root !== null ? (root as { name?: unknown }).name : undefined;
    return typeof name === 'string' ? name.trim().toUpperCase() : undefined;
  } catch {
    return undefined;
  }
}

export interface AssessedStatement {
  stmt: SqlStatement;
  /** DuckDB's plan root (PhysicalOperatorType), or undefined when DuckDB cannot plan it alone. */
  root: string | undefined;
  targets: Target[];
}

/** Splits and classifies a script with DuckDB; nothing is executed. */
export async function assessStatements(engine: Engine, sql: string): Promise<AssessedStatement[]> {
  const out: AssessedStatement[] = [];
  for (const stmt of await splitScript(engine, sql)) out.push({ stmt, root: await planRoot(engine, stmt), targets: statementTargets(stmt) });
  return out;
}

/** Whether DuckDB says the statement writes or redefines something (or cannot plan it alone). */
export const mayWrite = (a: AssessedStatement): boolean => a.root === undefined || WRITE_ROOTS.has(a.root) || a.targets.length > 0;

/** The datasets one statement would change: by DuckDB's plan, then by the names it targets. */
function datasetsHit(a: AssessedStatement, known: Map<string, string>): string[] {
  // DuckDB planned it as a query: whatever its words, it changes nothing.
  if (a.root !== undefined && !WRITE_ROOTS.has(a.root)) return [];
  const hit = new Set<string>();
  for (const target of a.targets) {
    if (target.name === '*') for (const n of known.values()) hit.add(n);
    else {
      const n = known.get(target.name);
      if (n) hit.add(n);
    }
  }
  if (hit.size === 0 && a.root !== undefined && a.targets.length === 0 && CHANGES_A_TABLE.has(a.root)) {
    // DuckDB says it writes, yet no target was read from the text: every dataset it names is at risk.
    for (const t of a.stmt.tokens) {
      const n = nameOf(t);
      const d = n === undefined ? undefined : known.get(n.toLowerCase());
      if (d) hit.add(d);
    }
  }
  return [...hit];
}

/** Classifies a script against the loaded dataset names. */
export async function assessSql(engine: Engine, sql: string, datasets: readonly string[]): Promise<SqlRisk> {
  const known = new Map(datasets.map((d) => [d.toLowerCase(), d]));
  const hit = new Set<string>();
  let first: string | undefined;
  for (const a of await assessStatements(engine, sql)) {
    const names = datasetsHit(a, known);
    if (names.length === 0) continue;
    first ??= a.stmt.text;
    for (const n of names) hit.add(n);
  }
  return { destructive: hit.size > 0, datasets: [...hit], statement: first ?? '' };
}

/** `ALTER TABLE a RENAME TO b` → {from: a, to: b}, so a rename through SQL keeps its dataset. */
export function renameIn(stmt: SqlStatement): { from: string; to: string } | undefined {
  const t = stmt.tokens;
  if (!isKeyword(t[0], 'alter') || !(isKeyword(t[1], 'table') || isKeyword(t[1], 'view'))) return undefined;
  const from = readName(t, skip(t, 2, ['if', 'exists']));
  if (!from || !isKeyword(t[from.next], 'rename') || !isKeyword(t[from.next + 1], 'to')) return undefined;
  const to = nameOf(t[from.next + 2]);
  if (to === undefined) return undefined;
  const raw = t[from.next + 2]?.text ?? '';
  return { from: from.name, to: raw.startsWith('"') ? to : raw };
}
