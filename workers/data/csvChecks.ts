import type { ColumnInfo } from '../../protocol/data';
import type { CsvReadOverrides, LoadFinding } from '../../protocol/loadReport';

/** A CSV finding: its fixes are read_csv options. */
type CsvFinding = LoadFinding<CsvReadOverrides>;
import { rowsOf, type Engine } from './duckdbEngine';
import { readCsvSql, type ReadOptions } from './csvIngest';
import { mergeOverrides } from './csvOptions';
import { quoteIdent, quoteLiteral } from '../../shared/sql';

/**
 * The load report's checks for a CSV: what DuckDB's sniffer gets wrong without saying so. Each
 * check looks at the loaded table for a sign (text columns that are numbers but for a few strings,
 * generic column names, day/month dates), and every fix it offers is first tried on the file by
 * DuckDB itself (DESCRIBE over read_csv with the fix's options): a fix is offered only when DuckDB,
 * reading with it, types the columns as the finding says. The file must be registered at `path`.
 */

/**
 * Strings spreadsheets and exports write for "no value": R and pandas (NA, NaN), SQL dumps (NULL),
 * Excel's and SPSS's error cells (#N/A, #NULL!, #DIV/0!…), UK and Eurostat tables (.., :).
 */
const PLACEHOLDERS = new Set([
  'null', 'n/a', 'na', '#n/a', 'nan', 'none', '-', '--', 'missing', '.', '?', 'nil', '(null)',
  'n.a.', '..', ':', 'x', '#null!', '#div/0!', '#value!', '#ref!', '#num!', '#name?',
]);
const isPlaceholder = (v: string) => PLACEHOLDERS.has(v.trim().toLowerCase()) || v.trim() === '';
/** The same set as a SQL list, for counting placeholders in DuckDB. */
const PLACEHOLDER_SQL = [...PLACEHOLDERS].map((p) => `'${p.replace(/'/g, "''")}'`).join(', ');
const GENERIC_NAME = /^column\d+$/;
const TRY_NUMBER = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;
/** Columns examined per file: the checks cost one query per text column. */
const MAX_TEXT_COLUMNS = 200;
const MAX_TITLE_LINES = 5;
/**
 * Rows the text checks look at: the first ones, as the sniffer's own sample does, so a big file's
 * load does not pay for scanning every string of every text column.
 */
const CHECK_ROWS = 50_000;

interface Reader {
  describe(extra: CsvReadOverrides): Promise<ColumnInfo[] | undefined>;
}

function readerFor(engine: Engine, path: string, read: ReadOptions): Reader {
  return {
    async describe(extra) {
      try {
        const sql = readCsvSql(path, { ...read, overrides: mergeOverrides(read.overrides, extra) });
        const rows = rowsOf(await engine.query(`DESCRIBE SELECT * FROM ${sql}`));
        return rows.map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
      } catch {
        return undefined;
      }
    },
  };
}

const list = (names: readonly string[]) => names.map((n) => `"${n}"`).join(', ');
const isNumericType = (t: string | undefined) => t !== undefined && /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL)/.test(t);

async function titleLine(engine: Engine, table: string, reader: Reader, columns: readonly ColumnInfo[], read: ReadOptions): Promise<CsvFinding | undefined> {
  if (columns.length < 2 || !columns.slice(1).every((c) => GENERIC_NAME.test(c.name))) return undefined;
  if (!columns.every((c) => c.type === 'VARCHAR')) {
    // Years as column names can type a column even under a title (UK statistics tables): then the
    // first line must be short, padded with NULLs as a title is.
    const first = rowsOf(await engine.query(`SELECT * FROM ${quoteIdent(table)} LIMIT 1`))[0];
    const empty = columns.filter((c) => first?.[c.name] === null || first?.[c.name] === undefined).length;
    if (empty < columns.length / 2) return undefined;
  }
  const already = read.overrides?.skip ?? 0;
  for (let k = 1; k <= MAX_TITLE_LINES; k++) {
    const described = await reader.describe({ skip: already + k, header: true });
    if (!described || described.length < 2 || described.some((c) => GENERIC_NAME.test(c.name))) continue;
    return {
      kind: 'title_line',
      columns: [],
      message: `The file's first ${k === 1 ? 'line is a title or note' : `${k} lines are a title or notes`} above the header, so every column was read as text named column0, column1…; the header is ${list(described.slice(0, 4).map((c) => c.name))}${described.length > 4 ? '…' : ''}.`,
      fix: { label: `Skip ${k === 1 ? 'the first line' : `the first ${k} lines`}`, options: { skip: already + k, header: true } },
    };
  }
  return undefined;
}

