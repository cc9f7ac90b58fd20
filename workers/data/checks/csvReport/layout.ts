/**
 * The file's layout, checked before its values: lines of metadata or titles above the header
 * (World Bank API_*.csv: "Data Source", "Last Updated Date" and blank lines; ONS time series: eight
 * "Title", "CDID", "Unit"… lines above headerless data), and a delimiter the sniffer missed (a
 * space-delimited file read as one text column). Rows are compared by shape (how many fields are
 * filled) and by type (the columns that hold numbers further down); the layout this finds is then
 * read by DuckDB with skip/header/delim, and offered only when DuckDB's read is better.
 */
import type { ColumnInfo } from '../../../../protocol/data';
import type { CsvReadOverrides } from '../../../../protocol/loadReport';
import type { ReadOptions } from '../../engine/csvOptions';
import { GENERIC_NAME, isPlaceholder, list, type CsvFinding, type Reader } from './kit';

/** Lines above the header this check looks for (blank lines included). */
const MAX_SKIP = 30;

type Row = readonly (string | null)[];

const filled = (v: string | null | undefined): v is string => v !== null && v !== undefined && v.trim() !== '';
const isNumberText = (v: string) => /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(v);
const width = (r: Row) => r.filter(filled).length;
/**
 * A value a column of data holds and a title or a header does not: a number (with a decimal comma
 * or grouped thousands too) or a date. Metadata above a European file (decimal commas, d/m/Y
 * dates) is found by these as by plain numbers.
 */
const isValueText = (v: string) => isNumberText(v) || /^\s*[-+]?(\d+(,\d+)?|\d{1,3}([.,  ]\d{3})+([.,]\d+)?)\s*$/.test(v) || /^\s*\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}([ T]\d{1,2}:\d{2}(:\d{2})?)?\s*$/.test(v);

/** The most frequent value (the larger on a tie). */
function mode(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = 0;
  let n = -1;
  for (const [v, c] of counts) if (c > n || (c === n && v > best)) [best, n] = [v, c];
  return best;
}

/** A header row: every cell filled, distinct, and none a number unless the numbers are years in order (1960, 1961…). */
export function isHeaderLike(r: Row, w: number): boolean {
  const cells = r.filter(filled).map((v) => v.trim());
  if (cells.length < Math.max(2, w * 0.8) || new Set(cells).size !== cells.length) return false;
  const numbers = cells.filter(isNumberText);
  const years = numbers.filter((v) => /^(1[5-9]|20)\d\d$/.test(v)).map(Number);
  return numbers.length === 0 || (numbers.length === years.length && years.every((y, i) => i === 0 || y > years[i - 1]!));
}

export interface Layout {
  /** The index (in `rows`) of the header row, or of the first data row when there is no header. */
  start: number;
  header: boolean;
}

/**
 * Where the table starts in rows read without a header (blank lines dropped, as DuckDB drops
 * them): the first row from which rows keep the data's shape and types, and the header right
 * above it when that row looks like one. Undefined when the table starts at the first row.
 */
export function layoutOf(rows: readonly Row[]): Layout | undefined {
  if (rows.length < 4) return undefined;
  // The data's shape and types, from the lower half (which a few lines of metadata do not reach).
  const lower = rows.slice(Math.floor(rows.length / 2));
  const w = mode(lower.map(width));
  if (w < 2) return undefined;
  const cols = Math.max(...rows.map((r) => r.length));
  const numeric: number[] = [];
  for (let c = 0; c < cols; c++) {
    const cells = lower.map((r) => r[c]).filter(filled).filter((v) => !isPlaceholder(v));
    if (cells.length >= lower.length / 2 && cells.filter(isValueText).length >= cells.length * 0.9) numeric.push(c);
  }
  // More than half the data's width: a "Last updated:";"12/03/2024" line above a 4-column table is not a row of it.
  const dataLike = (r: Row) =>
    width(r) > w / 2 && numeric.every((c) => !filled(r[c]) || isPlaceholder(r[c]!) || isValueText(r[c]!)) && (numeric.length === 0 || numeric.some((c) => filled(r[c]) && isValueText(r[c]!)));
  // The first row from which (nearly) every row is data: the next three all, and 90% of the rest.
  let d = -1;
  for (let i = 0; i < Math.min(rows.length - 3, MAX_SKIP); i++) {
    const rest = rows.slice(i);
    if (rest.slice(0, 4).every(dataLike) && rest.filter(dataLike).length >= rest.length * 0.9) {
      d = i;
      break;
    }
  }
  if (d < 0) return undefined;
  // A header of years as names (World Bank: "Country Name", …, "1960", "1961") reads as data by type.
  if (isHeaderLike(rows[d]!, w) && numeric.some((c) => filled(rows[d]![c]))) {
    const below = rows.slice(d + 1, d + 6);
    const repeats = below.some((r) => numeric.some((c) => filled(r[c]) && r[c] === rows[d]![c]));
    if (!repeats && d > 0 && rows.slice(0, d).every((r) => width(r) < w)) return { start: d, header: true };
  }
  if (d === 0) return undefined;
  const above = rows[d - 1]!;
  const header = isHeaderLike(above, w) && numeric.some((c) => filled(above[c]) && !isValueText(above[c]!));
  const start = header ? d - 1 : d;
  if (start === 0) return undefined;
  // What is above must not be rows of the table: above a header, titles and notes are narrower than
  // the data; above headerless data (ONS), they are text where the data has numbers.
  const meta = rows.slice(0, start);
  // (Dates are allowed there: ONS writes "Release date","15-11-2023".)
  if (header ? !meta.every((r) => width(r) < w) : !meta.every((r) => !numeric.some((c) => filled(r[c]) && isNumberText(r[c]!)))) return undefined;
  return { start, header };
}

