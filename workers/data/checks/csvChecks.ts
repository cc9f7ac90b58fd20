import type { ColumnInfo } from '../../../protocol/data';
import type { CsvReadOverrides } from '../../../protocol/loadReport';
import { quoteIdent } from '../../../shared/sql';
import type { Engine } from '../engine/duckdbEngine';
import { readCsvSql, type ReadOptions } from '../engine/csvOptions';
import { mergeOverrides } from '../engine/csvOptions';
import { columnTypes } from '../engine/catalog';
import { MAX_TEXT_COLUMNS, checkRowsFor, sampledNote } from './valueBatches';
import { readerFor, type CsvFinding, type Reader } from './csvReport/kit';
import { columnNames, headerAsData, titleLine } from './csvReport/header';
import { textStatsOf } from './csvReport/textStats';
import { merged, numberFinding } from './csvReport/numbers';
import { dateFindings, sniffedDelimiter, textTimeFindings } from './csvReport/dates';
import { damageOf, isLayoutFix, verified } from './csvReport/verify';
import { linesAbove, missedDelimiter } from './csvReport/layout';
import { eurostatFinding } from './csvReport/eurostat';

/**
 * The load report's checks for a CSV: what DuckDB's sniffer gets wrong without saying so. The
 * layout first (a missed delimiter, metadata lines above the header, a header read as data), then
 * each text column's values (placeholders, separators, dates). Every fix is tried on the file by
 * DuckDB itself and compared with the first read (csvReport/verify.ts) before it is offered. The
 * file must be registered at `path`. The checks themselves are in csvReport/.
 */
export interface CsvChecks {
  findings: CsvFinding[];
  /** Every offered fix combined into one read (offered when there are two or more and DuckDB's read with all of them keeps every value). */
  applyAll?: { label: string; options: CsvReadOverrides };
  /** What the checks left out on a wide or long file (the rows they looked at), for the report to say. */
  sampled?: string;
}

/** The value checks on a table (or a table of the first rows read with a layout fix): fixes without the options in force. */
async function valueFindings(engine: Engine, table: string, columns: readonly ColumnInfo[], path: string, read: ReadOptions, reader: Reader, rows: number): Promise<CsvFinding[]> {
  const findings: CsvFinding[] = [];
  // Under a Eurostat read the columns are a projection of the file's, not its header's.
  const names = read.overrides?.eurostat ? undefined : await columnNames(reader, read, columns);
  if (names) findings.push(names);
  const text = columns.filter((c) => c.type === 'VARCHAR').slice(0, MAX_TEXT_COLUMNS);
  const stats = await textStatsOf(engine, table, text.map((c) => c.name), rows);
  const dates = await dateFindings(engine, reader, path, read, columns, stats);
  findings.push(...dates);
  const numbers: CsvFinding[] = [];
  const delimiter = stats.some((s) => s.decimalComma > 0) ? await sniffedDelimiter(engine, path, read) : undefined;
  for (const s of stats) {
    if (s.nonNull === 0 || s.dates >= s.nonNull * 0.8) continue;
    const f = await numberFinding(reader, s, columns, delimiter);
    if (f) numbers.push(f);
  }
  const done = new Set([...dates, ...numbers].flatMap((f) => f.columns));
  findings.push(...(await textTimeFindings(engine, reader, table, columns, stats, done, rows)));
  findings.push(...merged(numbers, stats));
  // Every fix is tried on the file and compared with this read before it is offered.
  return verified(engine, table, reader, columns, findings, rows);
}

const SCALARS = ['skip', 'header', 'delim', 'dateformat', 'timestampformat', 'decimal_separator', 'thousands'] as const;

/** Fixes that can be read together: no two set one option (say, two date forms) differently. Returns the combination and how many it holds. */
export function combine(fixes: readonly CsvReadOverrides[]): { options: CsvReadOverrides; count: number } {
  let options: CsvReadOverrides = {};
  let count = 0;
  for (const o of fixes) {
    if (SCALARS.some((k) => o[k] !== undefined && options[k] !== undefined && o[k] !== options[k])) continue;
    if (o.types && options.types && Object.entries(o.types).some(([c, t]) => options.types![c] !== undefined && options.types![c] !== t)) continue;
    options = mergeOverrides(options, o);
    count++;
  }
  return { options, count };
}

