/** Day/month dates read one way when both fit, and dates or timestamps in forms the sniffer does not try. */
import type { ColumnInfo } from '../../../../protocol/data';
import type { CsvReadOverrides } from '../../../../protocol/loadReport';
import { rowsOf, type Engine } from '../../engine/duckdbEngine';
import { readCsvSql, type ReadOptions } from '../../engine/csvOptions';
import { quoteLiteral } from '../../../../shared/sql';
import { CHECK_ROWS, inBatches, valuePairs } from '../valueBatches';
import { PLACEHOLDER_SQL, brokenBy, costsOthers, fixWorks, list, quoted, type CsvFinding, type Reader } from './kit';
import { DATE_LIKE, type TextStats } from './textStats';
import { MIN_PLAUSIBLE_YEAR } from './verify';

const DATE_FORMATS = (sep: string) => [`%m${sep}%d${sep}%Y`, `%d${sep}%m${sep}%Y`];

/** The delimiter DuckDB's sniffer found for the file as read (undefined when it cannot say). */
export async function sniffedDelimiter(engine: Engine, path: string, read: ReadOptions): Promise<string | undefined> {
  if (read.overrides?.delim) return read.overrides.delim;
  try {
    const sql = readCsvSql(path, read).replace(/^read_csv\(/, 'sniff_csv(');
    const row = rowsOf(await engine.query(`SELECT Delimiter AS d FROM ${sql}`))[0];
    return row?.d ? String(row.d) : undefined;
  } catch {
    return undefined;
  }
}

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

export async function dateFindings(engine: Engine, reader: Reader, path: string, read: ReadOptions, columns: readonly ColumnInfo[], stats: readonly TextStats[]): Promise<CsvFinding[]> {
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

/** Columns per statement of the format counts (each format is tried on every value of each). */
const FORMAT_BATCH = 25;

/**
 * Per column, how many of its values (placeholders left out) each format reads and their years:
 * FORMAT_BATCH columns per statement, each distinct value parsed once per format in a projection
 * (a statement per column, every value parsed three times per format, took 1.4 s a column on a
 * 600-column file).
 */
async function formatCounts(engine: Engine, table: string, columns: readonly string[], formats: readonly string[], rowLimit: number): Promise<Map<string, Record<string, unknown>>> {
  const counted = await inBatches(columns, FORMAT_BATCH, async (batch) => {
    const pairs = `(SELECT i, trim(c) AS c FROM ${valuePairs(table, batch, rowLimit)} WHERE NOT (lower(trim(c)) IN (${PLACEHOLDER_SQL}) OR trim(c) = ''))`;
    // Each distinct value parsed once, weighted by how often it occurs.
    const parsed = `(SELECT i, c, k, ${formats.map((f, j) => `try_strptime(c, ${quoteLiteral(f)}) AS p${j}`).join(', ')} FROM (SELECT i, c, count(*) AS k FROM ${pairs} GROUP BY i, c))`;
    const rows = rowsOf(
      await engine.query(
        `SELECT i, sum(k)::DOUBLE AS n, coalesce(sum(k) FILTER (WHERE ${DATE_LIKE}), 0)::DOUBLE AS like_, ${formats.map((_, j) => `coalesce(sum(k) FILTER (WHERE p${j} IS NOT NULL), 0)::DOUBLE AS f${j}, max(year(p${j})) AS y${j}, min(year(p${j})) AS m${j}`).join(', ')} FROM ${parsed} GROUP BY i`,
      ),
    );
    return rows.map((r) => [batch[Number(r.i)]!, r] as const);
  });
  return new Map(counted);
}

/** Text columns of dates or timestamps that DuckDB reads with a format option. */
export async function textTimeFindings(engine: Engine, reader: Reader, table: string, before: readonly ColumnInfo[], stats: readonly TextStats[], done: ReadonlySet<string>, rowLimit = CHECK_ROWS): Promise<CsvFinding[]> {
  const out: CsvFinding[] = [];
  const formats = [...TIMESTAMP_FORMATS, ...DATE_ONLY_FORMATS];
  const candidates = stats.filter((s) => !(done.has(s.column) || s.nonNull === s.placeholders || s.dateLike < (s.nonNull - s.placeholders) * 0.8));
  const counts = await formatCounts(engine, table, candidates.map((s) => s.column), formats, rowLimit);
  for (const s of candidates) {
    const row = counts.get(s.column);
    const n = Number(row?.n ?? 0);
    if (n === 0 || Number(row?.like_ ?? 0) < n * 0.8) continue;
    // One stray value (or 1%) still names the column's form; the re-read then is DuckDB's to judge.
    const strays = Math.max(1, Math.floor(n * 0.01));
    // DuckDB's %Y takes one to four digits, so "19-Jan-18" reads as year 18 with %d-%b-%Y: a
    // four-digit-year form counts only when its years are ones a person writes in full; the
    // two-digit form (%y, DuckDB's rule: 00–68 → 2000–2068, 69–99 → 1969–1999) is tried instead.
    const fits = (k: number) => !formats[k]!.includes('%Y') || Number(row?.[`m${k}`] ?? MIN_PLAUSIBLE_YEAR) >= MIN_PLAUSIBLE_YEAR;
    let i = formats.findIndex((_, k) => fits(k) && Number(row?.[`f${k}`]) === n);
    if (i < 0) i = formats.findIndex((_, k) => fits(k) && Number(row?.[`f${k}`]) >= n - strays);
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
    if (f.includes('%y')) message += ` The years have two digits and are read by DuckDB's rule (%y: 00–68 → 2000–2068, 69–99 → 1969–1999), latest ${latest}.`;
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
