/**
 * The notebook's state and actions: cells added, edited, moved, collapsed, deleted and run, the
 * whole saved to IndexedDB. SQL cells run in DuckDB (never changing a dataset: that is the SQL
 * console's, which asks first); Python cells share one session, the notebook's own namespace,
 * as cells of a Jupyter kernel do.
 */
import { messageOf } from '../../shared/errors';
import type { CellValue } from '../../shared/arrowDecode';
import type { JsonValue } from '../../protocol/python';
import type { DataClient } from '../data/DataClient.svelte';
import { textOf, type PythonClient } from '../python/PythonClient.svelte';
import { emptyNotebook, insertCell, moveCell, newCell, removeCell, type Cell, type CellKind, type CellOutput, type NotebookDoc } from './model';
import type { NotebookStore } from './store';

export interface NotebookDeps {
  data: Pick<DataClient, 'query' | 'assess' | 'cancelQuery' | 'newQueryId'>;
  python: Pick<PythonClient, 'run' | 'stop' | 'restart'>;
  store: NotebookStore;
  /** Rows a SQL cell shows. */
  maxRows?: number;
}

const SAVE_DELAY_MS = 400;

export const notebookSession = (id: string): string => `notebook:${id}`;

export class NotebookController {
  doc = $state<NotebookDoc>(emptyNotebook());
  loaded = $state(false);
  /** The cell running now, and the ones queued behind it (Run all). */
  running = $state<string | null>(null);
  queued = $state<string[]>([]);
  /** Something the notebook as a whole has to say (a failed save, a restart). */
  notice = $state<string | null>(null);
  /** The cell to focus after an add (the view reads and clears it). */
  focusRequest = $state<string | null>(null);
  readonly #deps: NotebookDeps;
  #saveTimer: ReturnType<typeof setTimeout> | null = null;
  #runId: string | null = null;
  #stopAll = false;
  /** The running SQL cell's query id, which its Stop cancels. */
  #queryId: string | null = null;

  constructor(deps: NotebookDeps) {
    this.#deps = deps;
  }

  async load(): Promise<void> {
    try {
      const stored = await this.#deps.store.load(this.doc.id);
      // Cells added before the stored copy arrived are kept after it.
      if (stored) this.doc = { ...stored, cells: [...stored.cells, ...this.doc.cells] };
    } catch (e) {
      this.notice = `The saved notebook could not be read: ${messageOf(e)}`;
    }
    this.loaded = true;
  }

  cell(id: string): Cell | undefined {
    return this.doc.cells.find((c) => c.id === id);
  }

  add(kind: CellKind, source = '', afterId?: string): string {
    const cell = newCell(kind, source);
    this.doc.cells = insertCell(this.doc.cells, cell, afterId);
    this.focusRequest = cell.id;
    this.#changed();
    return cell.id;
  }

  /** Replaces all cells (an imported notebook); outputs start empty. */
  replaceCells(cells: Cell[]): void {
    this.doc.cells = cells;
    this.#changed(true);
  }

  edit(id: string, source: string): void {
    const cell = this.cell(id);
    if (!cell || cell.source === source) return;
    cell.source = source;
    this.#changed();
  }

  move(id: string, by: -1 | 1): void {
    this.doc.cells = moveCell(this.doc.cells, id, by);
    this.#changed(true);
  }

  remove(id: string): void {
    if (this.running === id) return;
    this.doc.cells = removeCell(this.doc.cells, id);
    this.queued = this.queued.filter((q) => q !== id);
    this.#changed(true);
  }

  toggle(id: string): void {
    const cell = this.cell(id);
    if (!cell) return;
    cell.collapsed = !cell.collapsed;
    this.#changed(true);
  }

  get busy(): boolean {
    return this.running !== null || this.queued.length > 0;
  }

  /** Runs one cell; false when it failed (Run all stops there). */
  async run(id: string): Promise<boolean> {
    const cell = this.cell(id);
    if (!cell || this.running) return false;
    if (cell.kind === 'markdown') return true;
    this.running = id;
    this.doc.runs += 1;
    const count = this.doc.runs;
    let output: CellOutput;
    try {
      output = cell.kind === 'sql' ? await this.#runSql(cell.source) : await this.#runPython(cell);
    } catch (e) {
      output = { kind: 'error', message: messageOf(e) };
    } finally {
      this.running = null;
      this.#runId = null;
    }
    const now = this.cell(id);
    if (now) {
      now.output = output;
      now.runCount = count;
    }
    this.#changed(true);
    return !(output.kind === 'error' || (output.kind === 'python' && output.error));
  }

