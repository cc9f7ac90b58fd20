/**
 * The Python worker's logic: loads the self-hosted Pyodide, seals the sandbox, loads packages a
 * run imports, runs user code through the `_dataseer` runner and reports the outcome.
 */
import { loadPyodide, type PyodideAPI } from 'pyodide';
import pyodidePackage from 'pyodide/package.json';
import type { PyCallable, PyProxy } from 'pyodide/ffi';
import { SwappableClient } from '../../protocol/swappableClient';
import type { Handlers } from '../../protocol/rpcServer';
import { runQueryId, type DataEvent, type DataPeerRequests } from '../../protocol/data';
import type { PackageReport, PythonEvent, PythonInit, PythonRequests, RunOutcome, SqlPolicy } from '../../protocol/python';
import { pyodideAssets } from './assets';
import { decodeColumns } from './arrowColumns';
import { parseOutcome } from './outcome';
import { importIndex, isLockfile, networkMessage, onDemandPackages, packagesFor, wordClip, type LockfileLike } from './packages';
import { closeEmscriptenEscapes } from './escapes';
import { capWasmMemory, guardedFetch, lockFileUrls, safeJsGlobals, sealScope } from './sandbox';
import { OutputStream } from './stdio';
import { opfsSnapshots, snapshotKey, startInterpreter, type SnapshotOption } from './snapshot';
import preludeSource from './prelude.py?raw';
import { messageOf } from '../../shared/errors';

/** The interpreter's memory ceiling: past it, allocations fail with MemoryError. */
const HEAP_LIMIT_BYTES = 2 * 1024 ** 3;

/** How long after a full start the new memory snapshot is written. */
const SNAPSHOT_WRITE_DELAY_MS = 3000;

/** Rows `sql()` may bring into Python in one call. */
const SQL_MAX_ROWS = 2_000_000;

interface Runtime {
  pyodide: PyodideAPI;
  runner: PyProxy & { run: PyCallable; find_imports: PyCallable; importable: PyCallable };
  lock: LockfileLike;
  index: Map<string, string>;
  packageBaseUrl: string;
  interrupt: Int32Array | null;
  info: PythonRequests['init']['res'];
  heapBytes: () => number;
}

type CreateModule = NonNullable<NonNullable<Parameters<typeof loadPyodide>[0]>['createPyodideModule']>;

interface HeapView {
  HEAPU8: Uint8Array;
}

/** Query results as the Python side reads them (`res.error` is '' when the query worked). */
interface SqlReply {
  error: string;
  columns: string[];
  types: string[];
  values: ArrayLike<unknown>[];
  rowCount: number;
  truncated: boolean;
}

export interface EngineDeps {
  scope: typeof globalThis;
  emit: (event: PythonEvent) => void;
}

/** The version of the Pyodide JS package (its core files must match it). */
const PYODIDE_VERSION = pyodidePackage.version;


function pythonErrorOutcome(type: string, message: string, elapsedMs: number, restarted = false): RunOutcome {
  return { ok: false, error: { type, message, traceback: '' }, elapsedMs, restarted };
}

/** From a console, a refused change is one the SQL console can make (it asks first). */
function consoleHint(message: string): string {
  return message.startsWith('refused:') ? `${message}. Python does not change datasets; run the statement in the SQL console, which asks first.` : message;
}

/** `sql()` may scan a big table for minutes; listing and assessing answer at once. */
const dataTimeout = (type: keyof DataPeerRequests): number => (type === 'modelQuery' ? 10 * 60_000 : 60_000);

