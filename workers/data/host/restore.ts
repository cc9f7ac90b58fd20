/**
 * Bringing the saved datasets back on start: named at once from the manifest (a `restoring`
 * event, before DuckDB is up, so the page says what is coming back), then each group of tables
 * from its snapshots, else from its source bytes, under its saved name.
 */
import { quoteIdent } from '../../../shared/sql';
import type { DatasetInfo, RestoringSource } from '../../../protocol/data';
import type { Engine } from '../engine/duckdbEngine';
import type { HostContext } from './hostContext';
import { ingest } from './ingest';
import { restoreSnapshot } from './snapshot';
import type { DatasetStorage, ManifestEntry } from './storage';

/** The progress id of a saved source's restore (one per source: an Excel workbook's sheets come back together). */
const restoreId = (sourceKey: string) => `restore:${sourceKey}`;

interface Saved {
  storage: DatasetStorage;
  entries: ManifestEntry[];
  /** Manifest entries by source, in manifest order. */
  groups: Map<string, ManifestEntry[]>;
}

const announced = new WeakMap<HostContext, Promise<Saved | undefined>>();

/**
 * Reads the manifest once and says what the restore will bring back. Called as soon as the page
 * asks (`init`), without waiting for DuckDB; the restore itself reads the same answer.
 */
export function announceSaved(ctx: HostContext): Promise<Saved | undefined> {
  let saved = announced.get(ctx);
  if (!saved) {
    saved = (async () => {
      const storage = await ctx.storageReady();
      if (!storage) return undefined;
      const entries = await storage.entries().catch(() => [] as ManifestEntry[]);
      const groups = new Map<string, ManifestEntry[]>();
      for (const e of entries) groups.set(e.sourceKey, [...(groups.get(e.sourceKey) ?? []), e]);
      const sources: RestoringSource[] = [...groups].flatMap(([key, group]) =>
        group[0] ? [{ loadId: restoreId(key), fileName: group[0].fileName, datasets: group.map((e) => e.name), sizeBytes: group[0].sizeBytes }] : [],
      );
      if (sources.length > 0) ctx.emit({ type: 'restoring', sources });
      return { storage, entries, groups };
    })();
    announced.set(ctx, saved);
  }
  return saved;
}

/**
 * Brings a saved group back from its snapshots; false when any is missing or fails to load, or
 * the group's restore was cancelled (nothing of it is left then).
 */
async function fromSnapshots(ctx: HostContext, engine: Engine, storage: DatasetStorage, group: ManifestEntry[], loadId: string): Promise<boolean> {
  if (!group.every((e) => e.snapshotKey && e.columns && e.rowCount !== undefined)) return false;
  const made: string[] = [];
  try {
    for (const entry of group) {
      const blob = entry.snapshotKey ? await storage.sources.get(entry.snapshotKey) : undefined;
      if (!blob || !entry.columns) throw new Error('snapshot missing');
      const columns = entry.columns;
      await ctx.serial.run(async () => {
        if (ctx.cancelledLoads.has(loadId)) throw new Error('cancelled');
        // A Cancel meanwhile interrupts the read (cancelLoad, as for a load).
        ctx.ingesting = loadId;
        try {
          await restoreSnapshot(engine, blob, entry.name, columns, `__dataseer_restore_${++ctx.seq}`);
        } finally {
          ctx.ingesting = null;
        }
      });
      // (A cut-short or interrupted snapshot leaves no table: snapshot.ts.)
      made.push(entry.name);
      if (ctx.cancelledLoads.has(loadId)) throw new Error('cancelled');
      const info: DatasetInfo = {
        name: entry.name,
        fileName: entry.fileName,
        format: entry.format,
        ...(entry.sheet === undefined ? {} : { sheet: entry.sheet }),
        rowCount: entry.rowCount ?? 0,
        columns,
        sizeBytes: entry.sizeBytes,
        loadedAt: entry.loadedAt,
        persisted: true,
        ...(entry.report ? { report: entry.report } : {}),
      };
      ctx.datasets.set(entry.name, info);
    }
    return true;
  } catch {
    for (const name of made) {
      ctx.datasets.delete(name);
      await ctx.serial.run(() => engine.query(`DROP TABLE IF EXISTS ${quoteIdent(name)}`)).catch(() => undefined);
    }
    return false;
  }
}