const typedCount = (cols: readonly ColumnInfo[]) => cols.filter((c) => c.type !== 'VARCHAR').length;
const namedCount = (cols: readonly ColumnInfo[]) => cols.filter((c) => !GENERIC_NAME.test(c.name)).length;

/** Lines above the header (metadata, titles, blank lines), found from the rows' shapes and types. */
export async function linesAbove(reader: Reader, columns: readonly ColumnInfo[], read: ReadOptions): Promise<CsvFinding | undefined> {
  const rows = await reader.firstRows();
  if (!rows) return undefined;
  const layout = layoutOf(rows);
  if (!layout) return undefined;
  const first = rows[layout.start]!;
  const already = read.overrides?.skip ?? 0;
  // DuckDB's skip counts lines, blank ones too; the rows above do not: the skip whose first row is this one.
  // Blank lines right above it give several such skips: the last one, so the header is the line read first.
  const startsAt = async (k: number) => {
    const top = (await reader.firstRows({ skip: already + k }))?.[0];
    return top !== undefined && top.every((v, i) => v === (first[i] ?? null));
  };
  for (let k = layout.start; k <= layout.start + MAX_SKIP; k++) {
    if (!(await startsAt(k))) continue;
    while (k < layout.start + MAX_SKIP && (await startsAt(k + 1))) k++;
    const options: CsvReadOverrides = { skip: already + k, header: layout.header };
    const described = await reader.describe(options);
    if (!described) return undefined;
    // Offered only when DuckDB's read with it is better: more columns typed, or named where they were column0…
    const better = typedCount(described) > typedCount(columns) || (layout.header && namedCount(described) > namedCount(columns) && typedCount(described) >= typedCount(columns));
    if (!better) return undefined;
    const above = rows.slice(0, layout.start).map((r) => r.filter(filled).join(' ')).filter((t) => t !== '');
    const shown = above.slice(0, 2).map((t) => `"${t.length > 60 ? `${t.slice(0, 57)}…` : t}"`).join(', ');
    const lines = k === 1 ? 'first line is' : `first ${k} lines are`;
    const what = layout.header
      ? `the header is line ${k + 1} (${list(described.slice(0, 4).map((c) => c.name))}${described.length > 4 ? '…' : ''})`
      : `the data starts on line ${k + 1}, with no header line`;
    return {
      kind: 'title_line',
      columns: [],
      message: `The file's ${lines} metadata or titles${shown ? ` (${shown}${above.length > 2 ? '…' : ''})` : ''}, not its table: ${what}. Read as it stands, ${typedCount(columns)} of ${columns.length} columns are typed; skipping ${k === 1 ? 'it' : 'them'}, ${typedCount(described)} of ${described.length}.`,
      fix: { label: `Skip the first ${k === 1 ? 'line' : `${k} lines`}${layout.header ? '' : ' (no header)'}`, options },
    };
  }
  return undefined;
}

/** Delimiters tried when the sniffer read the file as one column. */
const DELIMITERS = [';', '\t', '|', ' '];

/** A delimiter the sniffer missed: the file read as one text column splits evenly on another delimiter. */
export async function missedDelimiter(reader: Reader, columns: readonly ColumnInfo[], read: ReadOptions): Promise<CsvFinding | undefined> {
  if (columns.length !== 1 || columns[0]!.type !== 'VARCHAR' || read.overrides?.delim !== undefined) return undefined;
  for (const d of DELIMITERS) {
    const rows = await reader.firstRows({ delim: d });
    if (!rows || rows.length < 2) continue;
    const widths = rows.map((r) => r.filter((v) => v !== null).length);
    const w = mode(widths);
    // Every row (or nearly) splits into the same number of fields.
    if (w < 2 || widths.filter((x) => x === w).length < rows.length * 0.9) continue;
    const headerless = !isHeaderLike(rows[0]!, w) || rows.slice(1, 6).some((r) => r.every((v, i) => v === rows[0]![i]));
    const options: CsvReadOverrides = { delim: d, header: !headerless };
    const described = await reader.describe(options);
    if (!described || described.length !== w) continue;
    const name = d === ' ' ? 'spaces' : d === '\t' ? 'tabs' : `"${d}"`;
    return {
      kind: 'delimiter',
      columns: [],
      message: `The file was read as one text column, but every line splits on ${name} into ${w} fields${headerless ? ' (no header line)' : ''}: read so, ${typedCount(described)} of ${w} columns are typed.`,
      fix: { label: `Split the columns on ${name}${headerless ? ' (no header)' : ''}`, options },
    };
  }
  return undefined;
}
