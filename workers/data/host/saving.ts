/**
 * Keeping datasets for the next visit: a load's source bytes and manifest entries (`persist`),
 * then a snapshot of each table (`SnapshotWriter`), which the next start restores without parsing
 * the source again. A failure here only costs persistence, never the dataset.
 */
import { messageOf } from '../../../shared/errors';
import type { DatasetInfo } from '../../../protocol/data';
import { describeTable } from '../engine/catalog';
import type { HostContext } from './hostContext';
import type { PendingChecks } from './laterChecks';
import { writeSnapshot } from './snapshot';
import { isQuotaError, type ManifestEntry } from './storage';

/** A table a load made (and, for Excel, the sheet it came from). */
export interface Built {
  info: DatasetInfo;
  sheet?: string;
  /** Its load report's checks, when they run after the load answered. */
  checks?: PendingChecks;
}

const storageKey = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 10)}`;

/**
 * Stores the source bytes and manifest; a failure only costs persistence, never the dataset.
 * `checked`: the load's checks, running beside the copy; the manifest entries wait for them and
 * keep the report they leave on the dataset.
 */
export async function persist(ctx: HostContext, blob: Blob, tables: Built[], loadId: string, fileName: string, checked?: Promise<void>): Promise<{ ok: boolean; warning?: string }> {
  const storage = await ctx.storageReady();
  if (!storage) return { ok: false, warning: `${fileName} will not survive a reload: this browser offers no storage to this page.` };
  if (!(await ctx.mayWrite())) {
    return { ok: false, warning: `${fileName} is loaded in this tab only: Dataseer is open in another tab, which keeps the saved datasets. Close the other tab and reload this one to save here.` };
  }
  const key = storageKey('src');
  try {
    ctx.progress(loadId, fileName, 'storing', 0);
    await storage.sources.put(key, blob, (f) => ctx.progress(loadId, fileName, 'storing', f));
    if (checked) await checked;
    for (const t of tables) {
      const report = checked ? (ctx.datasets.get(t.info.name)?.report ?? t.info.report) : t.info.report;
      const entry: ManifestEntry = { name: t.info.name, fileName, format: t.info.format, sourceKey: key, sizeBytes: blob.size, loadedAt: t.info.loadedAt };
      if (t.sheet !== undefined) entry.sheet = t.sheet;
      if (report) entry.report = report;
      await storage.putEntry(entry);
    }
    return { ok: true };
  } catch (e) {
    for (const t of tables) await storage.remove(t.info.name).catch(() => undefined);
    await storage.sources.delete(key).catch(() => undefined);
    const why = isQuotaError(e) ? 'the browser storage quota is full' : messageOf(e);
    return { ok: false, warning: `${fileName} is loaded but will not survive a reload: ${why}.` };
  }
}

/**
 * Writes datasets' snapshots (after a load, after SQL changed them). Queued behind the engine's
 * other work; a failure only means the next start re-reads the source.
 */
export class SnapshotWriter {
  readonly #ctx: HostContext;
  /** Snapshot writes in flight, by dataset, and those to write once more when they finish. */
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #again = new Set<string>();

  constructor(ctx: HostContext) {
    this.#ctx = ctx;
  }

  save(name: string): Promise<void> {
    const pending = this.#inFlight.get(name);
    if (pending) {
      // One more write after the one in flight, so the last change is the one saved.
      this.#again.add(name);
      return pending;
    }
    const ctx = this.#ctx;
    const run = (async () => {
      const storage = await ctx.writable();
      const engine = await ctx.engineReady();
      await ctx.restored;
      // A snapshot holds the engine while it streams the table out: it waits until the user's
      // queries have paused, so the first queries after a load never queue behind it.
      await this.#quiet(ctx.deps.snapshotIdleMs ?? 2_000);
      if (!storage || !ctx.datasets.has(name)) return;
      try {
        // Described and written in one turn of the queue, so the snapshot matches what it says.
        const readWith = (): string => JSON.stringify(ctx.datasets.get(name)?.report?.readOptions ?? null);
        const { columns, rowCount, blob, state } = await ctx.serial.run(async () => {
          const described = await describeTable(engine, name);
          return { ...described, blob: await writeSnapshot(engine, name, described.columns), state: readWith() };
        });
        // A load report's fix read the table again meanwhile: this snapshot is of the table before
        // it and would pair with the fix's report; the fix's own save writes the right one.
        if (readWith() !== state) return;
        const key = storageKey('snap');
        await storage.sources.put(key, blob);
        if (readWith() !== state) {
          await storage.sources.delete(key).catch(() => undefined);
          return;
        }
        await storage.setSnapshot(name, key, columns, rowCount);
      } catch {
        // Kept from its source instead.
      }
    })().finally(() => {
      this.#inFlight.delete(name);
      if (this.#again.delete(name)) void this.save(name);
    });
    this.#inFlight.set(name, run);
    return run;
  }

  async #quiet(ms: number): Promise<void> {
    for (;;) {
      const wait = this.#ctx.lastRequestAt + ms - performance.now();
      if (wait <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Resolves once every snapshot write in flight has finished (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight.values());
  }
}
