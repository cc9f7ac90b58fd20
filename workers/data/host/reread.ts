/**
 * A load report's fix: reads a CSV/TSV dataset's file again with new options and replaces its
 * table under the same name; a failed re-read leaves the table as it was.
 */
import { quoteIdent } from '../../../shared/sql';
import type { RereadOutcome } from '../../../protocol/data';
import type { CsvReadOverrides, LoadFinding, LoadReport, ReadOverrides, TableReadOverrides } from '../../../protocol/loadReport';
import { columnTypes } from '../engine/catalog';
import { csvFindings } from '../checks/csvChecks';
import { ingestCsv } from '../loaders/csvIngest';
import { isEmptyOverrides } from '../engine/csvOptions';
import { REGISTERED_DIR } from '../engine/duckdbEngine';
import type { HostContext } from './hostContext';
import { tableInfo } from './ingest';
import { readerLabel } from '../loaders/readerLabel';
import { detectEncoding, readHead } from '../loaders/sniff';
import { rereadTable } from './tableReread';
import { isCheckedTableFormat } from '../checks/tableReport';

/** The dataset's source: this session's, else its saved copy. */
async function sourceOf(ctx: HostContext, name: string): Promise<Blob | undefined> {
  const kept = ctx.sources.get(name);
  if (kept) return kept;
  const storage = await ctx.storageReady();
  const entry = (await storage?.entries().catch(() => []))?.find((e) => e.name === name);
  return entry ? await storage?.sources.get(entry.sourceKey) : undefined;
}

export async function reread(ctx: HostContext, name: string, requested: ReadOverrides): Promise<RereadOutcome> {
  const engine = await ctx.ready();
  const info = ctx.datasets.get(name);
  if (!info) return { ok: false, message: `No dataset named ${name}.` };
  const table = isCheckedTableFormat(info.format) && !info.view;
  if (!table && ((info.format !== 'csv' && info.format !== 'tsv') || info.view)) return { ok: false, message: `${name} is not a CSV, Excel or JSON table that can be read again.` };
  const blob = await sourceOf(ctx, name);
  if (!blob) return { ok: false, message: `The file ${info.fileName} is no longer available: add it again.` };
  const format = info.format;
  const options = requested as CsvReadOverrides;
  const outcome = table ? await ctx.serial.run(() => rereadTable(ctx, engine, info, blob, requested as TableReadOverrides)) : await ctx.serial.run(async (): Promise<RereadOutcome> => {
    const seq = ++ctx.seq;
    const scratch = `__dataseer_reread_${seq}`;
    let findings: LoadFinding[] = [];
    let applyAll: LoadReport['applyAll'];
    let sampled: string | undefined;
    const applied = isEmptyOverrides(options) ? undefined : options;
    const r = await ingestCsv({
      engine,
      blob,
      fileName: info.fileName,
      tsv: format === 'tsv',
      encoding: detectEncoding(await readHead(blob)),
      table: scratch,
      path: `${REGISTERED_DIR}src_${seq}.${format}`,
      ...(applied ? { overrides: applied } : {}),
      whileRegistered: async (path, read) => {
        ({ findings, applyAll, sampled } = await csvFindings(engine, scratch, await columnTypes(engine, scratch), path, read));
      },
    });
    if (!r.ok) return { ok: false, message: r.message };
    await engine.query(`DROP TABLE IF EXISTS ${quoteIdent(name)}`);
    await engine.query(`ALTER TABLE ${quoteIdent(scratch)} RENAME TO ${quoteIdent(name)}`);
    const original = info.report?.original ?? info.report?.findings ?? [];
    const report = { reader: readerLabel(format, engine), findings, ...(applyAll ? { applyAll } : {}), ...(sampled ? { sampled } : {}), ...(applied ? { readOptions: applied, original } : {}) };
    const fresh = await tableInfo(engine, name, info.fileName, format, info.sizeBytes, undefined, report);
    return { ok: true, dataset: { ...fresh, persisted: info.persisted, loadedAt: info.loadedAt } };
  });
  if (!outcome.ok) return outcome;
  ctx.datasets.set(name, outcome.dataset);
  const storage = await ctx.writable();
  const entry = (await storage?.entries().catch(() => []))?.find((e) => e.name === name);
  if (storage && entry && outcome.dataset.report) {
    // The report and the table are one state: the snapshot of the table before this read is let
    // go with the new report, so a reload before the new snapshot is written reads the source with
    // the report's options (every fix of the chain at once) instead of pairing the new report with
    // the old table (Excel chains partly reverted on a reload ~3 s after a fix).
    const { snapshotKey: _old, ...rest } = entry;
    await storage.putEntry({ ...rest, report: outcome.dataset.report }).catch(() => undefined);
    if (entry.snapshotKey) await storage.sources.delete(entry.snapshotKey).catch(() => undefined);
    void ctx.snapshots.save(name);
  }
  ctx.changed();
  return outcome;
}
