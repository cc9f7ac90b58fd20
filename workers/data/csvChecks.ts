import type { ColumnInfo } from '../../protocol/data';
import type { CsvReadOverrides, LoadFinding } from '../../protocol/loadReport';
import { rowsOf, type Engine } from './duckdbEngine';
import { readCsvSql, type ReadOptions } from './csvIngest';
import { mergeOverrides } from './csvOptions';
import { quoteIdent } from '../../shared/sql';

/**
 * The load report's checks for a CSV: what DuckDB's sniffer gets wrong without saying so. Each
 * check looks at the loaded table for a sign (text columns that are numbers but for a few strings,
 * generic column names, day/month dates), and every fix it offers is first tried on the file by
 * DuckDB itself (DESCRIBE over read_csv with the fix's options): a fix is offered only when DuckDB,
 * reading with it, types the columns as the finding says. The file must be registered at `path`.
 */

/** Strings spreadsheets and exports write for "no value". */
const PLACEHOLDERS = new Set(['null', 'n/a', 'na', '#n/a', 'nan', 'none', '-', '--', 'missing', '.', '?', 'nil', '(null)']);
const GENERIC_NAME = /^column\d+$/;
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

async function titleLine(reader: Reader, columns: readonly ColumnInfo[], read: ReadOptions): Promise<LoadFinding | undefined> {
  if (columns.length < 2 || !columns.slice(1).every((c) => GENERIC_NAME.test(c.name)) || !columns.every((c) => c.type === 'VARCHAR')) return undefined;
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

async function columnNames(engine: Engine, path: string, read: ReadOptions, columns: readonly ColumnInfo[]): Promise<LoadFinding | undefined> {
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

interface TextStats {
  column: string;
  nonNull: number;
  numeric: number;
  thousands: number;
  decimalComma: number;
  commaOnly: number;
  spaced: number;
  dates: number;
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
  count(*) FILTER (WHERE regexp_full_match(trim(c), '\\d{1,2}[/.-]\\d{1,2}[/.-]\\d{4}'))::DOUBLE AS dates
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
  return { column, nonNull: n('nn'), numeric: n('num'), thousands: n('thou'), decimalComma: n('dcomma'), commaOnly: n('conly'), spaced: n('ws'), dates: n('dates'), odd };
}

/** A fix for one text column, kept only when DuckDB reading with it makes the column numeric. */
async function numberFinding(reader: Reader, s: TextStats): Promise<LoadFinding | undefined> {
  const col = s.column;
  const offer = async (finding: Omit<LoadFinding, 'fix'>, fix: LoadFinding['fix']): Promise<LoadFinding> => {
    if (!fix) return finding;
    const described = await reader.describe(fix.options);
    return isNumericType(described?.find((c) => c.name === col)?.type) ? { ...finding, fix } : finding;
  };
  const pct = (k: number) => `${Math.round((k / s.nonNull) * 100)}%`;
  if (s.thousands > 0 && s.commaOnly === 0 && s.thousands + s.numeric === s.nonNull) {
    return offer(
      { kind: 'thousands', columns: [col], message: `"${col}" holds numbers written with thousands separators (e.g. 1,234), so it was read as text.` },
      { label: `Read "${col}" with "," as thousands separator`, options: { thousands: ',' } },
    );
  }
  if (s.decimalComma > 0 && s.decimalComma + s.numeric === s.nonNull) {
    return offer(
      { kind: 'decimal_comma', columns: [col], message: `"${col}" holds numbers with a decimal comma (e.g. 10,5), so it was read as text.` },
      { label: 'Read with "," as decimal separator', options: { decimal_separator: ',' } },
    );
  }
  if (s.spaced > 0 && s.spaced + s.numeric === s.nonNull) {
    // DuckDB trims spaces and tabs around a number itself; inside one it has no option to ignore them.
    return { kind: 'whitespace', columns: [col], message: `"${col}" holds numbers with spaces or tabs inside them (${pct(s.spaced)} of values), so it was read as text; in SQL, CAST(regexp_replace("${col}", '\\s', '', 'g') AS DOUBLE) reads them.` };
  }
  if (s.numeric === 0 || s.odd.length === 0 || s.odd.length > 5) return undefined;
  const values = s.odd.map((o) => o.value);
  const shown = s.odd.map((o) => `"${o.value}" ×${o.count.toLocaleString('en-US')}`).join(', ');
  if (values.every((v) => PLACEHOLDERS.has(v.trim().toLowerCase()))) {
    return offer(
      { kind: 'placeholders', columns: [col], message: `"${col}" is numeric but for placeholder text (${shown}), so it was read as text.` },
      { label: `Read ${values.map((v) => `"${v}"`).join(', ')} as missing`, options: { nullstr: ['', ...values] } },
    );
  }
  // A few stray strings in a column of numbers; a text column with some numbers in it is not that.
  if (s.numeric < s.nonNull * 0.5) return undefined;
  return offer(
    { kind: 'mixed_types', columns: [col], message: `"${col}" is mostly numbers (${pct(s.numeric)}) mixed with text (${shown}), so it was read as text.` },
    { label: `Read ${values.map((v) => `"${v}"`).join(', ')} as missing`, options: { nullstr: ['', ...values] } },
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

async function dateFindings(engine: Engine, reader: Reader, path: string, read: ReadOptions, columns: readonly ColumnInfo[], stats: readonly TextStats[]): Promise<LoadFinding[]> {
  const textDates = stats.filter((s) => s.nonNull > 0 && s.dates >= s.nonNull * 0.8).map((s) => s.column);
  // Without a DATE column or dates left as text there is nothing to find: spare the sniff (cost only).
  if (textDates.length === 0 && !columns.some((c) => c.type === 'DATE')) return [];
  const current = await currentDateFormat(engine, path, read);
  const sep = current?.match(/%[dm](.)/)?.[1] ?? '/';
  const dateCols = current && /%[dm].%[dm].%Y/.test(current) ? columns.filter((c) => c.type === 'DATE').map((c) => c.name) : [];
  const candidates = [...dateCols, ...textDates];
  if (candidates.length === 0) return [];
  const out: LoadFinding[] = [];
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

export async function csvFindings(engine: Engine, table: string, columns: readonly ColumnInfo[], path: string, read: ReadOptions): Promise<LoadFinding[]> {
  const reader = readerFor(engine, path, read);
  const title = await titleLine(reader, columns, read);
  // Under a title line every column is text and named column0…: the other checks would only echo it.
  if (title) return [title];
  const findings: LoadFinding[] = [];
  const names = await columnNames(engine, path, read, columns);
  if (names) findings.push(names);
  const text = columns.filter((c) => c.type === 'VARCHAR').slice(0, MAX_TEXT_COLUMNS);
  const stats: TextStats[] = [];
  for (const c of text) stats.push(await textStats(engine, table, c.name));
  findings.push(...(await dateFindings(engine, reader, path, read, columns, stats)));
  for (const s of stats) {
    if (s.nonNull === 0 || s.dates >= s.nonNull * 0.8) continue;
    const f = await numberFinding(reader, s);
    if (f) findings.push(f);
  }
  return findings;
}
