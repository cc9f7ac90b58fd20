/**
 * Turns a source's bytes into tables, whatever the format: CSV/TSV through DuckDB's reader,
 * Parquet natively when DuckDB has the extension, everything else through a reader's Arrow
 * batches. All or nothing: tables made before a failure are dropped.
 */
import { messageOf } from '../../../shared/errors';
import { quoteIdent } from '../../../shared/sql';
import type { ColumnInfo, DataFormat, DatasetInfo } from '../../../protocol/data';
import type { CsvReadOverrides, LoadFinding, LoadReport, ReadOverrides, TableReadOverrides } from '../../../protocol/loadReport';
import { ingestArrowStreams } from '../loaders/arrowIngest';
import { columnTypes, describeTable } from '../engine/catalog';
import { csvFindings } from '../checks/csvChecks';
import type { ReadOptions } from '../engine/csvOptions';
import { briefError, ingestCsv } from '../loaders/csvIngest';
import { REGISTERED_DIR, type Engine } from '../engine/duckdbEngine';
import { checkingDetail, stoppable } from '../engine/stoppable';
import type { HostContext } from './hostContext';
import type { ConvertedTable } from '../loaders/types';
import { ingestParquetNative } from '../loaders/parquetNative';
import { readerLabel } from '../loaders/readerLabel';
import type { Built } from './saving';
import { detectEncoding, readHead } from '../loaders/sniff';
import { settleTimeZones } from '../engine/timeZones';
import { checkReaderTable, readOptionsEntry, tableApplyAll } from '../checks/tableReport';

export type IngestOutcome =
  | { ok: true; tables: Built[]; warnings: string[] }
  /** `outOfMemory`: DuckDB ran out of memory making a CSV's table; nothing of it is left. */
  | { ok: false; fileName: string; message: string; suggestion?: string; outOfMemory?: true };

