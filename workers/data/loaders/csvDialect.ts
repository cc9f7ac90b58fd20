/**
 * A CSV's dialect (delimiter, quote, escape, line ending) found once, by DuckDB's own sniffer on
 * the file's first lines, so the table's read and every later read of the file (the load report's
 * checks, a view's queries) skip detecting it again (engine/csvOptions.ts says what it costs).
 */
import { rowsOf, type Engine } from '../engine/duckdbEngine';
import { readCsvArgs, type CsvDialect, type CsvSchema, type ReadOptions } from '../engine/csvOptions';
import { quoteLiteral } from '../../../shared/sql';

/**
 * The bytes sniffed: whole lines from the file's start. DuckDB's detection costs about the same
 * per byte whatever the width, and a wide file's detection over its whole first chunk is what
 * made wide loads slow; 128 KB is ~40 lines of a 2,000-column file, thousands of a narrow one.
 */
export const DIALECT_SAMPLE_BYTES = 128 * 1024;

/** sniff_csv's word for an option it found nothing for. */
const NONE = '(empty)';

/**
 * Where the sample ends: after its last line break (a header and at least one row), or the whole
 * file when it fits.
 */
export function sampleEnd(head: Uint8Array, fileSize: number): number | undefined {
  if (head.length >= fileSize) return head.length;
  // Old Mac files break lines with CR alone.
  const brk = head.includes(0x0a) ? 0x0a : 0x0d;
  const end = head.lastIndexOf(brk);
  if (end < 0 || head.indexOf(brk) === end) return undefined;
  return end + 1;
}

/** A dialect from sniff_csv's columns (as d, q, e, nl); undefined when it found no delimiter. */
function dialectOf(row: Record<string, unknown>): CsvDialect | undefined {
  if (typeof row.d !== 'string' || row.d === NONE || row.d === '') return undefined;
  const quote = typeof row.q === 'string' && row.q !== NONE && row.q !== '' ? row.q : '"';
  const escape = typeof row.e === 'string' && row.e !== NONE && row.e !== '' ? row.e : quote;
  const newLine = typeof row.nl === 'string' && row.nl !== NONE && row.nl !== '' ? row.nl : undefined;
  return { delim: row.d, quote, escape, ...(newLine === undefined ? {} : { newLine }) };
}

/**
 * The whole of what DuckDB's sniffer finds in the registered file at `path` read with `read` (its
 * usual sample, as a read's bind would take): dialect, header, lines skipped, columns and types,
 * date forms; one row per column from sniff_csv's own fields. A view is read with it and
 * `auto_detect = false`, so no statement over the view sniffs the file again. Undefined when
 * DuckDB cannot sniff it or the read has no columns.
 */
export async function sniffSchema(engine: Engine, path: string, read: ReadOptions): Promise<CsvSchema | undefined> {
  if (read.encoding === 'utf-16' || read.overrides !== undefined) return undefined;
  try {
    const rows = rowsOf(
      await engine.query(
        `SELECT d, q, e, nl, h, s, df, tf, cm, col.name AS name, col.type AS type FROM (SELECT Delimiter AS d, Quote AS q, Escape AS e, NewLineDelimiter AS nl, HasHeader AS h, SkipRows AS s, DateFormat AS df, TimestampFormat AS tf, Comment AS cm, generate_subscripts(Columns, 1) AS i, unnest(Columns) AS col FROM sniff_csv(${readCsvArgs(path, read).join(', ')})) ORDER BY i`,
      ),
    );
    const first = rows[0];
    const dialect = first ? dialectOf(first) : undefined;
    if (!first || !dialect || typeof first.h !== 'boolean') return undefined;
    const text = (v: unknown) => (typeof v === 'string' && v !== NONE && v !== '' ? v : undefined);
    const dateformat = text(first.df);
    const timestampformat = text(first.tf);
    const comment = text(first.cm);
    return {
      dialect,
      header: first.h,
      skip: Number(first.s ?? 0),
      columns: rows.map((r) => ({ name: String(r.name), type: String(r.type) })),
      ...(dateformat === undefined ? {} : { dateformat }),
      ...(timestampformat === undefined ? {} : { timestampformat }),
      ...(comment === undefined ? {} : { comment }),
    };
  } catch {
    return undefined;
  }
}

/**
 * The dialect DuckDB finds on the first lines, or undefined (then every read detects it, as
 * before). Where the sample shows no quoting DuckDB reports none; the read is then given RFC 4180's
 * `"` (escaped by doubling), which reads an unquoted file the same and a quoted field further down
 * as one field, where a read without quotes would fail on it. A read that fails with the dialect
 * is tried again without it (csvIngest.ts).
 */
export async function sniffDialect(engine: Engine, blob: Blob, path: string, read: ReadOptions): Promise<CsvDialect | undefined> {
  // UTF-16's line breaks are two bytes; such files are read with DuckDB's own detection.
  if (read.encoding === 'utf-16') return undefined;
  const head = new Uint8Array(await blob.slice(0, DIALECT_SAMPLE_BYTES).arrayBuffer());
  const end = sampleEnd(head, blob.size);
  if (end === undefined) return undefined;
  const args = [quoteLiteral(path), `encoding = ${quoteLiteral(read.encoding)}`, 'null_padding = true'];
  const delim = read.overrides?.delim ?? (read.tsv ? '\t' : undefined);
  if (delim !== undefined) args.push(`delim = ${quoteLiteral(delim)}`);
  if (read.overrides?.skip !== undefined) args.push(`skip = ${Math.max(0, Math.floor(read.overrides.skip))}`);
  try {
    await engine.registerBlob(path, blob.slice(0, end));
    const row = rowsOf(await engine.query(`SELECT Delimiter AS d, Quote AS q, Escape AS e, NewLineDelimiter AS nl FROM sniff_csv(${args.join(', ')})`))[0];
    return row ? dialectOf(row) : undefined;
  } catch {
    return undefined;
  } finally {
    await engine.dropFile(path).catch(() => undefined);
  }
}
