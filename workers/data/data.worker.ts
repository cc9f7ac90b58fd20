/// <reference lib="webworker" />
/**
 * The data worker's entry: DuckDB-WASM (nested worker), the format readers and browser storage,
 * wired into the DataHost and served over the worker's own endpoint.
 */
import type { DataEvent, DataRequests } from '../../protocol/data';
import { serve } from '../../protocol/rpcServer';
import { bootDuckDB } from './engine/duckdbBoot';
import { receiveDuckDBPort } from './engine/duckdbPort';
import { DataHost } from './host/host';
import { footprintCeiling, memoryLimitBytes } from './engine/memoryBudget';
import { convertArrow } from './loaders/arrow';
import { convertExcel, listExcelSheets } from './loaders/excel';
import { convertJson } from './loaders/json';
import { convertParquet } from './loaders/parquet';
import { initParquetWasm } from './loaders/parquetWasm';
import { DatasetStorage } from './host/storage';
import { warmUpEngine } from './loaders/warmUp';
import { WORKSPACE_DATA_WORKER } from '../../protocol/workspace';

/** The lock that makes one tab the writer of the saved datasets (held for this worker's life). */
const WRITER_LOCK = 'dataseer-dataset-storage';
const WAIT_FOR_LOCK_MS = 1500;

/**
 * Whether this tab writes the saved datasets. When another tab holds the lock, this one also
 * queues for it, and `whenFreed` says when the other tab has closed (this tab then holds the lock
 * but keeps to read-only until it is reloaded, since what it restored may be out of date).
 */
function claimWrites(whenFreed: () => void): Promise<boolean> {
  const locks = (self.navigator as Navigator & { locks?: LockManager }).locks;
  // No Web Locks (very old browsers): one tab is the usual case, so write as before.
  if (!locks) return Promise.resolve(true);
  // Held until this worker ends (the tab closes or reloads, or the worker is replaced).
  const holdForever = () => new Promise<void>(() => {});
  return new Promise((resolve) => {
    // A reload's old worker may take a moment to let go: wait a little before deciding that
    // another tab holds it.
    locks
      .request(WRITER_LOCK, { signal: AbortSignal.timeout(WAIT_FOR_LOCK_MS) }, () => {
        resolve(true);
        return holdForever();
      })
      .catch(() => {
        resolve(false);
        void locks
          .request(WRITER_LOCK, () => {
            whenFreed();
            return holdForever();
          })
          .catch(() => undefined);
      });
  });
}

// DuckDB starts with the worker, not when the page's `init` arrives: its worker, download and
// compilation overlap the page's own start-up. A failure is reported through `init`.
// The page may have started DuckDB's worker already and sends its port first (duckdbPort.ts).
// DuckDB's memory_limit from the device (memoryBudget.ts); the footprint check uses the same budget.
const memoryLimit = memoryLimitBytes((self.navigator as WorkerNavigator & { deviceMemory?: number }).deviceMemory);
const booting = receiveDuckDBPort(self).then((port) => bootDuckDB(port, memoryLimit));
booting.catch(() => {});

// A benchmark's workspace (src/eval/bench) is a data worker of its own that neither restores nor
// saves: its datasets never mix with the user's and end with it. Its name says so at spawn.
const workspace = self.name === WORKSPACE_DATA_WORKER;

const host = new DataHost({
  boot: () => booting,
  claimWrites: workspace ? () => Promise.resolve(false) : claimWrites,
  memoryCeilingBytes: footprintCeiling(memoryLimit),
  openStorage: workspace ? () => Promise.resolve(undefined) : () => DatasetStorage.open(),
  readers: { parquet: convertParquet, json: convertJson, arrow: convertArrow, excel: convertExcel, listExcelSheets },
  persisted: async () => (await navigator.storage?.persisted?.()) ?? false,
  warmUp: async (engine) => {
    await warmUpEngine(engine);
    // The Parquet reader's own wasm, compiled now rather than in the first Parquet load; it does
    // not hold DuckDB's queue. A failure is retried by that load, which reports it.
    void initParquetWasm().catch(() => undefined);
  },
});

const { emit } = serve<DataRequests, DataEvent>(self, host.handlers());
host.addListener(emit);
