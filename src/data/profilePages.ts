/**
 * The pages of columns a wide table is profiled in (issue 37): PROFILE_PAGE_COLUMNS at a time, so
 * every column of a 2,000-column table can be profiled without one answer or one drawing holding
 * all of them.
 */

/** A page of columns: 0-based `from`, `to` exclusive (so `from + 1`–`to` as a person counts). */
export interface ColumnPage {
  from: number;
  to: number;
}

/** The pages of a table of `total` columns (one page, maybe empty, for a narrow table). */
export function columnPages(total: number, size: number): ColumnPage[] {
  const pages: ColumnPage[] = [];
  for (let from = 0; from < total; from += size) pages.push({ from, to: Math.min(total, from + size) });
  return pages.length ? pages : [{ from: 0, to: 0 }];
}

/** The page that starts at `from` (clamped into the table). */
export function pageRange(from: number, total: number, size: number): ColumnPage {
  const start = Math.max(0, Math.min(from, Math.max(0, total - 1)));
  const first = start - (start % size);
  return { from: first, to: Math.min(total, first + size) };
}

/** The first column of the page that holds `column`; undefined when the table has no such column. */
export function pageOfColumn(columns: readonly { name: string }[], column: string, size: number): number | undefined {
  const i = columns.findIndex((c) => c.name === column);
  return i < 0 ? undefined : i - (i % size);
}
