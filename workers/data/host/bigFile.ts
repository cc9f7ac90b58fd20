/**
 * Files too big for the tab's memory: a CSV is attached as a view over the registered file, so
 * DuckDB streams it for every query and its size is bounded by the disk, not the tab. Either the
 * footprint check predicted it (engine/footprint.ts) or DuckDB ran out of memory making the table.
 */
import { quoteIdent } from '../../../shared/sql';
import { columnTypes } from '../engine/catalog';
import { readCsvSql, type CsvDialect, type CsvSchema } from '../engine/csvOptions';
import { briefError, headPath } from '../loaders/csvIngest';
import { sniffDialect, sniffSchema } from '../loaders/csvDialect';
import { REGISTERED_DIR, type Engine } from '../engine/duckdbEngine';
import type { HostContext } from './hostContext';
import { tableInfo, type IngestOutcome } from './ingest';
import { readerLabel } from '../loaders/readerLabel';
import { detectEncoding, readHead } from '../loaders/sniff';
import { utcSelectList, zonedColumns } from '../engine/timeZones';

/** Why a file is a view: the footprint check said so before reading, or the table's read ran out of memory. */
export type ViewReason = { kind: 'too_big'; why: string } | { kind: 'out_of_memory'; why: string };

/** The load report's sentence for it (LoadReport.attached). */
export function attachedSentence(reason: ViewReason): string {
  return reason.kind === 'out_of_memory'
    ? 'Attached as a view: the table did not fit in memory (DuckDB ran out of memory making it), so every query reads the file again.'
    : "Attached as a view: the file is bigger than this tab's memory, so every query reads the file again.";
}

/** A big CSV as a view over its file. Counting its rows reads it once. */
export async function attachView(
  ctx: HostContext,
  engine: Engine,
  blob: Blob,
  fileName: string,
  format: 'csv' | 'tsv',
  loadId: string,
  table: string,
  reason: ViewReason,
): Promise<IngestOutcome> {
  const encoding = detectEncoding(await readHead(blob));
  if (encoding.encoding !== 'utf-8') {
    return { ok: false, fileName, message: `${reason.why} A file this big can be queried in place only when it is UTF-8 text.`, suggestion: 'Convert it to UTF-8 (or split it) and add it again.' };
  }
  const path = `${REGISTERED_DIR}view_${++ctx.seq}.${format}`;
  const read = { encoding: 'utf-8' as const, tsv: format === 'tsv', fullSample: false };
  // Every query of a view reads the file: its dialect, found once, spares each of them detecting it.
  const dialect = await sniffDialect(engine, blob, headPath(path), read);
  await engine.registerBlob(path, blob);
  ctx.progress(loadId, fileName, 'parsing', undefined, 'counting rows: the file stays on disk');
  ctx.progressSink = (pct) => ctx.progress(loadId, fileName, 'parsing', Math.min(1, pct / 100), 'counting rows: the file stays on disk');
  // And all the sniffer finds, once: the view reads with it and detects nothing when a statement
  // binds it (a console query bound it three times, each a sniff of 20,480 rows, issue 37).
  const schema = await sniffSchema(engine, path, dialect ? { ...read, dialect } : read);
  const make = async (pinned: CsvDialect | undefined, known?: CsvSchema): Promise<IngestOutcome> => {
    const source = readCsvSql(path, { ...read, ...(pinned ? { dialect: pinned } : {}), ...(known ? { schema: known } : {}) });
    await engine.query(`CREATE OR REPLACE VIEW ${quoteIdent(table)} AS SELECT * FROM ${source}`);
    // A view cannot be altered: it is made again with its time-zone columns read as UTC.
    const zoned = engine.extensions?.icu ? [] : zonedColumns(await columnTypes(engine, table));
    if (zoned.length > 0) await engine.query(`CREATE OR REPLACE VIEW ${quoteIdent(table)} AS SELECT ${utcSelectList(zoned)} FROM ${source}`);
    const attached = attachedSentence(reason);
    const info = await tableInfo(engine, table, fileName, format, blob.size, undefined, { reader: readerLabel(format, engine), findings: [], attached, timeZones: zoned.map((column) => ({ column, stored: 'utc' as const })) });
    ctx.views.set(table, path);
    const warning =
      reason.kind === 'out_of_memory'
        ? `${fileName} did not fit in this tab's memory as a table, so ${table} is a view over the file: every query reads the file again (slower, but nothing is held in memory). It is not saved: add the file again after a reload.`
        : `${fileName} is bigger than this tab's memory, so ${table} is a view over the file: every query reads the file again (slower, but nothing is held in memory). It is not saved: add the file again after a reload.`;
    return { ok: true, tables: [{ info: { ...info, view: true } }], warnings: [warning] };
  };
  try {
    try {
      if (schema) {
        try {
          return await make(dialect, schema);
        } catch {
          // What the sniffer found cannot be read so: the view detects it at each bind, as before.
        }
      }
      return await make(dialect);
    } catch (e) {
      if (!dialect) throw e;
      // The dialect of the first lines did not hold further down: DuckDB detects it itself.
      return await make(undefined);
    }
  } catch (e) {
    await engine.query(`DROP VIEW IF EXISTS ${quoteIdent(table)}`).catch(() => undefined);
    await engine.dropFile(path).catch(() => undefined);
    return { ok: false, fileName, message: `Could not read ${fileName} as ${format === 'tsv' ? 'TSV' : 'CSV'}: ${briefError(e)}` };
  } finally {
    ctx.progressSink = undefined;
  }
}

/** DROP for a dataset, whichever kind it is. */
export function dropSql(ctx: HostContext, name: string): string {
  return ctx.views.has(name) ? `DROP VIEW IF EXISTS ${quoteIdent(name)}` : `DROP TABLE IF EXISTS ${quoteIdent(name)}`;
}
