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

/**
 * One column's filter from its header menu (as DuckDB's UI has): some of its values, a range
 * (numbers), and what to do with missing values. Every part that is set must hold.
 */
export interface ColumnFilter {
  /** Keep rows whose value, as DuckDB prints it, is one of these. */
  values?: readonly string[];
  /** Keep rows with the value at least / at most this (numeric columns). */
  min?: number;
  max?: number;
  /** `only`: rows where it is missing; `hide`: rows where it is not. */
  missing?: 'only' | 'hide';
}

/** Whether a filter restricts anything (an empty one is no filter). */
export function isActiveFilter(f: ColumnFilter | undefined): f is ColumnFilter {
  return f !== undefined && ((f.values?.length ?? 0) > 0 || Number.isFinite(f.min) || Number.isFinite(f.max) || f.missing !== undefined);
}

/** The WHERE of one column's filter; null when it restricts nothing. Numbers go in as literals only when finite. */
export function columnFilterWhere(column: string, f: ColumnFilter | undefined): string | null {
  if (!isActiveFilter(f)) return null;
  const col = quoteIdent(column);
  if (f.missing === 'only') return `${col} IS NULL`;
  const parts: string[] = [];
  if (f.values && f.values.length > 0) parts.push(`CAST(${col} AS VARCHAR) IN (${f.values.map(quoteLiteral).join(', ')})`);
  if (Number.isFinite(f.min)) parts.push(`${col} >= ${String(f.min)}`);
  if (Number.isFinite(f.max)) parts.push(`${col} <= ${String(f.max)}`);
  if (f.missing === 'hide') parts.push(`${col} IS NOT NULL`);
  return parts.join(' AND ');
}

/** The grid's whole WHERE: the text box's and every column's filter, all of them holding. */
export function combinedWhere(text: string | null, columns: readonly { column: string; filter: ColumnFilter | undefined }[]): string | null {
  const parts = [text, ...columns.map((c) => columnFilterWhere(c.column, c.filter))].filter((p): p is string => p !== null && p !== '');
  if (parts.length === 0) return null;
  return parts.length === 1 ? (parts[0] ?? null) : parts.map((p) => `(${p})`).join(' AND ');
}
