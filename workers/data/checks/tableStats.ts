/**
 * The first step of the value checks on a reader's table (tableChecks.ts): every text column's
 * counts of numbers, separators and dates, and its most frequent values that are not numbers
 * (or not dates), in a few statements however many columns.
 */
import { quoteIdent } from '../../../shared/sql';
import { rowsOf, type Engine } from '../engine/duckdbEngine';

/** Distinct placeholders one column may have (a statistics table can use most of the list). */
export const MAX_PLACEHOLDERS = 12;
/**
 * Rows the checks sample (the first ones) to find the columns worth a closer look; those
 * columns' stray values are then gathered over every row, and a fix is tried on every row.
 */
const CHECK_ROWS = 20_000;
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
   * over every row; undefined when the column is not worth it (text with a number here and there).
   */
  odd?: { value: string; count: number }[];
  dateOdd?: { value: string; count: number }[];
  /** A date value as written, for the separator. */
  sampleDate?: string;
}

/**
 * Every text column's counts in one query, and its most frequent non-numbers and non-dates in one
 * more each: a query per column would cost a round trip each on wide files.
 */
export async function statsOf(engine: Engine, table: string, columns: readonly string[]): Promise<Stats[]> {
  if (columns.length === 0) return [];
  // The chosen columns as (i, v) pairs, one scan: written once, however many columns (a UNION of
  // a query per column took seconds to plan on a 60-column file).
  const src = (chosen: readonly number[], rows?: number) =>
    `(SELECT i, v FROM (SELECT unnest([${chosen.join(', ')}]) AS i, trim(unnest([${chosen.map((i) => quoteIdent(columns[i]!)).join(', ')}])) AS v FROM (SELECT * FROM ${quoteIdent(table)}${rows ? ` LIMIT ${rows}` : ''})) WHERE v IS NOT NULL AND v <> '')`;
  // A look at the first character spares the cast and the patterns most text (names, labels) would
  // cost: a failing TRY_CAST is the dearest part of these checks.
  const digitFirst = `(ascii(v) BETWEEN 48 AND 57)`;
  const isNumber = `((${digitFirst} OR ascii(v) IN (43, 45, 46)) AND coalesce(isfinite(TRY_CAST(v AS DOUBLE)), false))`;
  const dmy = `(${digitFirst} AND regexp_full_match(v, '${DMY}'))`;
  const ymd = `(${digitFirst} AND regexp_full_match(v, '${YMD}'))`;
  const isDate = `(${dmy} OR ${ymd})`;
  const thou = `((${digitFirst} OR ascii(v) IN (43, 45)) AND regexp_full_match(v, '${THOUSANDS}'))`;
  // What counts as a number when stray strings are gathered: thousands separators included.
  const numberLike = `(${isNumber} OR ${thou})`;
  const indexes = columns.map((_, i) => i);
  const counts = rowsOf(
    // Each value classified once, in a projection: a third cheaper than repeating the tests in each FILTER.
    await engine.query(`SELECT i, count(*)::DOUBLE AS nn,
  count(*) FILTER (WHERE num)::DOUBLE AS num,
  count(*) FILTER (WHERE thou)::DOUBLE AS thou,
  count(*) FILTER (WHERE num AND regexp_full_match(v, '[-+]?0\\d+(\\.\\d*)?'))::DOUBLE AS lead0,
  count(*) FILTER (WHERE dmy)::DOUBLE AS dmy,
  count(*) FILTER (WHERE ymd)::DOUBLE AS ymd,
  any_value(v) FILTER (WHERE dmy) AS sample,
  count(DISTINCT v) FILTER (WHERE NOT (num OR thou))::DOUBLE AS odd,
  count(DISTINCT v) FILTER (WHERE NOT (dmy OR ymd))::DOUBLE AS dateodd
FROM (SELECT i, v, ${isNumber} AS num, ${thou} AS thou, ${dmy} AS dmy, ${ymd} AS ymd FROM ${src(indexes, CHECK_ROWS)})
GROUP BY i`),
  );
  const byIndex = new Map(counts.map((r) => [Number(r.i), r]));
  const n = (i: number, k: string) => Number(byIndex.get(i)?.[k] ?? 0);
  // The most frequent values of each chosen column that fail `test`, with counts, over every row.
  const top = async (chosen: number[], test: string): Promise<Map<number, { value: string; count: number }[]>> => {
    // A chosen column with no stray value is in the map with an empty list.
    const out = new Map<number, { value: string; count: number }[]>(chosen.map((i) => [i, []]));
    if (chosen.length === 0) return out;
    const union = `SELECT i, v FROM ${src(chosen)} WHERE NOT ${test}`;
    const rows = rowsOf(
      await engine.query(
        `SELECT i, value, n FROM (SELECT i, v AS value, count(*)::DOUBLE AS n, row_number() OVER (PARTITION BY i ORDER BY count(*) DESC, v) AS rank FROM (${union}) GROUP BY i, v) WHERE rank <= ${MAX_PLACEHOLDERS + 1} ORDER BY i, rank`,
      ),
    );
    for (const r of rows) out.get(Number(r.i))?.push({ value: String(r.value), count: Number(r.n) });
    return out;
  };
  // Only a column of numbers (or dates) but for a few kinds of string has stray strings worth
  // naming: a text column with a number in it is not grouped over all its rows.
  const worth = (i: number, hits: number, others: string) => hits > 0 && (hits >= n(i, 'nn') * 0.5 || n(i, others) <= MAX_PLACEHOLDERS);
  const odd = await top(indexes.filter((i) => worth(i, n(i, 'num') + n(i, 'thou'), 'odd')), numberLike);
  const dateOdd = await top(indexes.filter((i) => worth(i, n(i, 'dmy') + n(i, 'ymd'), 'dateodd')), isDate);
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
      ...(odd.has(i) ? { odd: odd.get(i)! } : {}),
      ...(dateOdd.has(i) ? { dateOdd: dateOdd.get(i)! } : {}),
      ...(sample ? { sampleDate: String(sample) } : {}),
    };
  });
}

