/**
 * A load, from the bytes the page sends (a file or pasted text; the page downloads URLs itself)
 * to datasets in the list: detect the format, check it fits, ingest (or attach a big CSV as a
 * view), keep it for the next visit, and announce the list once. A big file's load announces
 * the list when its table is usable, and then only its dataset's entry, once, when its checks and
 * its copy are both done.
 */
import { quoteIdent } from '../../../shared/sql';
import type { LoadOutcome, LoadSource } from '../../../protocol/data';
import { attachView } from './bigFile';
import { memoryUsed, tableNames } from '../engine/catalog';
import { checkFootprint, valuesPerByte } from '../engine/footprint';
import type { HostContext } from './hostContext';
import { ingest } from './ingest';
import { checkTablesLater } from './laterChecks';
import { persist, type Built } from './saving';
import { detectFormat, readHead } from '../loaders/sniff';
import { tableNameFor } from './tableName';

/**
 * From this size a load answers as soon as its table is made: its load report's checks and then
 * its copy for the next visit run alongside (HostDeps.answerFirstFromBytes overrides it).
 */
const ANSWER_FIRST_FROM_BYTES = 8 * 1024 * 1024;

export async function load(ctx: HostContext, source: LoadSource, loadId: string, sheets?: string[]): Promise<LoadOutcome> {
  try {
    return await loadOnce(ctx, source, loadId, sheets);
  } finally {
    ctx.cancelledLoads.delete(loadId);
  }
}

function cancelledOutcome(ctx: HostContext, loadId: string, fileName: string): LoadOutcome {
  ctx.cancelledLoads.delete(loadId);
  ctx.progress(loadId, fileName, 'done', 1);
  return { ok: false, fileName, message: 'Cancelled.', cancelled: true };
}

async function loadOnce(ctx: HostContext, source: LoadSource, loadId: string, sheets?: string[]): Promise<LoadOutcome> {
  const blob = source.kind === 'file' ? source.file : new Blob([source.text], { type: 'text/csv' });
  const name = source.kind === 'file' ? source.file.name : source.fileName || 'pasted.csv';
  ctx.progress(loadId, name, 'reading', 1);
  const engine = await ctx.ready();
  const head = await readHead(blob);
  const detected = detectFormat(name, head);
  if (!detected.ok) return { ok: false, fileName: name, message: detected.message, suggestion: detected.suggestion };
  const warnings = detected.warning ? [detected.warning] : [];
  const answerFirst = blob.size >= (ctx.deps.answerFirstFromBytes ?? ANSWER_FIRST_FROM_BYTES);

  const built = await ctx.serial.run(async () => {
    // Cancelled while it waited for its turn: nothing to undo.
    if (ctx.cancelledLoads.has(loadId)) return { ok: false as const, fileName: name, message: 'Cancelled.' };
    const delimited = detected.format === 'csv' || detected.format === 'tsv' ? valuesPerByte(head, detected.format === 'tsv' ? '\t' : ',') : undefined;
    const fit = checkFootprint(name, detected.format, blob.size, await memoryUsed(engine), ctx.deps.memoryCeilingBytes, delimited);
    const taken = new Set([...ctx.datasets.keys(), ...(await tableNames(engine))]);
    ctx.ingesting = loadId;
    try {
      const format = detected.format;
      // Too big to hold: a CSV is queried where it lies, as a view over the file.
      if (!fit.ok && (format === 'csv' || format === 'tsv')) return await attachView(ctx, engine, blob, name, format, loadId, tableNameFor(name, taken), { kind: 'too_big', why: fit.message });
      if (!fit.ok) return { ok: false as const, fileName: name, message: fit.message, suggestion: fit.suggestion };
      let tried: string | undefined;
      const made = await ingest(ctx, engine, blob, name, format, loadId, (sheet, count) => {
        const n = count > 1 && sheet !== undefined ? tableNameFor(name, taken, sheet) : tableNameFor(name, taken);
        taken.add(n);
        tried = n;
        return n;
      }, sheets, undefined, answerFirst);
      // The footprint check let it through but DuckDB ran out of memory below its limit: the
      // file is still queried, where it lies, rather than the load failing.
      if (!made.ok && made.outOfMemory && tried !== undefined && (format === 'csv' || format === 'tsv')) {
        await engine.query(`DROP TABLE IF EXISTS ${quoteIdent(tried)}`).catch(() => undefined);
        return await attachView(ctx, engine, blob, name, format, loadId, tried, { kind: 'out_of_memory', why: made.message });
      }
      return made;
    } finally {
      ctx.ingesting = null;
    }
  });
  if (ctx.cancelledLoads.has(loadId)) {
    // Cancelled as the ingest ended: what it made goes too.
    if (built.ok) for (const t of built.tables) await ctx.serial.run(() => engine.query(`DROP TABLE IF EXISTS ${quoteIdent(t.info.name)}`)).catch(() => undefined);
    return cancelledOutcome(ctx, loadId, name);
  }
  if (!built.ok) return built;
  warnings.push(...built.warnings);

  for (const t of built.tables) if (t.info.format !== 'parquet' && t.info.format !== 'arrow') ctx.sources.set(t.info.name, blob);
  const viewOnly = built.tables.some((t) => t.info.view);
  if (!viewOnly && answerFirst && (await ctx.writable())) {
    // A big file: the table is usable now; its checks and its copy for the next visit (which
    // keeps the report they make) run meanwhile, side by side, and are announced together.
    for (const t of built.tables) ctx.datasets.set(t.info.name, { ...t.info, persisted: false, saving: true });
    ctx.progress(loadId, name, 'done', 1);
    ctx.changed();
    const checked = checkTablesLater(ctx, engine, built.tables, false);
    void saveInBackground(ctx, blob, built.tables, loadId, name, checked);
    return { ok: true, datasets: built.tables.map((t) => ctx.datasets.get(t.info.name) ?? t.info), warnings };
  }
  const persisted = viewOnly ? { ok: false } : await persist(ctx, blob, built.tables, loadId, name);
  if (persisted.warning) warnings.push(persisted.warning);
  for (const t of built.tables) {
    t.info.persisted = persisted.ok;
    ctx.datasets.set(t.info.name, t.info);
  }
  ctx.progress(loadId, name, 'done', 1);
  ctx.changed();
  void checkTablesLater(ctx, engine, built.tables);
  // The snapshot is written after the load answered: the table is usable meanwhile.
  if (persisted.ok) for (const t of built.tables) void ctx.snapshots.save(t.info.name);
  return { ok: true, datasets: built.tables.map((t) => t.info), warnings };
}

/**
 * The copy of a big load for the next visit, beside its checks, after the load answered; one
 * `dataset` event per table says when both are done (the findings and the saved state).
 */
async function saveInBackground(ctx: HostContext, blob: Blob, built: Built[], loadId: string, fileName: string, checked: Promise<void>): Promise<void> {
  const saved = await persist(ctx, blob, built, loadId, fileName, checked);
  await checked;
  const storage = await ctx.writable();
  for (const t of built) {
    const now = ctx.datasets.get(t.info.name);
    if (!now) {
      // Removed or renamed while it was being saved: the next visit must not bring it back.
      if (saved.ok) await storage?.remove(t.info.name).catch(() => undefined);
      continue;
    }
    const { saving: _saving, ...rest } = now;
    ctx.datasets.set(t.info.name, { ...rest, persisted: saved.ok });
    ctx.updated(t.info.name);
    if (saved.ok) void ctx.snapshots.save(t.info.name);
  }
}
