import type { ColumnInfo } from '../../protocol/data';
import type { Engine } from './duckdbEngine';
import type { ReadOptions } from './csvIngest';
import { mergeOverrides } from './csvOptions';
import { MAX_TEXT_COLUMNS, readerFor, type CsvFinding } from './csvReport/kit';
import { columnNames, headerAsData, titleLine } from './csvReport/header';
import { textStats, type TextStats } from './csvReport/textStats';
import { merged, numberFinding } from './csvReport/numbers';
import { dateFindings, sniffedDelimiter, textTimeFindings } from './csvReport/dates';
import { verified } from './csvReport/verify';
import { linesAbove, missedDelimiter } from './csvReport/layout';

/**
 * The load report's checks for a CSV: what DuckDB's sniffer gets wrong without saying so. Each
 * check looks at the loaded table for a sign (text columns that are numbers but for a few strings,
 * generic column names, day/month dates), and every fix it offers is first tried on the file by
 * DuckDB itself (DESCRIBE over read_csv with the fix's options): a fix is offered only when DuckDB,
 * reading with it, types the columns as the finding says. The file must be registered at `path`.
 * The checks themselves are in csvReport/: the header, per-column text statistics, numbers, dates.
 */

export async function csvFindings(engine: Engine, table: string, columns: readonly ColumnInfo[], path: string, read: ReadOptions): Promise<CsvFinding[]> {
  const reader = readerFor(engine, path, read);
  // The header read as data, or a title line above it: every column is text named column0…, so the
  // other checks would only echo it.
  // The layout first (a missed delimiter, metadata lines above the header), then the header.
  const head =
    (await missedDelimiter(engine, reader, columns, read)) ??
    (await linesAbove(engine, reader, columns, read)) ??
    (await headerAsData(engine, reader, table, columns, read)) ??
    (await titleLine(engine, table, reader, columns, read));
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
    const delimiter = stats.some((s) => s.decimalComma > 0) ? await sniffedDelimiter(engine, path, read) : undefined;
    for (const s of stats) {
      if (s.nonNull === 0 || s.dates >= s.nonNull * 0.8) continue;
      const f = await numberFinding(reader, s, columns, delimiter);
      if (f) numbers.push(f);
    }
    const done = new Set([...dates, ...numbers].flatMap((f) => f.columns));
    findings.push(...(await textTimeFindings(engine, reader, table, columns, stats, done)));
    findings.push(...merged(numbers, stats));
  }
  // Every fix is tried on the file and compared with this read before it is offered.
  const checked = await verified(engine, table, reader, columns, findings);
  // A fix keeps the fix already in force: the file is re-read with both.
  return read.overrides ? checked.map((f) => (f.fix ? { ...f, fix: { ...f.fix, options: mergeOverrides(read.overrides, f.fix.options) } } : f)) : checked;
}