export function createEngine({ scope, emit }: EngineDeps): Handlers<PythonRequests> {
  let runtime: Promise<Runtime> | null = null;
  let data: SwappableClient<DataPeerRequests, DataEvent> | null = null;
  /** The data worker's dataset list as its events last said (null until the first). */
  let knownNames: string[] | null = null;
  const onDataEvent = (event: DataEvent) => {
    if (event.type === 'datasets') knownNames = event.datasets.map((d) => d.name);
  };
  /** What `sql()` may run during the current run. */
  let sqlPolicy: SqlPolicy = 'no-dataset-changes';
  let running = false;
  let runId = '';
  const stdout = new OutputStream({ emit: (text) => emit({ type: 'stdout', runId, text }) });
  const stderr = new OutputStream({ emit: (text) => emit({ type: 'stderr', runId, text }) });

  async function query(sql: string): Promise<SqlReply> {
    const empty = { columns: [], types: [], values: [], rowCount: 0, truncated: false };
    if (!data) return { ...empty, error: 'no data engine is connected' };
    // The data worker runs sql() as model SQL: one read-only statement, judged by DuckDB.
    // Named by the run (issue 37): a halt cancels this run's statement by id, never the page's.
    const outcome = await data.call('modelQuery', { sql, maxRows: SQL_MAX_ROWS, queryId: runQueryId('python', runId) });
    if (!outcome.ok) return { ...empty, error: sqlPolicy === 'read-only' ? outcome.message : consoleHint(outcome.message) };
    const decoded = decodeColumns(outcome.result.ipc, outcome.result.columns.map((c) => c.type));
    return { ...decoded, error: '', truncated: outcome.result.truncated };
  }

  async function start(init: PythonInit): Promise<Runtime> {
    const started = performance.now();
    const assets = pyodideAssets(scope.location.href);
    const realFetch = scope.fetch.bind(scope);
    const packageBaseUrl = new URL(init.packageBaseUrl, scope.location.href).href.replace(/\/?$/, '/');
    // Pyodide fetches through the global `fetch` at call time, so the guarded one is installed
    // before it loads: it maps the fixed core file names onto the bundler's hashed ones.
    // The package files it may fetch are filled in from the lock file below, before any package loads.
    const packageFiles = new Set<string>();
    const fetchImpl = guardedFetch(realFetch, { assets: assets.map, files: packageFiles }, scope.location.href);
    Object.defineProperty(scope, 'fetch', { value: fetchImpl, writable: true, configurable: true });

    capWasmMemory(HEAP_LIMIT_BYTES);
    const lockText = await (await fetchImpl(assets.lockfile)).text();
    const lock: unknown = JSON.parse(lockText);
    if (!isLockfile(lock)) throw new Error('pyodide-lock.json is not a lockfile');
    for (const url of lockFileUrls(Object.values(lock.packages), packageBaseUrl)) packageFiles.add(url);
    const asm = (await import(/* @vite-ignore */ assets.asmJs)) as { default: CreateModule };
    let heap: HeapView | null = null;

    const load = (snapshot: SnapshotOption) =>
      loadPyodide({
        indexURL: assets.indexURL,
        stdLibURL: assets.stdlib,
        lockFileContents: lockText,
        packageBaseUrl,
        // Wrapped to keep a handle on the module's heap, to report memory after each run.
        createPyodideModule: async (settings) => {
          const mod = (await asm.default(settings)) as unknown as HeapView;
          heap = mod;
          return mod as unknown as Awaited<ReturnType<CreateModule>>;
        },
        jsglobals: safeJsGlobals(scope),
        env: { HOME: '/home/pyodide' },
        ...snapshot,
      });
    // Taken before the scope is sealed (it removes navigator.storage); the store keeps no handle
    // Python can reach.
    const snapshots = opfsSnapshots(scope.navigator?.storage);
    const key = snapshotKey(PYODIDE_VERSION, [assets.asmJs, ...assets.map.values()]);
    // Timers are replaced when the scope is sealed: the write is scheduled with the real one, a
    // few seconds on, so 31 MB going to disk does not share the cores with the rest of the start.
    const later = scope.setTimeout.bind(scope);
    const { interpreter: pyodide, startedFrom } = await startInterpreter(load, snapshots, key, (write) => void later(write, SNAPSHOT_WRITE_DELAY_MS));
    pyodide.setStdout({ batched: (line: string) => stdout.writeLine(line) });
    pyodide.setStderr({ batched: (line: string) => stderr.writeLine(line) });
    let interrupt: Int32Array | null = null;
    if (init.interruptBuffer) {
      interrupt = new Int32Array(init.interruptBuffer);
      pyodide.setInterruptBuffer(interrupt);
    }

    pyodide.FS.mkdirTree('/lib/dataseer');
    pyodide.FS.writeFile('/lib/dataseer/_dataseer.py', preludeSource);
    const runner = pyodide.runPython('import sys\nsys.path.insert(0, "/lib/dataseer")\nimport _dataseer\n_dataseer') as Runtime['runner'];
    const setQuery = pyodide.runPython('lambda f: setattr(__import__("_dataseer"), "_query", f)') as PyCallable;
    setQuery((sql: string) => query(sql));
    setQuery.destroy();
    // One throwaway run pays the first-run import costs during warm-up, not in the user's run.
    await runner.run.callPromising('pass', []);

    sealScope(scope, fetchImpl);
    closeEmscriptenEscapes(scope, pyodide as unknown as Record<string, unknown>);
    pyodide.runPython('import _dataseer\n_dataseer._block_modules()');

    const pythonVersion = String(pyodide.runPython('import sys; sys.version.split()[0]'));
    const info = {
      pyodideVersion: pyodide.version,
      pythonVersion,
      startupMs: Math.round(performance.now() - started),
      startedFrom,
      packages: { loaded: Object.keys(pyodide.loadedPackages).sort(), onDemand: onDemandPackages(lock), packageBaseUrl },
    };
    const heapBytes = () => (heap as HeapView | null)?.HEAPU8.buffer.byteLength ?? 0;
    return { pyodide, runner, lock, index: importIndex(lock), packageBaseUrl, interrupt, info, heapBytes };
  }

  function report(rt: Runtime): PackageReport {
    return { loaded: Object.keys(rt.pyodide.loadedPackages).sort(), onDemand: onDemandPackages(rt.lock), packageBaseUrl: rt.packageBaseUrl };
  }

  /** Fetches what the code imports; an error outcome when something cannot be fetched. */
  async function ensurePackages(rt: Runtime, code: string, started: number): Promise<RunOutcome | null> {
    const imports = JSON.parse(String(rt.runner.find_imports(code))) as string[];
    const tops = [...new Set(imports.map((i) => i.split('.')[0] ?? i))];
    const importable = new Set(JSON.parse(String(rt.runner.importable(tops))) as string[]);
    const wanted = packagesFor(tops, rt.index, importable);
    if (wanted.length === 0) return null;
    emit({ type: 'loading', runId, packages: wanted });
    const problems: string[] = [];
    try {
      await rt.pyodide.loadPackage(wanted, {
        messageCallback: () => {},
        errorCallback: (msg: string) => problems.push(msg),
        checkIntegrity: true,
      });
    } catch (e) {
      problems.push(messageOf(e));
    }
    const loaded = new Set(Object.keys(rt.pyodide.loadedPackages));
    const missing = wanted.filter((p) => !loaded.has(p));
    emit({ type: 'packages', packages: report(rt) });
    if (missing.length === 0) return null;
    const detail = wordClip(problems.join(' ').replace(/\s+/g, ' ').trim(), 300) || undefined;
    return pythonErrorOutcome('ModuleNotFoundError', networkMessage(missing, rt.packageBaseUrl, detail), Math.round(performance.now() - started));
  }

  /**
   * The datasets' names for `datasets`: the data worker sends its list when the port connects and
   * each change after, so a run asks nothing before it starts (`sql()` is its one round trip).
   */
  async function datasetNames(): Promise<string[]> {
    if (knownNames) return knownNames;
    if (!data) return [];
    try {
      return (await data.call('list', {})).map((d) => d.name);
    } catch {
      return [];
    }
  }

  /** A halt that arrived before the user's code began (it would raise inside our own helpers). */
  function haltedEarly(rt: Runtime, started: number): RunOutcome | null {
    if (!rt.interrupt || Atomics.load(rt.interrupt, 0) === 0) return null;
    Atomics.store(rt.interrupt, 0, 0);
    return pythonErrorOutcome('KeyboardInterrupt', 'halted before the code started', Math.round(performance.now() - started));
  }

  async function run(rt: Runtime, code: string, session: string | undefined): Promise<RunOutcome> {
    const started = performance.now();
    const early = haltedEarly(rt, started);
    if (early) return early;
    const missing = await ensurePackages(rt, code, started);
    if (missing) return missing;
    const names = await datasetNames();
    // The client clears the buffer before it sends `run` and starts its clock then, so a halt can
    // land while packages load or datasets are listed (slow under load). Clearing it here would
    // erase that halt and leave the loop running until the worker is terminated.
    const halted = haltedEarly(rt, started);
    if (halted) return halted;
    // The switch that makes the eval loop look at the buffer is a byte in the wasm heap; set it
    // again where the run starts, so nothing since the start (a snapshot restore, a package's
    // own set-up) can have left the loop deaf to the time limit.
    if (rt.interrupt) rt.pyodide.setInterruptBuffer(rt.interrupt);
    let report: string;
    try {
      report = String(await rt.runner.run.callPromising(code, names, session ?? null));
    } catch (e) {
      // Only the runner's own machinery throws here (user errors come back as a report), so the
      // interpreter is not to be trusted any more.
      const message = messageOf(e);
      return pythonErrorOutcome('InternalError', message.slice(-2000), Math.round(performance.now() - started), true);
    } finally {
      stdout.flush();
      stderr.flush();
    }
    return parseOutcome(report, Math.round(performance.now() - started));
  }

  return {
    async init(req) {
      runtime ??= start(req);
      try {
        return { result: (await runtime).info };
      } catch (e) {
        runtime = null;
        throw e;
      }
    },
    connectData({ port }) {
      // A data worker that restarted hands a new port: calls on the old one fail clearly.
      // Its list comes again on the new port.
      knownNames = null;
      if (data) data.replace(port);
      else data = new SwappableClient<DataPeerRequests, DataEvent>(port, { name: 'data engine', timeoutMs: dataTimeout, onEvent: onDataEvent });
      return { result: {} };
    },
    async run({ runId: id, code, sqlPolicy: policy, session }) {
      if (!runtime) throw new Error('Python is not started');
      if (running) throw new Error('a Python run is already in progress');
      const rt = await runtime;
      running = true;
      runId = id;
      sqlPolicy = policy ?? 'no-dataset-changes';
      try {
        const outcome = await run(rt, code, session);
      return { result: { ...outcome, heapBytes: rt.heapBytes() } };
      } finally {
        running = false;
      }
    },
    async packages() {
      if (!runtime) throw new Error('Python is not started');
      return { result: report(await runtime) };
    },
  };
}
