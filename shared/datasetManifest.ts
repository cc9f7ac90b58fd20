/**
 * The saved datasets' manifest: one IndexedDB database written by the data worker (storage.ts
 * keeps the bytes and snapshots beside it) and read by the page at its first paint, so it can name
 * what is coming back while the engine is still starting.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { LoadReport } from '../protocol/loadReport';
import type { ColumnInfo, DataFormat } from '../protocol/data';

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

export interface DatasetsDb extends DBSchema {
  manifest: { key: string; value: ManifestEntry };
  sources: { key: string; value: Blob };
}

export const DATASETS_DB = 'dataseer-datasets';

/**
 * The saved datasets' manifest, read without starting the engine: the page names what is coming
 * back from its first paint, while the data worker is still starting. Empty when unreadable.
 */
export async function savedEntries(): Promise<ManifestEntry[]> {
  try {
    const db = await openDatasetsDb();
    try {
      return (await db.getAll('manifest')).sort((a, b) => a.loadedAt - b.loadedAt);
    } finally {
      db.close();
    }
  } catch {
    return [];
  }
}

export function openDatasetsDb(): Promise<IDBPDatabase<DatasetsDb>> {
  return openDB<DatasetsDb>(DATASETS_DB, 1, {
    upgrade(db) {
      if (!db.objectStoreNames.contains('manifest')) db.createObjectStore('manifest', { keyPath: 'name' });
      if (!db.objectStoreNames.contains('sources')) db.createObjectStore('sources');
    },
  });
}
