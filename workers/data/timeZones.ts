import type { ColumnInfo } from '../../protocol/data';
import type { TimeZoneNote } from '../../protocol/loadReport';
import type { Engine } from './duckdbEngine';
import { quoteIdent } from '../../shared/sql';

/**
 * Makes TIMESTAMP WITH TIME ZONE columns usable. With ICU loaded they stay as they are (hour(),
 * date_trunc, strftime, ::DATE and + INTERVAL then work in the session's time zone). Without it,
 * DuckDB binds none of those on TIMESTAMPTZ, so each such column becomes a plain TIMESTAMP holding
 * the UTC instant: the cast TIMESTAMPTZ → TIMESTAMP is built into DuckDB and needs no ICU.
 * Nothing else changes: a table without such columns is left untouched.
 */

export const TIMESTAMPTZ = 'TIMESTAMP WITH TIME ZONE';

export function zonedColumns(columns: readonly ColumnInfo[]): string[] {
  return columns.filter((c) => c.type === TIMESTAMPTZ).map((c) => c.name);
}

/** `* REPLACE (…)` for a SELECT over a source with time-zone columns, or `*` when it has none. */
export function utcSelectList(zoned: readonly string[]): string {
  if (zoned.length === 0) return '*';
  return `* REPLACE (${zoned.map((c) => `CAST(${quoteIdent(c)} AS TIMESTAMP) AS ${quoteIdent(c)}`).join(', ')})`;
}

/** Converts a table's time-zone columns to UTC TIMESTAMP unless ICU is loaded; says what it did. */
export async function settleTimeZones(engine: Engine, table: string, columns: readonly ColumnInfo[], icu: boolean): Promise<TimeZoneNote[]> {
  const zoned = zonedColumns(columns);
  if (icu) return zoned.map((column) => ({ column, stored: 'timestamptz' as const }));
  for (const c of zoned) {
    await engine.query(`ALTER TABLE ${quoteIdent(table)} ALTER COLUMN ${quoteIdent(c)} SET DATA TYPE TIMESTAMP USING CAST(${quoteIdent(c)} AS TIMESTAMP)`);
  }
  return zoned.map((column) => ({ column, stored: 'utc' as const }));
}
