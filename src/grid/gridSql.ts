/**
 * SQL the grids run on the page's own data client: a dataset preview's filter (a WHERE over the
 * table) and a capped console result's sort (the console's query again, sorted in DuckDB). Names
 * and the user's text go in through the shared quoting helpers only.
 */
import { quoteIdent, quoteLiteral } from '../../shared/sql';

/**
 * Rows where any of `columns` contains `text`, case-insensitively, as DuckDB prints the value.
 * `contains` takes the text literally (no LIKE wildcards to escape); null when there is nothing to filter by.
 */
export function filterWhere(columns: readonly string[], text: string): string | null {
  const needle = text.trim();
  if (!needle || columns.length === 0) return null;
  const lit = quoteLiteral(needle.toLowerCase());
  return columns.map((c) => `contains(lower(CAST(${quoteIdent(c)} AS VARCHAR)), ${lit})`).join(' OR ');
}

export function filteredCountSql(table: string, where: string): string {
  return `SELECT count(*) AS n FROM ${quoteIdent(table)} WHERE ${where}`;
}

export function filteredPageSql(table: string, columns: readonly string[], where: string, offset: number, limit: number): string {
  const select = columns.map(quoteIdent).join(', ');
  return `SELECT ${select} FROM ${quoteIdent(table)} WHERE ${where} LIMIT ${Math.max(0, Math.floor(limit))} OFFSET ${Math.max(0, Math.floor(offset))}`;
}

/**
 * The console's query sorted by its `column`th column (0-based) and capped at `limit`. The query
 * sits in a subquery on lines of its own (a trailing `--` comment cannot swallow the bracket), so
 * DuckDB's parser refuses anything that is not a single query; the position, not the name, picks
 * the column, so duplicate or odd names sort right. NULLs last, as the in-memory sort does.
 */
export function cappedSortSql(query: string, column: number, descending: boolean, limit: number): string {
  const body = query.replace(/[\s;]+$/, '');
  return `SELECT * FROM (\n${body}\n) ORDER BY ${Math.floor(column) + 1} ${descending ? 'DESC' : 'ASC'} NULLS LAST LIMIT ${Math.max(1, Math.floor(limit))}`;
}