function megabytes(n: number): string {
  const mb = n / 1e6;
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb).toLocaleString('en-US')} MB`;
}

/** Turns a source into tables; all or nothing (tables made before a failure are dropped). */
export async function ingest(
  ctx: HostContext,
  engine: Engine,
  blob: Blob,
  fileName: string,
  format: DataFormat,
  loadId: string,
  nameFor: (sheet: string | undefined, count: number) => string,
  sheets?: string[],
  /** A load report's fix in force: read_csv's options for a CSV, the reader's for each sheet of a workbook or a JSON file. */
  readOptions?: ReadOverrides | ((sheet: string | undefined) => ReadOverrides | undefined),
  /** A CSV's checks run after the load answered (laterChecks.ts); its report says `checking` until then. */
  checkLater = false,
): Promise<IngestOutcome> {
  const optionsFor = (sheet: string | undefined) => (typeof readOptions === 'function' ? readOptions(sheet) : readOptions);
  const csvOptions = optionsFor(undefined) as CsvReadOverrides | undefined;
  const tableOptions = (sheet: string | undefined) => optionsFor(sheet) as TableReadOverrides | undefined;
  const seq = ++ctx.seq;
  const made: string[] = [];
  const warnings: string[] = [];
  const fail = async (message: string, suggestion?: string) => {
    for (const t of made) await engine.query(`DROP TABLE IF EXISTS ${quoteIdent(t)}`).catch(() => undefined);
    return { ok: false as const, fileName, message, ...(suggestion ? { suggestion } : {}) };
  };
  const tables: Built[] = [];
  try {
    if (format === 'csv' || format === 'tsv') {
      const encoding = detectEncoding(await readHead(blob));
      const table = nameFor(undefined, 1);
      // DuckDB's CSV progress is the share of the file's bytes scanned: say it in bytes too.
      const size = blob.size;
      ctx.progress(loadId, fileName, 'parsing', 0, `0 of ${megabytes(size)}`);
      ctx.progressSink = (pct) => {
        const f = Math.min(1, pct / 100);
        ctx.progress(loadId, fileName, 'parsing', f, `${megabytes(size * f)} of ${megabytes(size)}`);
      };
      let findings: LoadFinding[] = [];
      let applyAll: LoadReport['applyAll'];
      let sampled: string | undefined;
      // The columns the checks were given, not asked of the catalog again for the info.
      let types: ColumnInfo[] | undefined;
      const r = await ingestCsv({
        engine,
        blob,
        fileName,
        tsv: format === 'tsv',
        encoding,
        table,
        path: `${REGISTERED_DIR}src_${seq}.${format}`,
        ...(csvOptions ? { overrides: csvOptions } : {}),
        ...(checkLater
          ? {}
          : {
              whileRegistered: async (path: string, read: ReadOptions) => {
                types = await columnTypes(engine, table);
                // A Cancel of the load stops its checks too, not only the statement it interrupts (issue 37).
                const checking = stoppable(engine, () => ctx.cancelledLoads.has(loadId), (n) => ctx.progress(loadId, fileName, 'parsing', 1, checkingDetail(n)));
                ({ findings, applyAll, sampled } = await csvFindings(checking, table, types, path, read));
              },
            }),
      });
      if (!r.ok) {
        const failed = await fail(r.message, r.suggestion);
        return r.outOfMemory ? { ...failed, outOfMemory: true as const } : failed;
      }
      made.push(table);
      warnings.push(...r.warnings);
      const report = { reader: readerLabel(format, engine), findings, ...(applyAll ? { applyAll } : {}), ...(sampled ? { sampled } : {}), ...(csvOptions ? { readOptions: csvOptions } : {}), ...(checkLater ? { checking: true as const } : {}) };
      const info = await tableInfo(engine, table, fileName, format, blob.size, undefined, report, types);
      tables.push(checkLater ? { info, checks: { source: r.source, read: r.read, format } } : { info });
    } else if (format === 'parquet' && engine.extensions?.parquet) {
      const table = nameFor(undefined, 1);
      ctx.progress(loadId, fileName, 'parsing', 0);
      try {
        await ingestParquetNative(engine, blob, table, `${REGISTERED_DIR}src_${seq}.parquet`);
      } catch (e) {
        return await fail(`Could not read ${fileName}: ${briefError(e)}`);
      }
      made.push(table);
      tables.push({ info: await tableInfo(engine, table, fileName, format, blob.size, undefined, { reader: readerLabel(format, engine), findings: [] }) });
    } else {
      ctx.progress(loadId, fileName, 'parsing', 0);
      const readers = ctx.deps.readers;
      const convert = format === 'parquet' ? readers.parquet : format === 'arrow' ? readers.arrow : format === 'xlsx' ? readers.excel : readers.json;
      let converted: ConvertedTable[];
      try {
        converted = await convert(blob, { onProgress: (f) => ctx.progress(loadId, fileName, 'parsing', f), ...(sheets ? { sheets } : {}), readOptions: tableOptions });
      } catch (e) {
        return await fail(`Could not read ${fileName}: ${messageOf(e)}`);
      }
      if (converted.length === 0) return await fail(`${fileName} has no data to load (no non-empty sheet or table).`);
      for (const [i, ct] of converted.entries()) {
        const table = nameFor(ct.sheet, converted.length);
        const scratch = `__dataseer_load_${seq}_${i}`;
        try {
          await ingestArrowStreams(
            engine,
            ct,
            table,
            scratch,
            (n) => ctx.progress(loadId, fileName, 'inserting', undefined, `${n} batch${n === 1 ? '' : 'es'}${ct.sheet ? ` of ${ct.sheet}` : ''}`),
            () => {
              if (ctx.cancelledLoads.has(loadId)) throw new Error('cancelled');
            },
          );
        } catch (e) {
          return await fail(`Could not load ${fileName}${ct.sheet ? ` (sheet ${ct.sheet})` : ''}: ${messageOf(e)}`);
        }
        made.push(table);
        ctx.progress(loadId, fileName, 'inserting', (i + 1) / converted.length);
        const read = tableOptions(ct.sheet);
        // As a CSV's: a Cancel stops the checks (a date tried on 10M rows is a statement per column or two).
        const checking = stoppable(engine, () => ctx.cancelledLoads.has(loadId), (n) => ctx.progress(loadId, fileName, 'inserting', (i + 1) / converted.length, checkingDetail(n)));
        const { findings, sampled } = await checkReaderTable(checking, table, ct, format, read);
        const report = { reader: readerLabel(format, engine), findings, ...tableApplyAll(findings), ...(sampled ? { sampled } : {}), timeZones: (ct.utcColumns ?? []).map((column) => ({ column, stored: 'utc' as const })), ...readOptionsEntry(read) };
        const info = await tableInfo(engine, table, fileName, format, blob.size, ct.sheet, report);
        tables.push(ct.sheet === undefined ? { info } : { info, sheet: ct.sheet });
      }
    }
  } catch (e) {
    return await fail(`Could not load ${fileName}: ${messageOf(e)}`);
  } finally {
    ctx.progressSink = undefined;
  }
  for (const t of tables) {
    if (t.info.columns.length > 0 && t.info.rowCount === 0) warnings.push(`${t.info.name} has column headers but no rows.`);
  }
  return { ok: true, tables, warnings };
}

/**
 * A made table's info. With a report, its time-zone columns are settled first (timeZones.ts):
 * kept with ICU, else converted to UTC TIMESTAMP, and the report says which.
 */
export async function tableInfo(
  engine: Engine,
  name: string,
  fileName: string,
  format: DataFormat,
  sizeBytes: number,
  sheet?: string,
  report?: Omit<LoadReport, 'timeZones'> & { timeZones?: LoadReport['timeZones'] },
  /** The table's columns, when the caller has just read them from the catalog. */
  known?: ColumnInfo[],
): Promise<DatasetInfo> {
  const types = report && !report.timeZones ? (known ?? (await columnTypes(engine, name))) : undefined;
  const settled = types ? await settleTimeZones(engine, name, types, engine.extensions?.icu ?? false) : [];
  // Asked again only when a conversion changed a column's type.
  const { columns, rowCount } = await describeTable(engine, name, settled.some((s) => s.stored === 'utc') ? undefined : types);
  const full = report ? { ...report, timeZones: [...(report.timeZones ?? []), ...settled] } : undefined;
  return { name, fileName, format, ...(sheet === undefined ? {} : { sheet }), rowCount, columns, sizeBytes, loadedAt: Date.now(), persisted: false, ...(full ? { report: full } : {}) };
}
