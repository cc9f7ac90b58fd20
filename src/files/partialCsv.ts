/**
 * A CSV of a result that holds only the query's first rows (the console keeps at most 10,000 per
 * result, so a page never holds millions): its file name and the note beside the button say what
 * was left out (issue 37). The whole result belongs in DuckDB (`COPY … TO`), not in a page download.
 */
const n = (k: number) => k.toLocaleString('en-US');

export function partialCsv(filename: string, rows: number, cappedAt: number | undefined): { name: string; note: string } {
  if (cappedAt === undefined) return { name: filename, note: '' };
  return {
    name: `${filename}-first-${cappedAt}-rows`,
    note: `Saved ${n(rows)} rows: the result holds only the query's first ${n(cappedAt)}, so its other rows are not in the file. Narrow the query (WHERE, GROUP BY) to download all it returns.`,
  };
}
