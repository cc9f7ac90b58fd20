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
import { checkingDetail, stoppable } from '../engine/stoppable';
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

/** A re-read the user cancelled: nothing was swapped, the dataset is as it was. */
function cancelledReread(ctx: HostContext, loadId: string, fileName: string, name: string): RereadOutcome {
  ctx.progress(loadId, fileName, 'done', 1);
  return { ok: false, message: `Cancelled: ${name} is as it was before.`, cancelled: true };
}

function megabytes(n: number): string {
  const mb = n / 1e6;
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb).toLocaleString('en-US')} MB`;
}

/**
 * `loadId` (issue 37): the re-read reports `progress` under it and `cancelLoad(loadId)` stops it
 * — DuckDB's statement interrupted, the checks skipped — before the one place the table changes
 * (the swap), so a cancelled fix leaves the table, its report and its saved copy as they were.
 */
export async function reread(ctx: HostContext, name: string, requested: ReadOverrides, loadId?: string): Promise<RereadOutcome> {
  const engine = await ctx.ready();
  const info = ctx.datasets.get(name);
  if (!info) return { ok: false, message: `No dataset named ${name}.` };
  const table = isCheckedTableFormat(info.format) && !info.view;
  if (!table && ((info.format !== 'csv' && info.format !== 'tsv') || info.view)) return { ok: false, message: `${name} is not a CSV, Excel or JSON table that can be read again.` };
  const blob = await sourceOf(ctx, name);
  if (!blob) return { ok: false, message: `The file ${info.fileName} is no longer available: add it again.` };
  const format = info.format;
  const options = requested as CsvReadOverrides;
  const cancelled = () => loadId !== undefined && ctx.cancelledLoads.has(loadId);
  const guarded = async (run: () => Promise<RereadOutcome>): Promise<RereadOutcome> => {
    // Cancelled while it waited for its turn: nothing to undo.
    if (loadId !== undefined && cancelled()) return cancelledReread(ctx, loadId, info.fileName, name);
    if (loadId === undefined) return run();
    ctx.ingesting = loadId;
    const size = blob.size;
    ctx.progress(loadId, info.fileName, 'parsing', 0, `0 of ${megabytes(size)}`);
    ctx.progressSink = (pct) => {
      const f = Math.min(1, pct / 100);
      ctx.progress(loadId, info.fileName, 'parsing', f, `${megabytes(size * f)} of ${megabytes(size)}`);
    };
    try {
      const out = await run();
      return !out.ok && cancelled() ? cancelledReread(ctx, loadId, info.fileName, name) : out;
    } finally {
      ctx.ingesting = null;
      ctx.progressSink = undefined;
    }
  };
  // A fix cancelled while it waits behind another statement answers at once (ctx.cancellable).
  const inQueue = (job: () => Promise<RereadOutcome>) =>
    loadId === undefined ? ctx.serial.run(job) : ctx.cancellable(loadId, ctx.cancelledLoads, job, () => cancelledReread(ctx, loadId, info.fileName, name));
  const outcome = table ? await inQueue(() => guarded(() => rereadTable(ctx, engine, info, blob, requested as TableReadOverrides, cancelled))) : await inQueue(() => guarded(async (): Promise<RereadOutcome> => {
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
        // Cancelled as the read ended: its checks would be thrown away.
        if (cancelled()) return;
        // The checks (an "Apply all" at 2,000 columns: a minute of statements) say how far they
        // are, and a Cancel refuses every statement after the one it interrupts (issue 37).
        const checking = stoppable(engine, cancelled, loadId === undefined ? undefined : (n) => ctx.progress(loadId, info.fileName, 'parsing', undefined, checkingDetail(n)));
        ({ findings, applyAll, sampled } = await csvFindings(checking, scratch, await columnTypes(engine, scratch), path, read));
      },
    });
    if (!r.ok) return { ok: false, message: r.message };
    if (cancelled()) {
      // The last moment to stop: the table is swapped below.
      await engine.query(`DROP TABLE IF EXISTS ${quoteIdent(scratch)}`).catch(() => undefined);
      return { ok: false, message: 'Cancelled.' };
    }
    await engine.query(`DROP TABLE IF EXISTS ${quoteIdent(name)}`);
    await engine.query(`ALTER TABLE ${quoteIdent(scratch)} RENAME TO ${quoteIdent(name)}`);
    const original = info.report?.original ?? info.report?.findings ?? [];
    const report = { reader: readerLabel(format, engine), findings, ...(applyAll ? { applyAll } : {}), ...(sampled ? { sampled } : {}), ...(applied ? { readOptions: applied, original } : {}) };
    const fresh = await tableInfo(engine, name, info.fileName, format, info.sizeBytes, undefined, report);
    return { ok: true, dataset: { ...fresh, persisted: info.persisted, loadedAt: info.loadedAt } };
  }));
  if (loadId !== undefined && outcome.ok) ctx.progress(loadId, info.fileName, 'done', 1);
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
