import type { DBSchema, IDBPDatabase } from 'idb';
import { WORKSPACE_DB, workspaceView } from '../../../shared/db/workspaceDb';
import type { LoadReport } from '../../../protocol/loadReport';
import type { ColumnInfo, DataFormat } from '../../../protocol/data';

/**
 * Keeps loaded datasets across reloads: the source bytes (OPFS when the browser has it, else
 * IndexedDB blobs), a columnar snapshot of each table as it is now (snapshot.ts: restored at
 * Arrow-insert speed, SQL edits included), and a manifest in IndexedDB saying how to bring each
 * back. The source is the fallback when a snapshot is missing or no longer loads.
 */

export interface ManifestEntry {
  /** Table name (primary key). */
  name: string;
  fileName: string;
  format: DataFormat;
  sheet?: string;
  /** Key of the stored source bytes; an Excel workbook's sheets share one. */
  sourceKey: string;
  sizeBytes: number;
  loadedAt: number;
  /** Key of the table's latest snapshot in the same store (absent until one is written). */
  snapshotKey?: string;
  /** The table's columns when the snapshot was written: the types it is restored with. */
  columns?: ColumnInfo[];
  /** Its rows then (so a restore needs no count). */
  rowCount?: number;
  /** The load report, with the CSV options a fix put in force (a restore from source reads with them). */
  report?: LoadReport;
}

export interface SourceStore {
  readonly kind: 'opfs' | 'indexeddb';
  put(key: string, blob: Blob, onProgress?: (fraction: number) => void): Promise<void>;
  get(key: string): Promise<Blob | undefined>;
  delete(key: string): Promise<void>;
  keys(): Promise<string[]>;
}

interface StorageSchema extends DBSchema {
  manifest: { key: string; value: ManifestEntry };
  sources: { key: string; value: Blob };
}

/** The manifest and IndexedDB sources are two stores of the workspace database. */
export const DB_NAME = WORKSPACE_DB;

/** Counts bytes through a stream, reporting the fraction of `total`. */
function progressCounter(total: number, onProgress?: (fraction: number) => void): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (total > 0) onProgress?.(Math.min(1, seen / total));
      controller.enqueue(chunk);
    },
  });
}

export class IndexedDbSourceStore implements SourceStore {
  readonly kind = 'indexeddb' as const;
  constructor(private readonly db: IDBPDatabase<StorageSchema>) {}

  async put(key: string, blob: Blob, onProgress?: (fraction: number) => void): Promise<void> {
    // The browser streams a stored Blob to disk itself; no JS copy of its bytes is made.
    await this.db.put('sources', blob, key);
    onProgress?.(1);
  }

  get(key: string): Promise<Blob | undefined> {
    return this.db.get('sources', key);
  }

  async delete(key: string): Promise<void> {
    await this.db.delete('sources', key);
  }

  keys(): Promise<string[]> {
    return this.db.getAllKeys('sources');
  }
}

export class OpfsSourceStore implements SourceStore {
  readonly kind = 'opfs' as const;
  constructor(private readonly dir: FileSystemDirectoryHandle) {}

  static async open(): Promise<OpfsSourceStore | undefined> {
    try {
      const root = await navigator.storage.getDirectory();
      return new OpfsSourceStore(await root.getDirectoryHandle('datasets', { create: true }));
    } catch {
      return undefined;
    }
  }

  async put(key: string, blob: Blob, onProgress?: (fraction: number) => void): Promise<void> {
    const handle = await this.dir.getFileHandle(key, { create: true });
    try {
      if ('createWritable' in handle) {
        const writable = await handle.createWritable();
        await blob.stream().pipeThrough(progressCounter(blob.size, onProgress)).pipeTo(writable);
      } else {
        await this.#putSync(handle, blob, onProgress);
      }
    } catch (e) {
      await this.dir.removeEntry(key).catch(() => undefined);
      throw e;
    }
  }

