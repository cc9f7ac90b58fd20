/** How each text column's values read (numbers, separators, dates, placeholders): many columns per statement. */
import { rowsOf, type Engine } from '../../engine/duckdbEngine';
import { CHECK_ROWS, STATS_BATCH, inBatches, valuePairs } from '../valueBatches';
import { PLACEHOLDER_SQL } from './kit';

/** Text that may be a date or a time: digits with date separators, or a month name with a year. */
export const DATE_LIKE = "regexp_matches(trim(c), '^(\\d{1,4}[/.-]\\d{1,2}[/.-]\\d{1,4}|[A-Za-z]{3,9}\\.? \\d{1,2},? \\d{4}|\\d{1,2}[ -][A-Za-z]{3,9}[ -]\\d{2,4})')";
export interface TextStats {
  column: string;
  nonNull: number;
  numeric: number;
  thousands: number;
  decimalComma: number;
  commaOnly: number;
  spaced: number;
  /** Numbers grouped by single spaces (1 234 567). */
  spaceThousands: number;
  /** Numbers written with a decimal comma, grouped by dots or not (1.234,5 / 10,5 / 7). */
  euro: number;
  /** Of those, the ones grouped by dots (1.234 or 1.234,5). */
  euroGrouped: number;
  /** Of those, the ones no English reading fits: a comma (1.234,5 / 10,5) or two dot groups (1.234.567). */
  euroSure: number;
  dates: number;
  /** Numbers with spaces or tabs around them (DuckDB's cast trims them; its CSV sniffer does not). */
  padded: number;
  /** Integers written with a leading zero (ZIP and FIPS codes, IDs): a code column, not a number. */
  leadingZero: number;
  integers: number;
  /** Values that DuckDB casts to a timestamp (ISO, with or without an offset). */
  timestamps: number;
  /** Placeholder values (PLACEHOLDERS, or only spaces), and which occur. */
  placeholders: number;
  placeholderValues: string[];
  /** Values shaped like a date or a time (DATE_LIKE). */
  dateLike: number;
  /** The most frequent values that are not numbers, with their counts. */
  odd: { value: string; count: number }[];
}

/** Each text column's statistics, STATS_BATCH columns per statement. */
export function textStatsOf(engine: Engine, table: string, columns: readonly string[], rows = CHECK_ROWS): Promise<TextStats[]> {
  return inBatches(columns, STATS_BATCH, (batch) => batchStats(engine, table, batch, rows));
}

