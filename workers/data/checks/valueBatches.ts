/**
 * How the load report's value checks (CSV, csvReport/; Excel and JSON, tableChecks.ts) go through
 * a wide or long table: many columns per statement as (column, value) pairs, the first rows only
 * for the statistics, and statements sized by the values they scan, so 2,000 columns or 10M rows
 * cost a bounded number of statements of a bounded size each.
 */
import { quoteIdent } from '../../../shared/sql';
import { rowsOf, type Engine } from '../engine/duckdbEngine';

/** Text columns examined per table (the checks go by batches of columns, so a survey's 2,000 are all looked at). */
export const MAX_TEXT_COLUMNS = 2_000;
/**
 * Rows the statistics look at: the first ones, as DuckDB's sniffer's own sample does, so a big
 * file's load does not pay for scanning every string of every text column.
 */
export const CHECK_ROWS = 50_000;
/**
 * Values (rows × columns) the statistics scan: a wide table's are taken on fewer of its first
 * rows, so 2,000 columns cost what 50 do, and the report says how many rows were looked at.
 */
export const CHECK_VALUES = 2_500_000;
export const MIN_CHECK_ROWS = 1_000;

/** The first rows a table of `columns` columns is checked on. */
export const checkRowsFor = (columns: number): number => Math.max(MIN_CHECK_ROWS, Math.min(CHECK_ROWS, Math.floor(CHECK_VALUES / Math.max(1, columns))));

/**
 * Columns per statement: each statement is one turn of the engine's queue (a question asked
 * while a big file's checks run waits for one statement, not all), and one statement per column
 * cost a round trip and a plan each (60 columns: 5.9 s; 200: 8.7 s on a 600 × 5,000 file).
 */
export const STATS_BATCH = 50;
/**
 * Values one statement over every row may scan (a fix tried on each of its columns): on a
 * 10M-row table that is a column or two per statement, so a question waits for seconds, not
 * for every column.
 */
export const SCAN_VALUES = 20_000_000;

/** Columns per statement over `rows` rows: at most `most`, at least one, within SCAN_VALUES. */
export const batchFor = (rows: number, most = STATS_BATCH): number => Math.max(1, Math.min(most, Math.floor(SCAN_VALUES / Math.max(1, rows))));

/** `run` over `items` in slices of `size`, one after the other (one statement each), the results in order. */
export async function inBatches<T, R>(items: readonly T[], size: number, run: (batch: readonly T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let k = 0; k < items.length; k += size) out.push(...(await run(items.slice(k, k + size))));
  return out;
}

/**
 * The chosen columns' values as (i, c) pairs, i the column's place in `columns`, from the table's
 * first `rows` rows (every row when undefined) after `skip`: one scan however many columns (a UNION
 * of a query per column took seconds to plan on a 60-column file).
 */
export function valuePairs(table: string, columns: readonly string[], rows?: number, skip = 0): string {
  const ids = columns.map((_, i) => i).join(', ');
  const cols = columns.map(quoteIdent).join(', ');
  return `(SELECT i, c FROM (SELECT unnest([${ids}]) AS i, unnest([${cols}]) AS c FROM (SELECT ${cols} FROM ${quoteIdent(table)}${rows === undefined ? '' : ` LIMIT ${rows}`}${skip > 0 ? ` OFFSET ${skip}` : ''})) WHERE c IS NOT NULL)`;
}

/** Said in the report when the statistics looked at fewer rows than the table has (`after` ends the sentence). */
export async function sampledNote(engine: Engine, table: string, rows: number, after: string): Promise<string | undefined> {
  const total = Number(rowsOf(await engine.query(`SELECT count(*)::DOUBLE AS n FROM ${quoteIdent(table)}`))[0]?.n ?? 0);
  if (total <= rows) return undefined;
  return `The value checks looked at the first ${rows.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows; ${after}`;
}
