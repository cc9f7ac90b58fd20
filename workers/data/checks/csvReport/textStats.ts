/** One query per text column: how its values read (numbers, separators, dates, placeholders). */
import { rowsOf, type Engine } from '../../engine/duckdbEngine';
import { quoteIdent } from '../../../../shared/sql';
import { CHECK_ROWS, PLACEHOLDER_SQL } from './kit';

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

export async function textStats(engine: Engine, table: string, column: string): Promise<TextStats> {
  const c = quoteIdent(column);
  const src = `(SELECT c FROM (SELECT ${c} AS c FROM ${quoteIdent(table)} LIMIT ${CHECK_ROWS}) WHERE c IS NOT NULL)`;
  const row = rowsOf(
    await engine.query(`SELECT count(*)::DOUBLE AS nn,
  count(*) FILTER (WHERE TRY_CAST(c AS DOUBLE) IS NOT NULL)::DOUBLE AS num,
  count(*) FILTER (WHERE regexp_full_match(trim(c), '[-+]?\\d{1,3}(,\\d{3})+(\\.\\d+)?'))::DOUBLE AS thou,
  count(*) FILTER (WHERE regexp_full_match(trim(c), '[-+]?\\d*,\\d+'))::DOUBLE AS dcomma,
  count(*) FILTER (WHERE regexp_full_match(trim(c), '[-+]?\\d*,\\d+') AND NOT regexp_full_match(trim(c), '[-+]?\\d{1,3}(,\\d{3})+'))::DOUBLE AS conly,
  count(*) FILTER (WHERE TRY_CAST(c AS DOUBLE) IS NULL AND TRY_CAST(regexp_replace(c, '\\s', '', 'g') AS DOUBLE) IS NOT NULL)::DOUBLE AS ws,
  count(*) FILTER (WHERE regexp_full_match(trim(c), '\\d{1,2}[/.-]\\d{1,2}[/.-]\\d{4}'))::DOUBLE AS dates,
  count(*) FILTER (WHERE TRY_CAST(c AS DOUBLE) IS NOT NULL AND regexp_matches(c, '^\\s|\\s$'))::DOUBLE AS padded,
  count(*) FILTER (WHERE regexp_full_match(trim(c), '[-+]?\\d{1,3}( \\d{3})+(\\.\\d+)?'))::DOUBLE AS spthou,
  count(*) FILTER (WHERE regexp_full_match(trim(c), '[-+]?(\\d{1,3}(\\.\\d{3})+|\\d+)(,\\d+)?'))::DOUBLE AS euro,
  count(*) FILTER (WHERE regexp_full_match(trim(c), '[-+]?\\d{1,3}(\\.\\d{3})+(,\\d+)?'))::DOUBLE AS eurog,
  count(*) FILTER (WHERE regexp_full_match(trim(c), '[-+]?(\\d{1,3}(\\.\\d{3})+,\\d+|\\d+,\\d+|\\d{1,3}(\\.\\d{3}){2,})'))::DOUBLE AS eurosure,
  count(*) FILTER (WHERE regexp_full_match(trim(c), '0\\d+'))::DOUBLE AS lz,
  count(*) FILTER (WHERE regexp_full_match(trim(c), '[-+]?\\d+'))::DOUBLE AS ints,
  count(*) FILTER (WHERE TRY_CAST(c AS DOUBLE) IS NULL AND TRY_CAST(c AS TIMESTAMPTZ) IS NOT NULL)::DOUBLE AS ts,
  count(*) FILTER (WHERE TRY_CAST(c AS DOUBLE) IS NULL AND (lower(trim(c)) IN (${PLACEHOLDER_SQL}) OR trim(c) = ''))::DOUBLE AS ph,
  count(*) FILTER (WHERE ${DATE_LIKE})::DOUBLE AS dl,
  list(DISTINCT c ORDER BY c) FILTER (WHERE TRY_CAST(c AS DOUBLE) IS NULL AND (lower(trim(c)) IN (${PLACEHOLDER_SQL}) OR trim(c) = '')) AS phv
FROM ${src}`),
  )[0];
  const n = (k: string) => Number(row?.[k] ?? 0);
  // Only a column with numbers in it can have stray strings worth naming; a text column is not grouped.
  const odd =
    n('num') === 0
      ? []
      : rowsOf(await engine.query(`SELECT c AS value, count(*)::DOUBLE AS n FROM ${src} WHERE TRY_CAST(c AS DOUBLE) IS NULL GROUP BY c ORDER BY n DESC, c LIMIT 6`)).map((r) => ({
          value: String(r.value),
          count: Number(r.n),
        }));
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
    odd,
  };
}