async function batchStats(engine: Engine, table: string, columns: readonly string[], rowLimit: number): Promise<TextStats[]> {
  if (columns.length === 0) return [];
  const src = valuePairs(table, columns, rowLimit);
  // Each distinct value of a column is classified once, weighted by how often it occurs: survey and
  // sensor columns repeat a few values thousands of times, and the patterns are the cost.
  const rows = rowsOf(
    await engine.query(`SELECT i, sum(k)::DOUBLE AS nn,
  coalesce(sum(k) FILTER (WHERE num), 0)::DOUBLE AS num,
  coalesce(sum(k) FILTER (WHERE regexp_full_match(t, '[-+]?\\d{1,3}(,\\d{3})+(\\.\\d+)?')), 0)::DOUBLE AS thou,
  coalesce(sum(k) FILTER (WHERE regexp_full_match(t, '[-+]?\\d*,\\d+')), 0)::DOUBLE AS dcomma,
  coalesce(sum(k) FILTER (WHERE regexp_full_match(t, '[-+]?\\d*,\\d+') AND NOT regexp_full_match(t, '[-+]?\\d{1,3}(,\\d{3})+')), 0)::DOUBLE AS conly,
  coalesce(sum(k) FILTER (WHERE NOT num AND TRY_CAST(regexp_replace(c, '\\s', '', 'g') AS DOUBLE) IS NOT NULL), 0)::DOUBLE AS ws,
  coalesce(sum(k) FILTER (WHERE regexp_full_match(t, '\\d{1,2}[/.-]\\d{1,2}[/.-]\\d{4}')), 0)::DOUBLE AS dates,
  coalesce(sum(k) FILTER (WHERE num AND regexp_matches(c, '^\\s|\\s$')), 0)::DOUBLE AS padded,
  coalesce(sum(k) FILTER (WHERE regexp_full_match(t, '[-+]?\\d{1,3}( \\d{3})+(\\.\\d+)?')), 0)::DOUBLE AS spthou,
  coalesce(sum(k) FILTER (WHERE regexp_full_match(t, '[-+]?(\\d{1,3}(\\.\\d{3})+|\\d+)(,\\d+)?')), 0)::DOUBLE AS euro,
  coalesce(sum(k) FILTER (WHERE regexp_full_match(t, '[-+]?\\d{1,3}(\\.\\d{3})+(,\\d+)?')), 0)::DOUBLE AS eurog,
  coalesce(sum(k) FILTER (WHERE regexp_full_match(t, '[-+]?(\\d{1,3}(\\.\\d{3})+,\\d+|\\d+,\\d+|\\d{1,3}(\\.\\d{3}){2,})')), 0)::DOUBLE AS eurosure,
  coalesce(sum(k) FILTER (WHERE regexp_full_match(t, '0\\d+')), 0)::DOUBLE AS lz,
  coalesce(sum(k) FILTER (WHERE regexp_full_match(t, '[-+]?\\d+')), 0)::DOUBLE AS ints,
  coalesce(sum(k) FILTER (WHERE NOT num AND TRY_CAST(c AS TIMESTAMPTZ) IS NOT NULL), 0)::DOUBLE AS ts,
  coalesce(sum(k) FILTER (WHERE ph), 0)::DOUBLE AS ph,
  coalesce(sum(k) FILTER (WHERE ${DATE_LIKE}), 0)::DOUBLE AS dl,
  list(DISTINCT c ORDER BY c) FILTER (WHERE ph) AS phv
FROM (SELECT i, c, k, trim(c) AS t, TRY_CAST(c AS DOUBLE) IS NOT NULL AS num, TRY_CAST(c AS DOUBLE) IS NULL AND (lower(trim(c)) IN (${PLACEHOLDER_SQL}) OR trim(c) = '') AS ph FROM (SELECT i, c, count(*) AS k FROM ${src} GROUP BY i, c))
GROUP BY i`),
  );
  const byIndex = new Map(rows.map((r) => [Number(r.i), r]));
  // Only a column with numbers in it can have stray strings worth naming; a text column is not grouped.
  const withNumbers = columns.map((_, i) => i).filter((i) => Number(byIndex.get(i)?.num ?? 0) > 0);
  const odd = new Map<number, { value: string; count: number }[]>(withNumbers.map((i) => [i, []]));
  if (withNumbers.length > 0) {
    const chosen = withNumbers.map((i) => columns[i]!);
    const ranked = rowsOf(
      await engine.query(
        `SELECT i, value, n FROM (SELECT i, c AS value, count(*)::DOUBLE AS n, row_number() OVER (PARTITION BY i ORDER BY count(*) DESC, c) AS rank FROM ${valuePairs(table, chosen, rowLimit)} WHERE TRY_CAST(c AS DOUBLE) IS NULL GROUP BY i, c) WHERE rank <= 6 ORDER BY i, rank`,
      ),
    );
    for (const r of ranked) odd.get(withNumbers[Number(r.i)]!)?.push({ value: String(r.value), count: Number(r.n) });
  }
  return columns.map((column, i) => {
    const row = byIndex.get(i);
    const n = (k: string) => Number(row?.[k] ?? 0);
    const phv = row?.phv as unknown[] | { toArray(): unknown[] } | null | undefined;
    return {
      column,
      nonNull: n('nn'),
      numeric: n('num'),
      thousands: n('thou'),
      decimalComma: n('dcomma'),
      commaOnly: n('conly'),
      spaced: n('ws'),
      dates: n('dates'),
      padded: n('padded'),
      spaceThousands: n('spthou'),
      euro: n('euro'),
      euroGrouped: n('eurog'),
      euroSure: n('eurosure'),
      leadingZero: n('lz'),
      integers: n('ints'),
      timestamps: n('ts'),
      placeholders: n('ph'),
      dateLike: n('dl'),
      placeholderValues: (Array.isArray(phv) ? phv : (phv?.toArray() ?? [])).map(String).slice(0, 8),
      odd: odd.get(i) ?? [],
    };
  });
}