export async function csvFindings(engine: Engine, table: string, columns: readonly ColumnInfo[], path: string, read: ReadOptions): Promise<CsvChecks> {
  const reader = readerFor(engine, path, read);
  // A wide file is checked on fewer rows: rows × columns scanned stay within CHECK_VALUES.
  const rows = checkRowsFor(columns.length);
  const head =
    (read.overrides?.eurostat ? undefined : await eurostatFinding(engine, table, columns, readCsvSql(path, read))) ??
    (await missedDelimiter(reader, columns, read)) ??
    (await linesAbove(reader, columns, read)) ??
    (await headerAsData(engine, reader, table, columns, read)) ??
    (await titleLine(engine, table, reader, columns, read));
  let findings: CsvFinding[];
  let base: ReadOptions = read;
  let baseTable = table;
  let baseColumns = columns;
  let scratch: string | undefined;
  try {
    if (!head) findings = await valueFindings(engine, table, columns, path, read, reader, rows);
    else if (!head.fix || head.fix.options.eurostat) findings = [head];
    else {
      // What the values are once the layout is right: the value checks run on the first rows read
      // with the layout fix, so one read can apply the layout and the values together.
      base = { ...read, overrides: mergeOverrides(read.overrides, head.fix.options) };
      scratch = `${table}__layout`;
      await engine.query(`CREATE OR REPLACE TABLE ${quoteIdent(scratch)} AS SELECT * FROM ${readCsvSql(path, base)} LIMIT ${rows}`);
      baseTable = scratch;
      baseColumns = await columnTypes(engine, scratch);
      const after = (await valueFindings(engine, scratch, baseColumns, path, base, readerFor(engine, path, base), rows).catch(() => [])).map((f) => ({
        ...f,
        message: `With the layout fix: ${f.message}`,
        ...(f.fix ? { fix: { ...f.fix, options: mergeOverrides(head.fix!.options, f.fix.options) } } : {}),
      }));
      findings = [head, ...after];
    }
    // A fix keeps the fix already in force: the file is re-read with both.
    const withRead = read.overrides ? findings.map((f) => (f.fix ? { ...f, fix: { ...f.fix, options: mergeOverrides(read.overrides, f.fix.options) } } : f)) : findings;
    const applyAll = await combined(engine, baseTable, baseColumns, path, base, read, withRead, rows);
    const sampled = await sampledNote(engine, table, rows, 'each fix was tried by DuckDB on the file before it was offered.').catch(() => undefined);
    return { findings: withRead, ...(applyAll ? { applyAll } : {}), ...(sampled ? { sampled } : {}) };
  } finally {
    if (scratch) await engine.query(`DROP TABLE IF EXISTS ${quoteIdent(scratch)}`).catch(() => undefined);
  }
}

/** Every offered fix in one read, kept only when DuckDB's read with all of them keeps every value the separate fixes keep. */
async function combined(engine: Engine, table: string, columns: readonly ColumnInfo[], path: string, base: ReadOptions, read: ReadOptions, findings: readonly CsvFinding[], rows: number): Promise<CsvChecks['applyAll']> {
  // A choice the user must make (day or month first, with the other on offer) is not made for them.
  const fixes = findings.flatMap((f) => (f.fix && f.kind !== 'ambiguous_dates' && !f.alternatives?.length ? [f.fix.options] : []));
  if (fixes.length < 2) return undefined;
  const { options, count } = combine(fixes);
  if (count < 2) return undefined;
  const reader = readerFor(engine, path, read);
  const described = await reader.describe(options);
  if (!described) return undefined;
  // Compared with the read the value fixes were found on (the layout fix's, when there is one), on
  // the rows the checks looked at (a 2,000-column file's 1,250, not 50,000).
  const layout = base.overrides ?? {};
  const values: CsvReadOverrides = { ...options };
  for (const k of ['skip', 'header', 'delim', 'eurostat'] as const) if (layout[k] !== undefined) delete values[k];
  if (!isLayoutFix(values) && (await damageOf(engine, table, readerFor(engine, path, base), values, columns, described, rows))) return undefined;
  return { label: count === fixes.length ? `Apply all ${count} fixes in one read` : `Apply ${count} of the ${fixes.length} fixes that read together`, options };
}
