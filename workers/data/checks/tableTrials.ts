/**
 * A value fix of a reader's table (Excel, JSON) is a conversion of its text columns: placeholders
 * as missing, the rest as numbers or dates. Written once here for both uses: applying a fix
 * (strict: a value that does not convert fails the statement) and trying one before it is offered
 * (the same conversion with TRY_, counting the values it would fail on), many columns per
 * statement over every row.
 */
import type { TableReadOverrides } from '../../../protocol/loadReport';
import { quoteIdent, quoteLiteral } from '../../../shared/sql';
import { rowsOf, type Engine } from '../engine/duckdbEngine';
import { batchFor, inBatches } from './valueBatches';

export type ValueType = 'BIGINT' | 'DOUBLE' | 'DATE';

/** One column's conversion as a fix says it. */
export interface Conversion {
  column: string;
  type?: ValueType;
  missing: readonly string[];
  format?: string;
  thousands: boolean;
}

/** The column's conversion under `o` (the fix in force merged with a new one), or undefined when `o` leaves the column alone. */
export function conversionOf(column: string, o: TableReadOverrides): Conversion | undefined {
  const type = o.types?.[column];
  const missing = o.missing?.[column] ?? [];
  if (type === undefined && missing.length === 0) return undefined;
  return { column, ...(type ? { type } : {}), missing, ...(o.dateformats?.[column] ? { format: o.dateformats[column] } : {}), thousands: o.thousandsIn?.includes(column) ?? false };
}

/** When the column's value is missing under the conversion, and what it reads as otherwise (`strict`: a failed cast is an error, else NULL). */
function parts(v: Conversion, strict: boolean): { none: string; value: string } {
  const c = quoteIdent(v.column);
  const t = `trim(${c})`;
  const digits = v.thousands && v.type !== 'DATE' ? `replace(${t}, ',', '')` : t;
  const none = [`${c} IS NULL`, ...(v.type ? [`${t} = ''`] : []), ...(v.missing.length > 0 ? [`${t} IN (${v.missing.map(quoteLiteral).join(', ')})`] : [])].join(' OR ');
  const cast = strict ? 'CAST' : 'TRY_CAST';
  const value =
    v.type === 'DATE'
      ? `${strict ? 'strptime' : 'try_strptime'}(${t}, ${quoteLiteral(v.format ?? '%Y-%m-%d')})::DATE`
      : v.type === 'BIGINT'
        ? `${cast}(${cast}(${digits} AS DOUBLE) AS BIGINT)`
        : v.type === 'DOUBLE'
          ? `${cast}(${digits} AS DOUBLE)`
          : c;
  return { none, value };
}

/** The SQL that reads the column with the fix, as applied: a value that does not convert fails the statement. */
export function conversionSql(v: Conversion): string {
  const { none, value } = parts(v, true);
  return `CASE WHEN ${none} THEN NULL ELSE ${value} END`;
}

/** What a conversion did over every row: values it read, values it could not convert. */
export interface Trial {
  read: number;
  failed: number;
}

/** Whether the fix converts the whole column: some value read, none failed. */
export const converts = (t: Trial | undefined): boolean => t !== undefined && t.read > 0 && t.failed === 0;

/**
 * Conversion `v` as two columns of a projection: whether the value is missing (`n{j}`) and what
 * it converts to, NULL where it cannot (`v{j}`). A value the strict conversion would fail on is
 * exactly one TRY_ gives NULL for while it is not missing.
 */
export function trialColumns(v: Conversion, j: number): string {
  const { none, value } = parts(v, false);
  return `(${none}) AS n${j}, ${value} AS v${j}`;
}

/**
 * The counts of conversion `j` over trialColumns' projection. count_if, not a FILTER: DuckDB
 * slices the whole input row for each FILTER, which on 50 columns cost more than the casts.
 */
export const trialCounts = (j: number): string => `count_if(NOT n${j})::DOUBLE AS read${j}, count_if(NOT n${j} AND v${j} IS NULL)::DOUBLE AS failed${j}`;

const trialOf = (row: Record<string, unknown> | undefined, j: number): Trial | undefined =>
  row ? { read: Number(row[`read${j}`] ?? 0), failed: Number(row[`failed${j}`] ?? 0) } : undefined;

/** A conversion tried: its counts (undefined when DuckDB refused the statement) and the extra aggregates asked for it. */
export interface Tried {
  trial?: Trial;
  more: Record<string, unknown>;
}

/**
 * Each conversion tried over every row of `table` (`rows` of them), as many per statement as
 * SCAN_VALUES allows. `more(j)` adds aggregates (name → SQL over `n{j}` and `v{j}`) for
 * conversion j of a batch.
 */
export function tryConversions(engine: Engine, table: string, conversions: readonly Conversion[], rows: number, more: (j: number) => Record<string, string> = () => ({})): Promise<Tried[]> {
  return inBatches(conversions, batchFor(rows), async (batch) => {
    const extra = batch.map((_, j) => Object.entries(more(j)));
    const aggregates = batch.flatMap((_, j) => [trialCounts(j), ...extra[j]!.map(([name, sql]) => `${sql} AS ${name}${j}`)]);
    let row: Record<string, unknown> | undefined;
    try {
      row = rowsOf(await engine.query(`SELECT ${aggregates.join(', ')} FROM (SELECT ${batch.map(trialColumns).join(', ')} FROM ${quoteIdent(table)})`))[0];
    } catch {
      // Not tried: the findings stand without a fix.
      row = undefined;
    }
    return batch.map((_, j) => ({ ...(row ? { trial: trialOf(row, j) } : {}), more: Object.fromEntries(extra[j]!.map(([name]) => [name, row?.[`${name}${j}`]])) }));
  });
}