async function columnNames(engine: Engine, path: string, read: ReadOptions, columns: readonly ColumnInfo[]): Promise<CsvFinding | undefined> {
  if (read.overrides?.header === false) return undefined;
  let raw: (string | null)[];
  try {
    const sql = readCsvSql(path, { ...read, overrides: { ...read.overrides, header: false, types: {} } }).replace(/\)$/, ', all_varchar = true)');
    const row = rowsOf(await engine.query(`SELECT * FROM ${sql} LIMIT 1`))[0];
    if (!row) return undefined;
    raw = Object.values(row).map((v) => (v === null || v === undefined ? null : String(v)));
  } catch {
    return undefined;
  }
  const empty: string[] = [];
  const repeated: string[] = [];
  const seen = new Set<string>();
  raw.forEach((name, i) => {
    const made = columns[i]?.name;
    if (made === undefined) return;
    if (name === null || name.trim() === '') empty.push(made);
    else if (seen.has(name.toLowerCase())) repeated.push(`"${name}" → "${made}"`);
    if (name !== null) seen.add(name.toLowerCase());
  });
  if (empty.length === 0 && repeated.length === 0) return undefined;
  const parts: string[] = [];
  if (empty.length > 0) parts.push(`${empty.length === 1 ? 'an empty header was' : `${empty.length} empty headers were`} named ${list(empty)}`);
  if (repeated.length > 0) parts.push(`repeated headers were renamed (${repeated.join(', ')})`);
  return { kind: 'column_names', columns: [...empty, ...repeated.map((r) => r.split(' → ')[1]!.replace(/"/g, ''))], message: `Column names: ${parts.join('; ')}.` };
}

/** Text that may be a date or a time: digits with date separators, or a month name with a year. */
const DATE_LIKE = "regexp_matches(trim(c), '^(\\d{1,4}[/.-]\\d{1,2}[/.-]\\d{1,4}|[A-Za-z]{3,9}\\.? \\d{1,2},? \\d{4}|\\d{1,2}[ -][A-Za-z]{3,9}[ -]\\d{2,4})')";
interface TextStats {
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

async function textStats(engine: Engine, table: string, column: string): Promise<TextStats> {
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

/**
 * A fix is kept only when DuckDB, reading with it, gives the column the type the finding names and
 * leaves every column it had typed typed: a global option such as nullstr or dateformat must not
 * turn another column back into text.
 */
function fixWorks(described: readonly ColumnInfo[] | undefined, before: readonly ColumnInfo[], col: string, wanted: (t: string | undefined) => boolean): boolean {
  return described !== undefined && wanted(described.find((c) => c.name === col)?.type) && brokenBy(described, before).length === 0;
}

/** Columns that were typed and would be text again under a fix. */
function brokenBy(described: readonly ColumnInfo[] | undefined, before: readonly ColumnInfo[]): string[] {
  if (!described) return [];
  return before.filter((b) => b.type !== 'VARCHAR' && described.find((d) => d.name === b.name)?.type === 'VARCHAR').map((b) => b.name);
}

/** Said of a finding whose fix DuckDB would apply to the whole file at the cost of other columns. */
const costsOthers = (broken: readonly string[]) =>
  ` DuckDB applies that option to the whole file, and with it ${list(broken.slice(0, 3))}${broken.length > 3 ? '…' : ''} would be read as text, so no re-read is offered.`;

const quoted = (values: readonly string[]) => values.map((v) => `"${v}"`).join(', ');

/** A fix for one text column, kept only when DuckDB reading with it makes the column numeric. */
async function numberFinding(reader: Reader, s: TextStats, before: readonly ColumnInfo[]): Promise<CsvFinding | undefined> {
  const col = s.column;
  const offer = async (finding: Omit<CsvFinding, 'fix'>, fix: CsvFinding['fix'], wanted = isNumericType): Promise<CsvFinding> => {
    if (!fix) return finding;
    const described = await reader.describe(fix.options);
    if (fixWorks(described, before, col, wanted)) return { ...finding, fix };
    const broken = wanted(described?.find((c) => c.name === col)?.type) ? brokenBy(described, before) : [];
    return broken.length > 0 ? { ...finding, message: `${finding.message}${costsOthers(broken)}` } : finding;
  };
  const pct = (k: number) => `${Math.round((k / s.nonNull) * 100)}%`;
  // Codes written with leading zeros (ZIP, FIPS, IDs) are text on purpose: as numbers they lose the zeros.
  if (s.leadingZero > 0) return undefined;
  const ph = s.placeholderValues;
  const missing = ph.length > 0 ? { nullstr: ['', ...ph] } : {};
  const andMissing = ph.length > 0 ? ` and placeholders (${quoted(ph)})` : '';
  if (s.thousands > 0 && s.commaOnly === 0 && s.thousands + s.numeric + s.placeholders === s.nonNull) {
    return offer(
      { kind: 'thousands', columns: [col], message: `"${col}" holds numbers written with thousands separators (e.g. 1,234)${andMissing}, so it was read as text.` },
      { label: `Read "${col}" with "," as thousands separator${ph.length > 0 ? ` and ${quoted(ph)} as missing` : ''}`, options: { thousands: ',', ...missing } },
    );
  }
  if (s.decimalComma > 0 && s.decimalComma + s.numeric + s.placeholders === s.nonNull && s.euroGrouped === 0) {
    return offer(
      { kind: 'decimal_comma', columns: [col], message: `"${col}" holds numbers with a decimal comma (e.g. 10,5)${andMissing}, so it was read as text.` },
      { label: `Read with "," as decimal separator${ph.length > 0 ? ` and ${quoted(ph)} as missing` : ''}`, options: { decimal_separator: ',', ...missing } },
    );
  }
  if (s.euroGrouped > 0 && s.euroSure > 0 && s.euro + s.placeholders === s.nonNull) {
    // 1.234,5: dots group thousands and the comma is the decimal mark (German, Dutch, Italian…).
    return offer(
      { kind: 'decimal_comma', columns: [col], message: `"${col}" holds numbers with a decimal comma and dots between thousands (e.g. 1.234,5)${andMissing}, so it was read as text.` },
      { label: `Read with "," as decimal separator and "." between thousands${ph.length > 0 ? ` and ${quoted(ph)} as missing` : ''}`, options: { decimal_separator: ',', thousands: '.', ...missing } },
    );
  }
  if (s.numeric === s.nonNull && s.padded > 0) {
    // DuckDB's cast trims spaces and tabs around a number, so a type override reads them.
    const type = s.integers === s.nonNull ? 'BIGINT' : 'DOUBLE';
    return offer(
      { kind: 'whitespace', columns: [col], message: `"${col}" holds numbers with spaces or tabs around them (${pct(s.padded)} of values), so it was read as text.` },
      { label: `Read "${col}" as numbers (${type})`, options: { types: { [col]: type } } },
    );
  }
  if (s.spaceThousands > 0 && s.spaceThousands + s.numeric + s.placeholders === s.nonNull) {
    return offer(
      { kind: 'thousands', columns: [col], message: `"${col}" holds numbers grouped with spaces (e.g. 1 234)${andMissing}, so it was read as text.` },
      { label: `Read "${col}" with a space as thousands separator${ph.length > 0 ? ` and ${quoted(ph)} as missing` : ''}`, options: { thousands: ' ', ...missing } },
    );
  }
  if (s.spaced > 0 && s.spaced + s.numeric === s.nonNull) {
    // Inside a number DuckDB has no option to ignore them.
    return { kind: 'whitespace', columns: [col], message: `"${col}" holds numbers with spaces or tabs inside them (${pct(s.spaced)} of values), so it was read as text; in SQL, CAST(regexp_replace("${col}", '\\s', '', 'g') AS DOUBLE) reads them.` };
  }
  if (s.numeric === 0 && s.timestamps > 0 && s.placeholders > 0 && s.timestamps + s.placeholders === s.nonNull) {
    return offer(
      { kind: 'placeholders', columns: [col], message: `"${col}" holds timestamps but for placeholder text (${quoted(ph)}), so it was read as text.` },
      { label: `Read ${quoted(ph)} as missing`, options: { nullstr: ['', ...ph] } },
      (t) => t !== undefined && /^(TIMESTAMP|DATE)/.test(t),
    );
  }
  if (s.numeric === 0 || s.odd.length === 0 || s.odd.length > 5) return undefined;
  const values = s.odd.map((o) => o.value);
  const shown = s.odd.map((o) => `"${o.value}" ×${o.count.toLocaleString('en-US')}`).join(', ');
  if (values.every(isPlaceholder)) {
    return offer(
      { kind: 'placeholders', columns: [col], message: `"${col}" is numeric but for placeholder text (${shown}), so it was read as text.` },
      { label: `Read ${quoted(values)} as missing`, options: { nullstr: ['', ...values] } },
    );
  }
  // A few stray strings in a column of numbers (one, or up to 5% of values). Where text is more
  // (codes such as "At-Large" among district numbers, the real values of a column whose numbers
  // come from repeated header rows) the column is text.
  if (s.nonNull - s.numeric > Math.max(1, s.nonNull * 0.05)) return undefined;
  return offer(
    { kind: 'mixed_types', columns: [col], message: `"${col}" is mostly numbers (${pct(s.numeric)}) mixed with text (${shown}), so it was read as text.` },
    { label: `Read ${quoted(values)} as missing`, options: { nullstr: ['', ...values] } },
  );
}

const DATE_FORMATS = (sep: string) => [`%m${sep}%d${sep}%Y`, `%d${sep}%m${sep}%Y`];

async function currentDateFormat(engine: Engine, path: string, read: ReadOptions): Promise<string | undefined> {
  if (read.overrides?.dateformat) return read.overrides.dateformat;
  try {
    const sql = readCsvSql(path, read).replace(/^read_csv\(/, 'sniff_csv(');
    const row = rowsOf(await engine.query(`SELECT DateFormat AS f FROM ${sql}`))[0];
    return row?.f ? String(row.f) : undefined;
  } catch {
    return undefined;
  }
}

const reading = (f: string) => (f.startsWith('%d') ? 'day first (07/01/2010 = 7 January 2010)' : 'month first (07/01/2010 = July 1, 2010)');

async function dateFindings(engine: Engine, reader: Reader, path: string, read: ReadOptions, columns: readonly ColumnInfo[], stats: readonly TextStats[]): Promise<CsvFinding[]> {
  const textDates = stats.filter((s) => s.nonNull > 0 && s.dates >= s.nonNull * 0.8).map((s) => s.column);
  // Without a DATE column or dates left as text there is nothing to find: spare the sniff (cost only).
  if (textDates.length === 0 && !columns.some((c) => c.type === 'DATE')) return [];
  const current = await currentDateFormat(engine, path, read);
  const sep = current?.match(/%[dm](.)/)?.[1] ?? '/';
  const dateCols = current && /%[dm].%[dm].%Y/.test(current) ? columns.filter((c) => c.type === 'DATE').map((c) => c.name) : [];
  const candidates = [...dateCols, ...textDates];
  if (candidates.length === 0) return [];
  const out: CsvFinding[] = [];
  for (const f of DATE_FORMATS(sep)) {
    if (f === current) continue;
    const described = await reader.describe({ dateformat: f });
    if (!described) continue;
    const asDate = candidates.filter((c) => described.find((d) => d.name === c)?.type === 'DATE');
    const fix = { label: `Read dates ${f.startsWith('%d') ? 'day' : 'month'} first (${f})`, options: { dateformat: f } };
    if (textDates.some((c) => asDate.includes(c))) {
      const parsed = textDates.filter((c) => asDate.includes(c));
      out.push({
        kind: 'unparsed_dates',
        columns: parsed,
        message: `${list(parsed)} ${parsed.length === 1 ? 'holds dates that were' : 'hold dates that were'} left as text${dateCols.length > 0 && current ? ` because ${list(dateCols)} ${dateCols.length === 1 ? 'was' : 'were'} read ${reading(current)}` : ''}; read ${reading(f)}, ${list(asDate)} ${asDate.length === 1 ? 'is' : 'are'} dates.`,
        fix,
      });
    } else if (dateCols.length > 0 && current && !read.overrides?.dateformat && dateCols.every((c) => asDate.includes(c))) {
      // Once the user picked a reading (a fix), the other is theirs to choose again, not a finding.
      out.push({
        kind: 'ambiguous_dates',
        columns: dateCols,
        message: `${list(dateCols)} ${dateCols.length === 1 ? 'was' : 'were'} read ${reading(current)}, but every date also reads ${reading(f)}: check which the file means.`,
        fix,
      });
    }
  }
  return out;
}

/**
 * Formats DuckDB's sniffer does not try (AM/PM, two-digit years, month names, dotted dates, a
 * literal UTC), each read with DuckDB's own strptime; month-first before day-first, as DuckDB's
 * sniffer orders them. Times first: a format with a time never matches a bare date.
 */
const TIMESTAMP_FORMATS = [
  '%m/%d/%Y %I:%M:%S %p', '%m/%d/%Y %I:%M %p', '%m/%d/%Y %H:%M:%S', '%m/%d/%Y %H:%M', '%d/%m/%Y %H:%M:%S', '%d/%m/%Y %H:%M',
  '%m/%d/%y %I:%M %p', '%m/%d/%y %H:%M:%S', '%m/%d/%y %H:%M', '%d/%m/%y %H:%M', '%d.%m.%Y %H:%M:%S', '%d.%m.%Y %H:%M',
  '%B %d, %Y %I:%M %p', '%b %d, %Y %I:%M %p', '%Y-%m-%d %H:%M:%S UTC', '%Y-%m-%d %H:%M UTC', '%Y/%m/%d %H:%M:%S',
];
// DuckDB's own forms come last: they reach this check only when a few values in another form kept
// the column text (e.g. three ISO timestamps among 23,409 m/d/Y dates).
const DATE_ONLY_FORMATS = ['%m/%d/%y', '%d/%m/%y', '%d.%m.%Y', '%d.%m.%y', '%B %d, %Y', '%b %d, %Y', '%d %B %Y', '%d %b %Y', '%d-%b-%Y', '%d-%b-%y', '%Y/%m/%d', '%m-%d-%Y', '%d-%m-%Y', '%m/%d/%Y', '%d/%m/%Y'];
const dayFirstTwin = (f: string) => (f.startsWith('%m/%d') ? f.replace('%m/%d', '%d/%m') : f.startsWith('%d/%m') ? f.replace('%d/%m', '%m/%d') : undefined);

/** Text columns of dates or timestamps that DuckDB reads with a format option. */
async function textTimeFindings(engine: Engine, reader: Reader, table: string, before: readonly ColumnInfo[], stats: readonly TextStats[], done: ReadonlySet<string>): Promise<CsvFinding[]> {
  const out: CsvFinding[] = [];
  for (const s of stats) {
    if (done.has(s.column) || s.nonNull === s.placeholders || s.dateLike < (s.nonNull - s.placeholders) * 0.8) continue;
    const c = quoteIdent(s.column);
    const src = `(SELECT trim(${c}) AS c FROM ${quoteIdent(table)} WHERE ${c} IS NOT NULL AND NOT (lower(trim(${c})) IN (${PLACEHOLDER_SQL}) OR trim(${c}) = '') LIMIT ${CHECK_ROWS})`;
    const formats = [...TIMESTAMP_FORMATS, ...DATE_ONLY_FORMATS];
    const row = rowsOf(
      await engine.query(
        `SELECT count(*)::DOUBLE AS n, count(*) FILTER (WHERE ${DATE_LIKE})::DOUBLE AS like_, ${formats.map((f, i) => `count(try_strptime(c, ${quoteLiteral(f)}))::DOUBLE AS f${i}, max(year(try_strptime(c, ${quoteLiteral(f)}))) AS y${i}`).join(', ')} FROM ${src}`,
      ),
    )[0];
    const n = Number(row?.n ?? 0);
    if (n === 0 || Number(row?.like_ ?? 0) < n * 0.8) continue;
    // One stray value (or 1%) still names the column's form; the re-read then is DuckDB's to judge.
    const strays = Math.max(1, Math.floor(n * 0.01));
    let i = formats.findIndex((_, k) => Number(row?.[`f${k}`]) === n);
    if (i < 0) i = formats.findIndex((_, k) => Number(row?.[`f${k}`]) >= n - strays);
    if (i < 0) continue;
    const unread = n - Number(row?.[`f${i}`]);
    const f = formats[i]!;
    const isTime = i < TIMESTAMP_FORMATS.length;
    const twin = dayFirstTwin(f);
    const twinReads = twin !== undefined && Number(row?.[`f${formats.indexOf(twin)}`]) === n;
    const what = isTime ? 'timestamps' : 'dates';
    const ph = s.placeholderValues;
    const but = unread > 0 ? ` (all but ${unread === 1 ? 'one value' : `${unread} values`})` : '';
    const own = f === '%m/%d/%Y' || f === '%d/%m/%Y';
    if (own && unread === 0) continue;
    let message = own
      ? `"${s.column}" holds ${what} written as ${f}, but ${unread === 1 ? 'one value' : `${unread} values`} in another form kept it text.`
      : `"${s.column}" holds ${what} written as ${f}${ph.length > 0 ? ` (and placeholders ${quoted(ph)})` : ''}${but}, a form DuckDB's sniffer does not try, so it was read as text.`;
    if (twinReads) message += ` Every value also reads ${twin!.startsWith('%d') ? 'day' : 'month'} first (${twin}): check which the file means.`;
    const latest = Number(row?.[`y${i}`] ?? 0);
    if (f.includes('%y') && latest > new Date().getFullYear()) {
      // %y reads 00–68 as 2000–2068: years a century earlier would come out in the future.
      out.push({ kind: 'unparsed_dates', columns: [s.column], message: `${message} The years have two digits and DuckDB reads 00–68 as 2000–2068, which puts some in the future (up to ${latest}); no re-read is offered. In SQL, strptime("${s.column}", '${f}') reads them, and the century can be corrected from there.` });
      continue;
    }
    const options: CsvReadOverrides = { [isTime ? 'timestampformat' : 'dateformat']: f, ...(ph.length > 0 ? { nullstr: ['', ...ph] } : {}) };
    const fix = { label: `Read "${s.column}" as ${what} (${f})`, options };
    const described = await reader.describe(options);
    const isTimeType = (t: string | undefined) => t !== undefined && /^(TIMESTAMP|DATE)/.test(t);
    if (fixWorks(described, before, s.column, isTimeType)) {
      out.push({ kind: 'unparsed_dates', columns: [s.column], message, fix });
      continue;
    }
    const broken = isTimeType(described?.find((c) => c.name === s.column)?.type) ? brokenBy(described, before) : [];
    const why = broken.length > 0 ? costsOthers(broken) : unread > 0 && !own ? ' Read with that format the other values keep the column text, so no re-read is offered.' : '';
    out.push({ kind: 'unparsed_dates', columns: [s.column], message: `${message}${why} In SQL, try_strptime("${s.column}", '${f}') reads them.` });
  }
  return out;
}

/**
 * A header DuckDB's sniffer took for data: every column is named column0, column1…, and read with
 * header=true the first line names them while a column gains a type (the names were what kept it
 * text), or the first line is the counter 0, 1, 2… that pandas and R write for unnamed columns.
 */
async function headerAsData(engine: Engine, reader: Reader, table: string, columns: readonly ColumnInfo[], read: ReadOptions): Promise<CsvFinding | undefined> {
  if (columns.length < 2 || read.overrides?.header !== undefined || !columns.every((c) => GENERIC_NAME.test(c.name))) return undefined;
  const described = await reader.describe({ header: true });
  if (!described || described.length !== columns.length || described.filter((c) => !GENERIC_NAME.test(c.name)).length < columns.length / 2) return undefined;
  const typed = described.some((d, i) => columns[i]!.type === 'VARCHAR' && d.type !== 'VARCHAR');
  const first = rowsOf(await engine.query(`SELECT * FROM ${quoteIdent(table)} LIMIT 1`))[0];
  const cells = columns.map((c) => (first?.[c.name] === null || first?.[c.name] === undefined ? '' : String(first[c.name])));
  let run = 0;
  let best = 0;
  for (let i = 0; i < cells.length; i++) {
    const prev = i > 0 ? cells[i - 1]! : '';
    run = /^\d+$/.test(cells[i]!) && /^\d+$/.test(prev) && Number(cells[i]) === Number(prev) + 1 ? run + 1 : /^\d+$/.test(cells[i]!) ? 1 : 0;
    best = Math.max(best, run);
  }
  // Or years as column names (wide statistics tables: Area code, Area name, 2019, 2020…).
  const years = cells.filter((v) => /^(18|19|20)\d\d$/.test(v)).map(Number);
  const yearHeader = years.length >= 2 && years.every((y, i) => i === 0 || y > years[i - 1]!) && cells.every((v) => v !== '' && (/^(18|19|20)\d\d$/.test(v) || !TRY_NUMBER.test(v)));
  // A name above a column of numbers (e.g. "length" over day counts and a few "N/A").
  let numbersUnderName = false;
  for (const [i, c] of columns.entries()) {
    const cell = cells[i]!;
    if (typed || best >= 3 || yearHeader || numbersUnderName) break;
    if (c.type !== 'VARCHAR' || isPlaceholder(cell) || TRY_NUMBER.test(cell)) continue;
    const q = quoteIdent(c.name);
    const r = rowsOf(
      await engine.query(
        `SELECT count(*)::DOUBLE AS n, count(*) FILTER (WHERE TRY_CAST(c AS DOUBLE) IS NOT NULL)::DOUBLE AS num FROM (SELECT ${q} AS c FROM ${quoteIdent(table)} LIMIT ${CHECK_ROWS} OFFSET 1) WHERE c IS NOT NULL AND NOT (lower(trim(c)) IN (${PLACEHOLDER_SQL}) OR trim(c) = '')`,
      ),
    )[0];
    numbersUnderName = Number(r?.n ?? 0) > 0 && Number(r?.num ?? 0) >= Number(r?.n ?? 0) * 0.9;
  }
  if (!typed && best < 3 && !yearHeader && !numbersUnderName) return undefined;
  const names = described.map((c) => c.name);
  return {
    kind: 'header_as_data',
    columns: [],
    message: `The file's first line is its header (${list(names.slice(0, 4))}${names.length > 4 ? '…' : ''}) but was read as a row of data, so the columns are named column0, column1…${typed ? ' and some numbers were read as text' : ''}.`,
    fix: { label: 'Read the first line as the header', options: { header: true } },
  };
}

/** Joins findings of one kind whose fixes are the same re-read (nullstr, for one, applies to every column). */
function merged(findings: readonly CsvFinding[], stats: readonly TextStats[]): CsvFinding[] {
  const out: CsvFinding[] = [];
  const groups = new Map<string, CsvFinding[]>();
  for (const f of findings) {
    if (!f.fix || !['placeholders', 'mixed_types', 'thousands', 'decimal_comma'].includes(f.kind)) {
      out.push(f);
      continue;
    }
    const key = `${f.kind} ${JSON.stringify(f.fix.options)}`;
    const g = groups.get(key);
    if (g) g.push(f);
    else {
      groups.set(key, [f]);
      out.push(f);
    }
  }
  return out.map((f) => {
    const g = f.fix ? groups.get(`${f.kind} ${JSON.stringify(f.fix.options)}`) : undefined;
    let one = f;
    if (g && g.length > 1) {
      const cols = g.flatMap((x) => x.columns);
      const times = g.filter((x) => x.message.includes('holds timestamps')).length;
      const held = times === 0 ? 'are numeric' : times === g.length ? 'hold timestamps' : 'hold numbers or timestamps';
      const nulls = (f.fix!.options.nullstr ?? []).filter((v) => v !== '');
      const what: Record<string, string> = {
        placeholders: `${held} but for placeholder text (${quoted(nulls)})`,
        mixed_types: `are mostly numbers mixed with a few text values (${quoted(nulls)})`,
        thousands: `hold numbers written with thousands separators (e.g. 1,234)${nulls.length > 0 ? ` and placeholders (${quoted(nulls)})` : ''}`,
        decimal_comma: `hold numbers with a decimal comma (e.g. 10,5)${nulls.length > 0 ? ` and placeholders (${quoted(nulls)})` : ''}`,
      };
      one = { ...f, columns: cols, message: `${list(cols)} ${what[f.kind]}, so they were read as text.` };
    }
    // nullstr applies to every column: say where else those strings are, and would become missing.
    const nulls = (one.fix?.options.nullstr ?? []).filter((v) => v !== '');
    const elsewhere = nulls.length === 0 ? [] : stats.filter((s) => !one.columns.includes(s.column) && s.placeholderValues.some((v) => nulls.includes(v))).map((s) => s.column);
    return elsewhere.length > 0 ? { ...one, message: `${one.message} The fix also reads those strings as missing in ${list(elsewhere.slice(0, 4))}${elsewhere.length > 4 ? '…' : ''}.` } : one;
  });
}

export async function csvFindings(engine: Engine, table: string, columns: readonly ColumnInfo[], path: string, read: ReadOptions): Promise<CsvFinding[]> {
  const reader = readerFor(engine, path, read);
  // The header read as data, or a title line above it: every column is text named column0…, so the
  // other checks would only echo it.
  const head = (await headerAsData(engine, reader, table, columns, read)) ?? (await titleLine(engine, table, reader, columns, read));
  const findings: CsvFinding[] = [];
  if (head) findings.push(head);
  else {
    const names = await columnNames(engine, path, read, columns);
    if (names) findings.push(names);
    const text = columns.filter((c) => c.type === 'VARCHAR').slice(0, MAX_TEXT_COLUMNS);
    const stats: TextStats[] = [];
    for (const c of text) stats.push(await textStats(engine, table, c.name));
    const dates = await dateFindings(engine, reader, path, read, columns, stats);
    findings.push(...dates);
    const numbers: CsvFinding[] = [];
    for (const s of stats) {
      if (s.nonNull === 0 || s.dates >= s.nonNull * 0.8) continue;
      const f = await numberFinding(reader, s, columns);
      if (f) numbers.push(f);
    }
    const done = new Set([...dates, ...numbers].flatMap((f) => f.columns));
    findings.push(...(await textTimeFindings(engine, reader, table, columns, stats, done)));
    findings.push(...merged(numbers, stats));
  }
  // A fix keeps the fix already in force: the file is re-read with both.
  return read.overrides ? findings.map((f) => (f.fix ? { ...f, fix: { ...f.fix, options: mergeOverrides(read.overrides, f.fix.options) } } : f)) : findings;
}