/** Brings every persisted dataset back under its saved name: from its snapshot, else its source. */
export async function restore(ctx: HostContext, engine: Engine): Promise<void> {
  const saved = await announceSaved(ctx);
  if (!saved) {
    // Said even with no storage: the page waits for it before treating the list as complete.
    ctx.progress('restore', '', 'done', 1);
    return;
  }
  const { storage, entries, groups } = saved;
  let done = 0;
  for (const [key, group] of groups) {
    const first = group[0];
    if (!first) continue;
    const loadId = restoreId(key);
    // Cancelled (issue 37): this source is not brought back now — nothing of it is left in DuckDB —
    // and its saved copy stays for the next start; the others are restored as before.
    // `made`: the tables this restore made before the cancel took (never a same-named one loaded meanwhile).
    const skip = async (made: readonly string[] = []) => {
      for (const name of made) {
        ctx.datasets.delete(name);
        await ctx.serial.run(() => engine.query(`DROP TABLE IF EXISTS ${quoteIdent(name)}`)).catch(() => undefined);
      }
      ctx.cancelledLoads.delete(loadId);
      ctx.progress(loadId, first.fileName, 'done', 1, 'cancelled');
    };
    if (ctx.cancelledLoads.has(loadId)) {
      await skip();
      continue;
    }
    ctx.progress(loadId, first.fileName, 'restoring', done / groups.size);
    const fromSnapshot = await fromSnapshots(ctx, engine, storage, group, loadId);
    if (ctx.cancelledLoads.has(loadId)) {
      await skip(fromSnapshot ? group.map((e) => e.name) : []);
      continue;
    }
    if (fromSnapshot) {
      done++;
      ctx.changed();
      ctx.progress(loadId, first.fileName, 'done', 1);
      continue;
    }
    const blob = await storage.sources.get(key);
    const forget = async () => {
      // Only the tab that writes the storage forgets entries: another tab may be mid-write.
      if (!(await ctx.mayWrite())) return;
      for (const e of group) await storage.remove(e.name).catch(() => undefined);
    };
    if (!blob) {
      await forget();
      ctx.progress(loadId, first.fileName, 'done', 1);
      continue;
    }
    const bySheet = new Map(group.map((e) => [e.sheet, e]));
    const sheets = first.format === 'xlsx' ? group.map((e) => e.sheet).filter((s): s is string => s !== undefined) : undefined;
    const built = await ctx.serial.run(async () => {
      if (ctx.cancelledLoads.has(loadId)) return { ok: false as const, message: 'cancelled' };
      ctx.ingesting = loadId;
      try {
        return await ingest(ctx, engine, blob, first.fileName, first.format, loadId, (sheet) => bySheet.get(sheet)?.name ?? first.name, sheets, (sheet) => bySheet.get(sheet)?.report?.readOptions);
      } finally {
        ctx.ingesting = null;
      }
    });
    // Before the failure path below, which forgets the saved copy: a cancel keeps it.
    if (ctx.cancelledLoads.has(loadId)) {
      await skip(built.ok ? built.tables.map((t) => t.info.name) : []);
      continue;
    }
    if (!built.ok) {
      // The saved bytes no longer load (say, a reader changed): drop them rather than fail every start.
      ctx.progress(loadId, first.fileName, 'restoring', undefined, built.message);
      await forget();
      ctx.progress(loadId, first.fileName, 'done', 1);
      continue;
    }
    for (const t of built.tables) {
      const entry = group.find((e) => e.name === t.info.name);
      ctx.datasets.set(t.info.name, { ...t.info, persisted: true, loadedAt: entry?.loadedAt ?? t.info.loadedAt });
      // Next start takes the fast path.
      void ctx.snapshots.save(t.info.name);
    }
    done++;
    ctx.changed();
    ctx.progress(loadId, first.fileName, 'done', 1);
  }
  const keep = new Set([...groups.keys(), ...entries.flatMap((e) => (e.snapshotKey ? [e.snapshotKey] : []))]);
  if (await ctx.mayWrite()) await storage.sweep(keep).catch(() => undefined);
  // Always said, even with nothing to restore: the page treats the list as complete from here.
  ctx.progress('restore', '', 'done', 1);
}
