import type { QueryTablesOutcome } from '../../../protocol/data';
import type { Engine } from '../engine/duckdbEngine';
import { judgeModelSql, type ModelScope } from '../engine/modelSql';
import { nameOf, splitScript } from '../engine/sqlScript';
import { quoteIdent } from '../../../shared/sql';

/**
 * The datasets a query reads, as DuckDB binds it (issue 32: a trusted query is offered only while
 * its tables are loaded). Not a guess from the text: a CTE named like a table, a quoted name, a
 * subquery or a table's name inside a string literal are whatever DuckDB's binder makes of them.
 *
 * The query is judged as model SQL first — the agent reuses a trusted query through `run_sql`, so
 * one it could not run is not offered to it — and the tables are the scans of that bound plan.
 * A view dataset (a file too big to load) appears in a plan as its file's reader, not by name: a
 * view the statement's tokens name is dropped inside a transaction that is rolled back, and the
 * statement planned again; if it no longer binds, it reads that view.
 */
export async function queryTables(engine: Engine, sql: string, scope: ModelScope, datasets: readonly string[]): Promise<QueryTablesOutcome> {
  const verdict = await judgeModelSql(engine, sql, scope);
  if (!verdict.ok) return { ok: false, message: verdict.message };
  const scanned = new Set(verdict.tables ?? []);
  if (scope.views.size > 0) for (const v of await viewsRead(engine, sql, scope.views)) scanned.add(v);
  // Back to the datasets' own spelling (the plan and the scope are lower-cased).
  const byLower = new Map(datasets.map((d) => [d.toLowerCase(), d]));
  return { ok: true, tables: [...scanned].map((t) => byLower.get(t) ?? t).sort() };
}

async function viewsRead(engine: Engine, sql: string, views: ReadonlySet<string>): Promise<string[]> {
  const [stmt] = await splitScript(engine, sql);
  if (!stmt) return [];
  const named = new Set(stmt.tokens.map((t) => nameOf(t)?.toLowerCase()).filter((n): n is string => n !== undefined && views.has(n)));
  const out: string[] = [];
  for (const view of named) if (!(await bindsWithout(engine, stmt.text, view))) out.push(view);
  return out;
}

/** Whether `text` still binds with the view `view` gone (dropped in a transaction rolled back at once). */
async function bindsWithout(engine: Engine, text: string, view: string): Promise<boolean> {
  try {
    await engine.query('BEGIN TRANSACTION');
  } catch {
    // The console holds a transaction open: nothing can be tried without touching it.
    return true;
  }
  try {
    try {
      await engine.query(`DROP VIEW ${quoteIdent(view)}`);
    } catch {
      return true;
    }
    // It bound before (it was judged): failing now can only be for the view it lost.
    await engine.query(`EXPLAIN ${text}`);
    return true;
  } catch {
    return false;
  } finally {
    await engine.query('ROLLBACK').catch(() => undefined);
  }
}
