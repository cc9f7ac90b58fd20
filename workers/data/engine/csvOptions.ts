import type { CsvReadOverrides } from '../../../protocol/loadReport';
import type { ColumnInfo } from '../../../protocol/data';
import { quoteIdent, quoteLiteral } from '../../../shared/sql';

/**
 * How DuckDB's CSV reader is called: for a file, with the options the load chose and a load
 * report's fix. The loaders read with it and the checks re-read with it, so it lives below both.
 */

export interface ReadOptions {
  encoding: 'utf-8' | 'utf-16' | 'latin-1';
  tsv: boolean;
  fullSample: boolean;
  /** Read with one scanner: DuckDB's parallel one refuses null_padding with quoted newlines. */
  serial?: boolean;
  /** A load report's fix (below). */
  overrides?: CsvReadOverrides;
  /** The file's dialect as DuckDB's sniffer found it on the file's first lines (loaders/csvDialect.ts). */
  dialect?: CsvDialect;
  /**
   * Everything DuckDB's sniffer finds, found once (a view's, loaders/csvDialect.ts `sniffSchema`):
   * read with `auto_detect = false`, so binding the read detects nothing again. Without it every
   * statement over a view of a 500-column file sniffed 20,480 rows first (~0.5–1.6 s of CPU each).
   */
  schema?: CsvSchema;
}

/** What DuckDB's sniffer finds in a file besides its dialect: the header, the lines skipped, the columns and their types, the date forms. */
export interface CsvSchema {
  dialect: CsvDialect;
  header: boolean;
  skip: number;
  columns: readonly ColumnInfo[];
  dateformat?: string;
  timestampformat?: string;
  comment?: string;
}

/**
 * A CSV's dialect, given to every read of the file so DuckDB does not detect it again: on a wide
 * file the detection is most of a read (CREATE TABLE of 500 columns × 1,000 rows on DuckDB-WASM's
 * Node build: 1,690 ms of CPU, 346 ms with the dialect given; 2,000 columns: 3,224 ms, 831 ms),
 * and the load report's checks read the file again several times. The header, the lines to skip and the types are still DuckDB's to detect.
 */
export interface CsvDialect {
  delim: string;
  quote: string;
  escape: string;
  /** As sniff_csv writes it ('\\n', '\\r\\n', '\\r'), which read_csv's new_line takes. */
  newLine?: string;
}

export function readCsvSql(path: string, opts: ReadOptions): string {
  return `read_csv(${readCsvArgs(path, opts).join(', ')})`;
}

/** read_csv's arguments (sniff_csv takes the same). */
export function readCsvArgs(path: string, opts: ReadOptions): string[] {
  const args = [quoteLiteral(path), `encoding = ${quoteLiteral(opts.encoding)}`, 'null_padding = true'];
  // A fix that sets the delimiter reads another dialect: DuckDB detects its quoting afresh.
  const pinned = opts.overrides?.delim === undefined ? (opts.schema?.dialect ?? opts.dialect) : undefined;
  if (opts.tsv && opts.overrides?.delim === undefined) args.push("delim = '\\t'");
  else if (pinned) args.push(`delim = ${quoteLiteral(pinned.delim)}`);
  if (pinned) {
    args.push(`quote = ${quoteLiteral(pinned.quote)}`, `escape = ${quoteLiteral(pinned.escape)}`);
    if (pinned.newLine !== undefined) args.push(`new_line = ${quoteLiteral(pinned.newLine)}`);
  }
  const schema = pinned ? opts.schema : undefined;
  if (schema) {
    args.push('auto_detect = false', `header = ${schema.header}`, `skip = ${Math.max(0, Math.floor(schema.skip))}`);
    args.push(`columns = {${schema.columns.map((c) => `${quoteLiteral(c.name)}: ${quoteLiteral(c.type)}`).join(', ')}}`);
    if (schema.dateformat !== undefined) args.push(`dateformat = ${quoteLiteral(schema.dateformat)}`);
    if (schema.timestampformat !== undefined) args.push(`timestampformat = ${quoteLiteral(schema.timestampformat)}`);
    if (schema.comment !== undefined) args.push(`comment = ${quoteLiteral(schema.comment)}`);
  } else if (opts.fullSample) args.push('sample_size = -1');
  if (opts.serial) args.push('parallel = false');
  args.push(...overridesSql(opts.overrides));
  return args;
}

/**
 * A load report's fix as read_csv arguments, in a fixed order so the same options always give the
 * same SQL. Every value is quoted as a literal: column names and placeholder strings come from the
 * user's file.
 */
export function overridesSql(o: CsvReadOverrides | undefined): string[] {
  if (!o) return [];
  const args: string[] = [];
  if (o.skip !== undefined) args.push(`skip = ${Math.max(0, Math.floor(o.skip))}`);
  if (o.header !== undefined) args.push(`header = ${o.header ? 'true' : 'false'}`);
  if (o.delim !== undefined) args.push(`delim = ${quoteLiteral(o.delim)}`);
  if (o.nullstr && o.nullstr.length > 0) args.push(`nullstr = [${o.nullstr.map(quoteLiteral).join(', ')}]`);
  if (o.dateformat !== undefined) args.push(`dateformat = ${quoteLiteral(o.dateformat)}`);
  if (o.timestampformat !== undefined) args.push(`timestampformat = ${quoteLiteral(o.timestampformat)}`);
  if (o.decimal_separator !== undefined) args.push(`decimal_separator = ${quoteLiteral(o.decimal_separator)}`);
  if (o.thousands !== undefined) args.push(`thousands = ${quoteLiteral(o.thousands)}`);
  const types = Object.entries(o.types ?? {});
  if (types.length > 0) args.push(`types = {${types.map(([c, t]) => `${quoteLiteral(c)}: ${quoteLiteral(t)}`).join(', ')}}`);
  return args;
}

/** Two fixes together (a later one's lists add to an earlier one's). */
export function mergeOverrides(a: CsvReadOverrides | undefined, b: CsvReadOverrides): CsvReadOverrides {
  const out: CsvReadOverrides = { ...a, ...b };
  if (a?.nullstr || b.nullstr) out.nullstr = [...new Set([...(a?.nullstr ?? []), ...(b.nullstr ?? [])])];
  if (a?.types || b.types) out.types = { ...a?.types, ...b.types };
  return out;
}

export function isEmptyOverrides(o: CsvReadOverrides | undefined): boolean {
  return !o || (overridesSql(o).length === 0 && !o.eurostat);
}

/** A number at the start of a cell, the flags after it. */
const NUMBER = "'^\\s*([-+]?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?)'";

/** The SELECT list that reads a Eurostat table from `columns` (the read's own). */
export function eurostatSelect(columns: readonly ColumnInfo[]): string {
  const [dims, ...periods] = columns;
  const names = dims!.name.trim().replace(/\\(time|TIME_PERIOD)$/i, '').split(',').map((n) => n.trim());
  const d = quoteIdent(dims!.name);
  const parts = names.map((n, i) => `trim(string_split(${d}, ',')[${i + 1}]) AS ${quoteIdent(n)}`);
  for (const p of periods) {
    const c = `trim(CAST(${quoteIdent(p.name)} AS VARCHAR))`;
    const name = p.name.trim();
    parts.push(`TRY_CAST(NULLIF(regexp_extract(${c}, ${NUMBER}, 1), '') AS DOUBLE) AS ${quoteIdent(name)}`);
    parts.push(`NULLIF(trim(regexp_replace(${c}, '^\\s*(:|[-+]?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?)', '')), '') AS ${quoteIdent(`${name} flag`)}`);
  }
  return parts.join(', ');
}
