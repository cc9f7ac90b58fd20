/**
 * A trusted query as stored (issue 32): the question it answers and the tables DuckDB's binder
 * says it reads (a CTE or a string that looks like a table's name does not count), so it is
 * offered only while they are all loaded. A query the agent could not run as model SQL is not
 * trusted, and the reason is said.
 */
import type { TrustedQuery } from '../../protocol/agent/knowledge';
import type { QueryTablesOutcome } from '../../protocol/data';
import { messageOf } from '../../shared/errors';

export type TablesOf = (sql: string) => Promise<QueryTablesOutcome>;

/** The query to store, or why it is not trusted. */
export async function trustedFrom(tablesOf: TablesOf | undefined, question: string, sql: string, id: string): Promise<TrustedQuery | string> {
  const q = question.trim();
  const s = sql.trim();
  if (!q || !s) return 'Write the question this query answers.';
  if (!tablesOf) return 'The tables this query reads cannot be found here.';
  let read: QueryTablesOutcome;
  try {
    read = await tablesOf(s);
  } catch (e) {
    return `The tables this query reads could not be found: ${messageOf(e)}`;
  }
  if (!read.ok) return `Not trusted: the agent could not run this query (${read.message.replace(/^refused: /, '')}).`;
  return { id, question: q.slice(0, 500), sql: s.slice(0, 20_000), datasets: read.tables, created_at: new Date(Date.now()).toISOString(), bound: true };
}

/** A query marked before the binder, with DuckDB's tables; null while DuckDB cannot bind it (its tables are not loaded). */
export async function rebound(tablesOf: TablesOf, old: TrustedQuery): Promise<TrustedQuery | null> {
  const read = await tablesOf(old.sql).catch(() => undefined);
  return read?.ok ? { ...old, datasets: read.tables, bound: true } : null;
}
