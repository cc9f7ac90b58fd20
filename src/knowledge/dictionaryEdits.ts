/**
 * Edits of the dictionary being written, as new values (issue 37): the editor holds its copy raw,
 * so an edit makes a new dictionary — the edited column and the list holding it new, every other
 * column shared — instead of a deep proxy tracking each field of 2,000 columns.
 */
import type { DataDictionary } from '../../protocol/agent/knowledge';

export type DictionaryColumn = DataDictionary['columns'][number];

/** `change` sets top-level fields on a shallow copy (a column edit goes through `editedColumn`). */
export function editedDictionary(d: DataDictionary, change: (copy: DataDictionary) => void): DataDictionary {
  const next = { ...d };
  change(next);
  return next;
}

/** Column `i` changed by `change` on its copy; the same dictionary when there is no such column. */
export function editedColumn(d: DataDictionary, i: number, change: (copy: DictionaryColumn) => void): DataDictionary {
  const old = d.columns[i];
  if (!old) return d;
  const column = { ...old };
  change(column);
  const columns = d.columns.slice();
  columns[i] = column;
  return { ...d, columns };
}
