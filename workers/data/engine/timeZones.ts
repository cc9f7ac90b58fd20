import type { ColumnInfo } from '../../../protocol/data';
import type { TimeZoneNote } from '../../../protocol/loadReport';
import type { Engine } from './duckdbEngine';
import { quoteIdent } from '../../../shared/sql';

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

/** Zone names that are UTC, as the IANA database and SQL write them (compared upper-cased, trimmed). */
const UTC_NAMES = ['UTC', 'GMT', 'Z', 'ZULU', 'UCT', 'UNIVERSAL', 'ETC/UTC', 'ETC/GMT', 'ETC/UCT', 'ETC/UNIVERSAL', 'ETC/ZULU', 'GMT0', 'ETC/GMT0', 'UTC0', '+00:00', '+00', '00:00'];

/** What a zone other than UTC needs, said where the SQL fails. */
export const NEEDS_ICU =
  "needs DuckDB's ICU extension (time zone names, AT TIME ZONE in a zone other than UTC, TIMESTAMPTZ arithmetic), which is not loaded in this session. Without it, times are UTC: AT TIME ZONE 'UTC' and current_setting('TimeZone') work; for a fixed offset add it (ts + INTERVAL '-5 hours' for UTC-5)";

/**
 * Without ICU, DuckDB has no `timezone()` (what `AT TIME ZONE` is) and no TimeZone setting, and the
 * SQL fails with "Extension Autoloading Error". The session's time is UTC (zoned columns are
 * stored in UTC, timeZones.ts), so these temporary macros answer for UTC as ICU would (the
 * instant, as a UTC TIMESTAMP) and name what any other zone needs. Temporary: never saved, and
 * shadowed by nothing the user makes in `main`.
 */
export const UTC_ONLY_SQL = [
  `CREATE OR REPLACE TEMP MACRO timezone(zone, ts) AS CASE WHEN upper(trim(CAST(zone AS VARCHAR))) IN (${UTC_NAMES.map((n) => `'${n}'`).join(', ')}) THEN CAST(ts AS TIMESTAMP) ELSE error('Time zone ''' || CAST(zone AS VARCHAR) || ''' ${NEEDS_ICU.replace(/'/g, "''")}.') END`,
  // The built-in's key must be a constant, so the other settings are read from duckdb_settings() (as text).
  `CREATE OR REPLACE TEMP MACRO current_setting(setting) AS CASE WHEN lower(setting) = 'timezone' THEN 'UTC' ELSE (SELECT value FROM duckdb_settings() WHERE lower(name) = lower(setting)) END`,
];
