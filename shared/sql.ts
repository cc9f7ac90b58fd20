/**
 * Quoting for SQL, in one place for the page and the workers. `quoteIdent` is for SQL the app
 * runs (always quoted: any name is safe); `readableIdent` is for SQL a person reads and edits
 * (bare when DuckDB takes it bare, so `SELECT * FROM penguins` stays plain).
 */

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function quoteLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

// Words DuckDB will not take as a bare table name; quoting them keeps generated SQL valid.
const RESERVED = new Set(
  'all analyse analyze and any array as asc asymmetric both case cast check collate column constraint create default deferrable desc describe distinct do else end except false fetch for foreign from grant group having in initially intersect into lateral leading limit not null offset on only or order pivot placing primary qualify references returning select show some summarize symmetric table then to trailing true union unique unpivot using variadic when where window with'.split(' '),
);

/** A table or column name as a person would write it: bare when it can be, double-quoted otherwise. */
export function readableIdent(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) && !RESERVED.has(name) ? name : quoteIdent(name);
}
