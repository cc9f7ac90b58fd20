/** DuckDB's error text, keeping one "LINE n:" caret block (DuckDB-WASM repeats it). */
export function briefSqlError(e: unknown): string {
  const text = (e instanceof Error ? e.message : String(e)).trim();
  const blocks = [...text.matchAll(/\n\s*LINE \d+:/g)];
  const second = blocks[1];
  return second?.index !== undefined ? text.slice(0, second.index).trim() : text;
}
