/**
 * Files too big for the tab's memory: a CSV is attached as a view over the registered file, so
 * DuckDB streams it for every query and its size is bounded by the disk, not the tab.
 */
import { quoteIdent } from '../../../shared/sql';
import { columnTypes } from '../engine/catalog';
import { readCsvSql } from '../engine/csvOptions';
import { briefError } from '../loaders/csvIngest';
import { REGISTERED_DIR, type Engine } from '../engine/duckdbEngine';
import type { HostContext } from './hostContext';
import { tableInfo, type IngestOutcome } from './ingest';
import { readerLabel } from '../loaders/readerLabel';
import { detectEncoding, readHead } from '../loaders/sniff';
import { utcSelectList, zonedColumns } from '../engine/timeZones';

/** A big CSV as a view over its file. Counting its rows reads it once. */
export async function attachView(
  ctx: HostContext,
  engine: Engine,
  blob: Blob,
  fileName: string,
  format: 'csv' | 'tsv',
  loadId: string,
  table: string,
  why: string,
): Promise<IngestOutcome> {
  const encoding = detectEncoding(await readHead(blob));
  if (encoding.encoding !== 'utf-8') {
    return { ok: false, fileName, message: `${why} A file this big can be queried in place only when it is UTF-8 text.`, suggestion: 'Convert it to UTF-8 (or split it) and add it again.' };
  }
  const path = `${REGISTERED_DIR}view_${++ctx.seq}.${format}`;
  await engine.registerBlob(path, blob);
  ctx.progress(loadId, fileName, 'parsing', undefined, 'counting rows: the file stays on disk');
  ctx.progressSink = (pct) => ctx.progress(loadId, fileName, 'parsing', Math.min(1, pct / 100), 'counting rows: the file stays on disk');
  try {
    const source = readCsvSql(path, { encoding: 'utf-8', tsv: format === 'tsv', fullSample: false });
    await engine.query(`CREATE VIEW ${quoteIdent(table)} AS SELECT * FROM ${source}`);
    // A view cannot be altered: it is made again with its time-zone columns read as UTC.
    const zoned = engine.extensions?.icu ? [] : zonedColumns(await columnTypes(engine, table));
    if (zoned.length > 0) await engine.query(`CREATE OR REPLACE VIEW ${quoteIdent(table)} AS SELECT ${utcSelectList(zoned)} FROM ${source}`);
    const info = await tableInfo(engine, table, fileName, format, blob.size, undefined, { reader: readerLabel(format, engine), findings: [], timeZones: zoned.map((column) => ({ column, stored: 'utc' as const })) });
    ctx.views.set(table, path);
    const warning = `${fileName} is bigger than this tab's memory, so ${table} is a view over the file: every query reads the file again (slower, but nothing is held in memory). It is not saved: add the file again after a reload.`;
    return { ok: true, tables: [{ info: { ...info, view: true } }], warnings: [warning] };
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
