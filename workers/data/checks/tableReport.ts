/**
 * The load report for the tables the JS readers make (Excel sheets, JSON): a fix in force is
 * applied to the reader's table, then its findings are gathered (the reader's layout findings,
 * loaders/sheetChecks.ts, and its columns of mixed kinds, put in words here; DuckDB's value
 * checks, tableChecks.ts).
 */
import type { DataFormat } from '../../../protocol/data';
import type { LoadFinding, TableReadOverrides } from '../../../protocol/loadReport';
import { columnTypes } from '../engine/catalog';
import type { Engine } from '../engine/duckdbEngine';
import { applyValueFixes, isEmptyTableOverrides, mergeTableOverrides, mixedKindFindings, tableFindings, type TableChecks } from './tableChecks';

/** What a JS reader saw while it read (loaders/types.ts `ConvertedTable` has these fields). */
export interface ReaderSaw {
  /** Layout findings (Excel: title rows, notes below, header names). */
  findings?: readonly LoadFinding[];
  /** Columns read as text because their values were of several kinds. */
  mixed?: readonly { column: string; families: readonly string[] }[];
}

/** Formats whose tables come from the JS readers and get these checks (Parquet and Arrow carry their types). */
export const isCheckedTableFormat = (format: DataFormat): boolean => format === 'xlsx' || format === 'json' || format === 'ndjson';

/** Applies the fix in force to the reader's table, then gathers its findings (and what they left out: `sampled`). */
export async function checkReaderTable(engine: Engine, table: string, saw: ReaderSaw, format: DataFormat, read: TableReadOverrides | undefined): Promise<TableChecks> {
  if (!isCheckedTableFormat(format)) return { findings: [] };
  if (read && !isEmptyTableOverrides(read)) await applyValueFixes(engine, table, read);
  const source = format === 'xlsx' ? 'sheet' : 'json';
  const layout = [...(saw.findings ?? []), ...mixedKindFindings(saw.mixed ?? [], source)];
  // Under a title every column is text named after it: the value checks would only echo that.
  if (layout.some((f) => f.kind === 'title_line')) return { findings: layout };
  try {
    // Columns the notes below the data made text are that finding's: their stray values are the notes.
    const owned = new Set(layout.filter((f) => f.kind === 'notes_below').flatMap((f) => f.columns));
    const columns = (await columnTypes(engine, table)).filter((c) => !owned.has(c.name));
    const { findings: values, sampled } = await tableFindings(engine, table, columns, read ?? {}, source);
    // A column the value checks name (with a fix, say) needs no second, fixless mixed-kinds finding.
    const named = new Set(values.flatMap((f) => f.columns));
    return { findings: [...layout.filter((f) => f.kind !== 'mixed_types' || !f.columns.some((c) => named.has(c))), ...values], ...(sampled ? { sampled } : {}) };
  } catch {
    // A check that fails must not fail the load: the table is as the reader made it.
    return { findings: layout };
  }
}

/** A fix in force as the report keeps it (none when the options are empty). */
export function readOptionsEntry(read: TableReadOverrides | undefined): { readOptions?: TableReadOverrides } {
  return read && !isEmptyTableOverrides(read) ? { readOptions: read } : {};
}

/**
 * Every value fix of a sheet or JSON table in one read. Each is a conversion of its own columns,
 * tried by DuckDB over every row (tableChecks.ts), so together they convert each column as alone;
 * a layout finding (title rows, notes below) changes which rows are data, so it stands alone.
 */
export function tableApplyAll(findings: readonly LoadFinding[]): { applyAll?: { label: string; options: TableReadOverrides } } {
  if (findings.some((f) => f.kind === 'title_line' || f.kind === 'notes_below')) return {};
  // A choice the user must make (day or month first, with the other on offer) is not made for them.
  const fixes = findings.flatMap((f) => (f.fix && f.kind !== 'ambiguous_dates' && !f.alternatives?.length ? [f.fix.options as TableReadOverrides] : []));
  if (fixes.length < 2) return {};
  return { applyAll: { label: `Apply all ${fixes.length} fixes in one read`, options: fixes.reduce<TableReadOverrides>((o, x) => mergeTableOverrides(o, x), {}) } };
}