  /** Workers without createWritable still have sync access handles. */
  async #putSync(handle: FileSystemFileHandle, blob: Blob, onProgress?: (fraction: number) => void): Promise<void> {
    const sync = await (handle as FileSystemFileHandle & { createSyncAccessHandle(): Promise<FileSystemSyncAccessHandle> }).createSyncAccessHandle();
    try {
      sync.truncate(0);
      let at = 0;
      const reader = blob.stream().getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        at += sync.write(value, { at });
        onProgress?.(blob.size > 0 ? at / blob.size : 1);
      }
      sync.flush();
    } finally {
      sync.close();
    }
  }

  async get(key: string): Promise<Blob | undefined> {
    try {
      return await (await this.dir.getFileHandle(key)).getFile();
    } catch {
      return undefined;
    }
  }

  async delete(key: string): Promise<void> {
    await this.dir.removeEntry(key).catch(() => undefined);
  }

  async keys(): Promise<string[]> {
    const names: string[] = [];
    for await (const name of (this.dir as FileSystemDirectoryHandle & { keys(): AsyncIterable<string> }).keys()) names.push(name);
    return names;
  }
}

export function isQuotaError(e: unknown): boolean {
  return e instanceof Error && (e.name === 'QuotaExceededError' || /quota/i.test(e.message));
}

export class DatasetStorage {
  constructor(
    private readonly db: IDBPDatabase<StorageSchema>,
    readonly sources: SourceStore,
  ) {}

  /** OPFS for bytes when available, else IndexedDB; the manifest is always in IndexedDB. */
  static async open(options: { useOpfs?: boolean } = {}): Promise<DatasetStorage> {
    const db = await workspaceView<StorageSchema>().open();
    const opfs = options.useOpfs === false ? undefined : await OpfsSourceStore.open();
    return new DatasetStorage(db, opfs ?? new IndexedDbSourceStore(db));
  }

  async entries(): Promise<ManifestEntry[]> {
    const all = await this.db.getAll('manifest');
    return all.sort((a, b) => a.loadedAt - b.loadedAt);
  }

  async putEntry(entry: ManifestEntry): Promise<void> {
    await this.db.put('manifest', entry);
  }

  /**
   * Points a dataset at its new snapshot and deletes the one it replaces; false (and the new
   * bytes deleted) when the dataset is no longer saved.
   */
  async setSnapshot(name: string, snapshotKey: string, columns: ColumnInfo[], rowCount: number): Promise<boolean> {
    const entry = await this.db.get('manifest', name);
    if (!entry) {
      await this.sources.delete(snapshotKey);
      return false;
    }
    await this.db.put('manifest', { ...entry, snapshotKey, columns, rowCount });
    if (entry.snapshotKey && entry.snapshotKey !== snapshotKey) await this.sources.delete(entry.snapshotKey);
    return true;
  }

  async rename(from: string, to: string): Promise<void> {
    const entry = await this.db.get('manifest', from);
    if (!entry) return;
    const tx = this.db.transaction('manifest', 'readwrite');
    await tx.store.delete(from);
    await tx.store.put({ ...entry, name: to });
    await tx.done;
  }

  /** Forgets a dataset; its bytes go too once no other table (sheet) uses them. */
  async remove(name: string): Promise<void> {
    const entry = await this.db.get('manifest', name);
    if (!entry) return;
    await this.db.delete('manifest', name);
    if (entry.snapshotKey) await this.sources.delete(entry.snapshotKey);
    const others = (await this.db.getAll('manifest')).some((e) => e.sourceKey === entry.sourceKey);
    if (!others) await this.sources.delete(entry.sourceKey);
  }

  /** Deletes stored bytes that no manifest entry points at (left by an interrupted load). */
  async sweep(keepKeys: Set<string>): Promise<void> {
    for (const key of await this.sources.keys()) if (!keepKeys.has(key)) await this.sources.delete(key);
  }
}
