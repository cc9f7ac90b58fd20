/**
 * An import merged into the dictionary that is there (issue 32): only the fields the file gave a
 * value for change, and what would change is listed column by column before it is applied.
 */
import type { ColumnEntry, DataDictionary } from '../../protocol/agent/knowledge';
import type { ColumnField, ImportResult, TableField } from './dictionaryImport';

/** What applying an import would do, column by column (shown before it is applied). */
export interface ImportPreview {
  /** Columns that had a meaning and would get a different one: which fields. */
  changed: { column: string; fields: ColumnField[] }[];
  /** Columns with nothing yet that the file describes. */
  added: string[];
  /** Columns the file leaves as they are (not in the file, or the same). */
  untouched: string[];
  /** Dataset-level fields the file would set or change. */
  table: TableField[];
}

const isBlank = (c: ColumnEntry) => !c.description && !c.unit && c.role === 'other' && c.codes.length === 0 && c.missing.length === 0;
const sameField = (a: ColumnEntry, b: ColumnEntry, f: ColumnField) => JSON.stringify(a[f]) === JSON.stringify(b[f]);

/**
 * The import merged into `base` (issue 32): only the fields the file gave a value for change; a
 * one-column CSV leaves every other column's description and role as it was.
 */
export function mergeImport(base: DataDictionary, imported: ImportResult): { dictionary: DataDictionary; preview: ImportPreview } {
  const incoming = new Map(imported.dictionary.columns.map((c) => [c.name, c]));
  const preview: ImportPreview = { changed: [], added: [], untouched: [], table: [] };
  const columns = base.columns.map((old) => {
    const fields = imported.given[old.name] ?? [];
    const from = incoming.get(old.name);
    if (!from || fields.length === 0) {
      preview.untouched.push(old.name);
      return old;
    }
    const next: ColumnEntry = { ...old };
    for (const f of fields) (next as Record<ColumnField, unknown>)[f] = from[f];
    const differs = fields.filter((f) => !sameField(old, next, f));
    if (differs.length === 0) preview.untouched.push(old.name);
    else if (isBlank(old)) preview.added.push(old.name);
    else preview.changed.push({ column: old.name, fields: differs });
    return next;
  });
  const d = imported.dictionary;
  const dictionary: DataDictionary = { ...base, columns, source: d.source, status: 'draft', updated_at: d.updated_at };
  for (const f of imported.givenTable) {
    if (JSON.stringify(base[f]) !== JSON.stringify(d[f])) preview.table.push(f);
    (dictionary as Record<TableField, unknown>)[f] = d[f];
  }
  return { dictionary, preview };
}
