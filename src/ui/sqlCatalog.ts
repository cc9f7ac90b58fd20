/**
 * What is built from the SQL catalog (the editor's completion), built once per catalog (issue 37).
 * The catalog arrives again on every change to the dataset list — a load's checks, a profile, a
 * rename elsewhere — and CodeMirror's SQL completion costs time quadratic in a table's columns to
 * build (~150 ms for 2,000 columns on a busy machine), so an equal catalog gives back what was
 * built for it. A few catalogs are kept: the console and a notebook's cells share them.
 */
import { untrack } from 'svelte';
import type { DatasetInfo } from '../../protocol/data';
import type { SqlSchema } from './codeLanguages';

/**
 * Table → column names of the loaded datasets. Inside a `$derived` it depends on each dataset's
 * name and column list, not on every column's fields: an entry is replaced whole when it changes,
 * and 2,000 columns tracked one by one made each change of the list cost the page (issue 37).
 */
export function sqlSchemaOf(datasets: readonly DatasetInfo[]): SqlSchema {
  const lists = datasets.map((d) => [d.name, d.columns] as const);
  return untrack(() => Object.fromEntries(lists.map(([name, columns]) => [name, columns.map((c) => c.name)])));
}

/** Equal when the same tables have the same columns in the same order. */
export function sameCatalog(a: SqlSchema, b: SqlSchema): boolean {
  if (a === b) return true;
  const tables = Object.keys(a);
  if (tables.length !== Object.keys(b).length) return false;
  for (const t of tables) {
    const x = a[t];
    const y = b[t];
    if (!x || !y || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  }
  return true;
}

export function catalogMemo<T>(build: (schema: SqlSchema) => T, keep = 4): (schema: SqlSchema) => T {
  const built: { schema: SqlSchema; value: T }[] = [];
  return (schema) => {
    const at = built.findIndex((b) => sameCatalog(b.schema, schema));
    const hit = at >= 0 ? built.splice(at, 1)[0] : undefined;
    // The caller's object may be changed later: keep a copy of what the value was built from.
    const entry = hit ?? { schema: Object.fromEntries(Object.entries(schema).map(([t, cols]) => [t, [...cols]])), value: build(schema) };
    built.unshift(entry);
    built.length = Math.min(built.length, keep);
    return entry.value;
  };
}