  /** Runs every code cell from the top, stopping at the first that fails (as Jupyter does). */
  async runAll(): Promise<void> {
    if (this.busy) return;
    this.#stopAll = false;
    this.queued = this.doc.cells.filter((c) => c.kind !== 'markdown').map((c) => c.id);
    while (this.queued.length > 0 && !this.#stopAll) {
      const [next, ...rest] = this.queued;
      this.queued = rest;
      if (next && !(await this.run(next))) break;
    }
    this.queued = [];
  }

  /** Stops the running cell and whatever Run all had queued. */
  stop(): void {
    this.#stopAll = true;
    this.queued = [];
    const cell = this.running ? this.cell(this.running) : undefined;
    if (cell?.kind === 'python' && this.#runId) this.#deps.python.stop(this.#runId);
    // The cell's own query only (issue 37): never a profile or a load report fix running meanwhile.
    if (cell?.kind === 'sql' && this.#queryId) void this.#deps.data.cancelQuery(this.#queryId).catch(() => undefined);
  }

  async restartPython(): Promise<void> {
    this.notice = null;
    try {
      await this.#deps.python.restart();
      this.notice = 'Python restarted: the notebook’s variables, imports and functions were cleared. Run the cells again to define them.';
    } catch (e) {
      this.notice = `Python could not restart: ${messageOf(e)}`;
    }
  }

  async #runSql(sql: string): Promise<CellOutput> {
    const text = sql.trim();
    if (!text) return { kind: 'error', message: 'The cell is empty.' };
    const risk = await this.#deps.data.assess(text);
    if (risk.destructive) {
      return { kind: 'error', message: `This would change the dataset(s) ${risk.datasets.join(', ') || 'in it'}. Run such statements in the SQL console, which asks first.` };
    }
    const queryId = this.#deps.data.newQueryId();
    this.#queryId = queryId;
    const outcome = await this.#deps.data.query(text, this.#deps.maxRows ?? 10_000, queryId).finally(() => {
      if (this.#queryId === queryId) this.#queryId = null;
    });
    if (!outcome.ok) return { kind: 'error', message: outcome.message };
    const r = outcome.result;
    return {
      kind: 'table',
      columns: r.columns.map((c) => c.name),
      types: r.columns.map((c) => c.type),
      rows: r.rows as CellValue[][] as JsonValue[][],
      rowCount: r.rowCount,
      truncated: r.truncated,
      elapsedMs: r.elapsedMs,
    };
  }

  async #runPython(cell: Cell): Promise<CellOutput> {
    const runId = crypto.randomUUID();
    this.#runId = runId;
    // Output streams into the cell while it runs.
    const live: CellOutput & { kind: 'python' } = { kind: 'python', stdout: '', stderr: '', warnings: [], elapsedMs: 0 };
    cell.output = live;
    const view = cell.output as CellOutput & { kind: 'python' };
    const done = await this.#deps.python.run(cell.source, {
      runId,
      background: true,
      session: notebookSession(this.doc.id),
      onOutput: (chunk) => {
        view[chunk.stream] += chunk.text;
      },
    });
    const o = done.outcome;
    const base = { kind: 'python' as const, stdout: textOf(done.output, 'stdout'), stderr: textOf(done.output, 'stderr'), elapsedMs: o.elapsedMs };
    if (!o.ok) return { ...base, warnings: [], error: o.error };
    return { ...base, warnings: o.warnings, ...(o.result ? { result: o.result } : {}), ...(o.figure ? { figure: o.figure } : {}) };
  }

  #changed(now = false): void {
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a timestamp string, not a reactive date
    this.doc.updatedAt = new Date().toISOString();
    if (this.#saveTimer) clearTimeout(this.#saveTimer);
    this.#saveTimer = setTimeout(() => void this.flush(), now ? 0 : SAVE_DELAY_MS);
  }

  /** The notebook as plain data (no reactive proxies), to store or export. */
  snapshot(): NotebookDoc {
    return $state.snapshot(this.doc as unknown) as NotebookDoc;
  }

  /** Writes the notebook now (also called before the page goes away). */
  async flush(): Promise<void> {
    if (this.#saveTimer) clearTimeout(this.#saveTimer);
    this.#saveTimer = null;
    try {
      await this.#deps.store.save(this.snapshot());
    } catch (e) {
      this.notice = `The notebook could not be saved in this browser: ${messageOf(e)}`;
    }
  }
}
