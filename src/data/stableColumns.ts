/**
 * A dataset's entry is replaced whole by every `datasets`/`dataset` event — a load's checks, a
 * profile, a rename elsewhere — most of them with the same columns. Handing the page the column
 * list it already had (the same array) lets everything derived from it (the grid's widths and
 * formats, its header summaries, the SQL catalog) see no change: at 2,000 columns each of those
 * re-ran on every event and redrew the grid's headers (issue 37).
 */
import type { ColumnInfo, DatasetInfo } from '../../protocol/data';

/** Same names and types in the same order. */
export function sameColumns(a: readonly ColumnInfo[], b: readonly ColumnInfo[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y || x.name !== y.name || x.type !== y.type) return false;
  }
  return true;
}

/** `next` with each dataset's column list taken from `previous` (by name) where it is equal. */
export function keepColumnLists(previous: readonly DatasetInfo[], next: DatasetInfo[]): DatasetInfo[] {
  if (previous.length === 0) return next;
  const before = new Map(previous.map((d) => [d.name, d.columns]));
  return next.map((d) => {
    const old = before.get(d.name);
    return old && old !== d.columns && sameColumns(old, d.columns) ? { ...d, columns: old } : d;
  });
}
