/**
 * A memory snapshot of a freshly started interpreter, so later starts (a reload, Restart Python,
 * a crash) skip CPython's own start-up: Pyodide's `_makeSnapshot` / `_loadSnapshot`. The snapshot
 * is the wasm heap of one Pyodide build, taken before any of our JS is handed to Python, so it
 * holds nothing of a session; the worker redoes its hookups (output, interrupt, `sql()`) after
 * every start. It lives in the origin's private file system, one file per build: the key names
 * the hashed core files, and a snapshot Pyodide refuses (another build id) is dropped and made
 * again. Those loadPyodide options are private API, which is why every failure here falls back
 * to a normal start.
 */

/** Where snapshots are kept; `undefined` everywhere when the browser has no OPFS. */
export interface SnapshotStore {
  read(key: string): Promise<Uint8Array | undefined>;
  /** Replaces any snapshot of another key: only the current build's is worth its megabytes. */
  write(key: string, bytes: Uint8Array): Promise<void>;
  drop(key: string): Promise<void>;
}

const DIR = 'engine-cache';
const PREFIX = 'pyodide-';

/**
 * Standard-library modules imported before the snapshot is taken: the prelude's own and the ones
 * analysis code reaches for first, so their import is in the snapshot rather than in a first run.
 * Pure Python, no JS: the snapshot must not hold references to this worker's objects.
 */
export const SNAPSHOT_IMPORTS = [
  'ast',
  'collections',
  'collections.abc',
  'csv',
  'datetime',
  'decimal',
  'functools',
  'importlib.util',
  'inspect',
  'io',
  'itertools',
  'json',
  'linecache',
  'math',
  'random',
  're',
  'statistics',
  'traceback',
] as const;

/** Bumped when what goes into a snapshot changes (SNAPSHOT_IMPORTS, the load options). */
const RECIPE = 1;

/** The file name for the build made of these core files (their URLs carry content hashes). */
export function snapshotKey(pyodideVersion: string, coreUrls: readonly string[]): string {
  const text = [RECIPE, pyodideVersion, ...SNAPSHOT_IMPORTS, ...coreUrls.map((u) => new URL(u).pathname)].join('\n');
  // FNV-1a, twice with different seeds: a stable, short name, not a security measure.
  const fnv = (seed: number) => {
    let h = seed;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
    return h.toString(16).padStart(8, '0');
  };
  return `${PREFIX}${pyodideVersion.replace(/[^\w.]/g, '_')}-${fnv(2166136261)}${fnv(0x9e3779b9)}.snapshot`;
}

/** The store over OPFS, or one that keeps nothing when OPFS is missing. */
export function opfsSnapshots(storage: StorageManager | undefined): SnapshotStore {
  const dir = async (): Promise<FileSystemDirectoryHandle | undefined> => {
    if (!storage?.getDirectory) return undefined;
    return (await storage.getDirectory()).getDirectoryHandle(DIR, { create: true });
  };
  return {
    async read(key) {
      try {
        const d = await dir();
        if (!d) return undefined;
        const file = await (await d.getFileHandle(key)).getFile();
        return file.size > 0 ? new Uint8Array(await file.arrayBuffer()) : undefined;
      } catch {
        return undefined;
      }
    },
    async write(key, bytes) {
      const d = await dir();
      if (!d) return;
      const stale: string[] = [];
      for await (const name of (d as FileSystemDirectoryHandle & { keys(): AsyncIterable<string> }).keys()) if (name.startsWith(PREFIX) && name !== key) stale.push(name);
      for (const name of stale) await d.removeEntry(name).catch(() => undefined);
      // Written under a temporary name and renamed, so a tab closed mid-write leaves no torn
      // file (a browser without `move` writes the final name directly).
      const probe = await d.getFileHandle(`${key}.partial`, { create: true });
      const movable = typeof (probe as { move?: unknown }).move === 'function';
      const handle = movable ? probe : await d.getFileHandle(key, { create: true });
      if (!movable) await d.removeEntry(`${key}.partial`).catch(() => undefined);
      const writable = await handle.createWritable();
      try {
        await writable.write(bytes as Uint8Array<ArrayBuffer>);
        await writable.close();
      } catch (e) {
        await writable.abort().catch(() => undefined);
        throw e;
      }
      if (movable) await (handle as FileSystemFileHandle & { move(name: string): Promise<void> }).move(key);
    },
    async drop(key) {
      await (await dir())?.removeEntry(key).catch(() => undefined);
    },
  };
}

/** The loadPyodide option that makes a start restore a snapshot, or able to take one. */
export type SnapshotOption = { _loadSnapshot: Uint8Array } | { _makeSnapshot: true };

/** The part of a started Pyodide this needs. */
interface Interpreter {
  runPython(code: string): unknown;
}

/**
 * Starts the interpreter from the saved snapshot when there is a usable one; otherwise starts it
 * normally, imports SNAPSHOT_IMPORTS and saves a snapshot for next time (written when `schedule`
 * runs it: the write must not slow this start). A snapshot Pyodide refuses is dropped.
 */
export async function startInterpreter<P extends Interpreter>(
  load: (option: SnapshotOption) => Promise<P>,
  snapshots: SnapshotStore,
  key: string,
  /** When to write a new snapshot (the worker defers it past its start); at once by default. */
  schedule: (write: () => void) => void = (write) => write(),
): Promise<{ interpreter: P; startedFrom: 'snapshot' | 'fresh' }> {
  const saved = await snapshots.read(key);
  if (saved) {
    try {
      return { interpreter: await load({ _loadSnapshot: saved }), startedFrom: 'snapshot' };
    } catch {
      await snapshots.drop(key);
    }
  }
  const interpreter = await load({ _makeSnapshot: true });
  interpreter.runPython(SNAPSHOT_IMPORTS.map((m) => `import ${m}`).join('\n'));
  const make = (interpreter as P & { makeMemorySnapshot?: () => Uint8Array }).makeMemorySnapshot;
  if (typeof make === 'function') {
    try {
      // Taken now (the heap must be as loadPyodide left it), written when `schedule` says.
      const bytes = make.call(interpreter);
      schedule(() => void snapshots.write(key, bytes).catch(() => snapshots.drop(key)));
    } catch {
      // No snapshot this time: the next start is a normal one, and tries again.
    }
  }
  return { interpreter, startedFrom: 'fresh' };
}
