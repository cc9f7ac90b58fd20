/**
 * The first step of the value checks on a reader's table (tableChecks.ts): every text column's
 * counts of numbers, separators and dates, and its most frequent values that are not numbers
 * (or not dates), in a few statements however many columns.
 */
import { rowsOf, type Engine } from '../engine/duckdbEngine';
import { STATS_BATCH, inBatches, valuePairs } from './valueBatches';

/** Distinct placeholders one column may have (a statistics table can use most of the list). */
export const MAX_PLACEHOLDERS = 12;
const DMY = '\\d{1,2}[/.-]\\d{1,2}[/.-]\\d{4}';
const YMD = '\\d{4}-\\d{1,2}-\\d{1,2}';
const THOUSANDS = '[-+]?\\d{1,3}(,\\d{3})+(\\.\\d+)?';

export interface Stats {
  column: string;
  nonNull: number;
  numeric: number;
  /** Numbers written with "," thousands separators (1,234,567). */
  thousands: number;
  leadingZeros: number;
  dmy: number;
  ymd: number;
  /**
   * The most frequent values that are not numbers (or, for a date column, not dates), with counts,
   * over the rows looked at; undefined when the column is not worth it (text with a number here and there).
   */
  odd?: { value: string; count: number }[];
  dateOdd?: { value: string; count: number }[];
  /** A date value as written, for the separator. */
  sampleDate?: string;
}

/** Arrow's list (or a plain array, or NULL) as an array. */
const arrayOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : v && typeof (v as { toArray?: unknown }).toArray === 'function' ? [...(v as { toArray(): unknown[] }).toArray()] : []);

/**
 * Every text column's counts and most frequent odd values over the table's first `rows` rows,
 * STATS_BATCH columns per statement (valueBatches.ts, as the CSV checks go): one statement per
 * column, or all 600 of a survey's in one, cost seconds each.
 */
export function statsOf(engine: Engine, table: string, columns: readonly string[], rows: number): Promise<Stats[]> {
  return inBatches(columns, STATS_BATCH, (batch) => batchStats(engine, table, batch, rows));
}

async function batchStats(engine: Engine, table: string, columns: readonly string[], rows: number): Promise<Stats[]> {
  if (columns.length === 0) return [];
  // A look at the first character spares the cast and the patterns most text (names, labels) would
  // cost: a failing TRY_CAST is the dearest part of these checks.
  const digitFirst = `(ascii(v) BETWEEN 48 AND 57)`;
  const isNumber = `((${digitFirst} OR ascii(v) IN (43, 45, 46)) AND coalesce(isfinite(TRY_CAST(v AS DOUBLE)), false))`;
  const dmy = `(${digitFirst} AND regexp_full_match(v, '${DMY}'))`;
  const ymd = `(${digitFirst} AND regexp_full_match(v, '${YMD}'))`;
  const thou = `((${digitFirst} OR ascii(v) IN (43, 45)) AND regexp_full_match(v, '${THOUSANDS}'))`;
  // The most frequent values that are not numbers (or not dates), with counts: a column of
  // numbers but for a few kinds of string names them; the list is cut in DuckDB.
  const top = (name: string, test: string) =>
    `list_slice(list(v ORDER BY k DESC, v) FILTER (WHERE ${test}), 1, ${MAX_PLACEHOLDERS + 1}) AS ${name}v, list_slice(list(k::DOUBLE ORDER BY k DESC, v) FILTER (WHERE ${test}), 1, ${MAX_PLACEHOLDERS + 1}) AS ${name}k`;
  const counts = rowsOf(
    // Each distinct value classified once, weighted by how often it occurs (survey and sensor
    // columns repeat a few values thousands of times, and the patterns are the cost).
    await engine.query(`SELECT i, sum(k)::DOUBLE AS nn,
  coalesce(sum(k) FILTER (WHERE num), 0)::DOUBLE AS num,
  coalesce(sum(k) FILTER (WHERE thou), 0)::DOUBLE AS thou,
  coalesce(sum(k) FILTER (WHERE num AND regexp_full_match(v, '[-+]?0\\d+(\\.\\d*)?')), 0)::DOUBLE AS lead0,
  coalesce(sum(k) FILTER (WHERE dmy), 0)::DOUBLE AS dmy,
  coalesce(sum(k) FILTER (WHERE ymd), 0)::DOUBLE AS ymd,
  any_value(v) FILTER (WHERE dmy) AS sample,
  count(*) FILTER (WHERE NOT (num OR thou))::DOUBLE AS odd,
  count(*) FILTER (WHERE NOT (dmy OR ymd))::DOUBLE AS dateodd,
  ${top('odd', 'NOT (num OR thou)')},
  ${top('dateodd', 'NOT (dmy OR ymd)')}
FROM (SELECT i, v, k, ${isNumber} AS num, ${thou} AS thou, ${dmy} AS dmy, ${ymd} AS ymd FROM (SELECT i, v, count(*) AS k FROM (SELECT i, trim(c) AS v FROM ${valuePairs(table, columns, rows)}) WHERE v <> '' GROUP BY i, v))
GROUP BY i`),
  );
  const byIndex = new Map(counts.map((r) => [Number(r.i), r]));
  const n = (i: number, k: string) => Number(byIndex.get(i)?.[k] ?? 0);
  const listed = (i: number, name: string) => {
    const values = arrayOf(byIndex.get(i)?.[`${name}v`]);
    const ks = arrayOf(byIndex.get(i)?.[`${name}k`]);
    return values.map((value, j) => ({ value: String(value), count: Number(ks[j] ?? 0) }));
  };
  // Only a column of numbers (or dates) but for a few kinds of string has stray strings worth
  // naming: a text column with a number in it is not that.
  const worth = (i: number, hits: number, others: string) => hits > 0 && (hits >= n(i, 'nn') * 0.5 || n(i, others) <= MAX_PLACEHOLDERS);
  return columns.map((column, i) => {
    const sample = byIndex.get(i)?.sample;
    return {
      column,
      nonNull: n(i, 'nn'),
      numeric: n(i, 'num'),
      thousands: n(i, 'thou'),
      leadingZeros: n(i, 'lead0'),
      dmy: n(i, 'dmy'),
      ymd: n(i, 'ymd'),
      ...(worth(i, n(i, 'num') + n(i, 'thou'), 'odd') ? { odd: listed(i, 'odd') } : {}),
      ...(worth(i, n(i, 'dmy') + n(i, 'ymd'), 'dateodd') ? { dateOdd: listed(i, 'dateodd') } : {}),
      ...(sample ? { sampleDate: String(sample) } : {}),
    };
  });
}
