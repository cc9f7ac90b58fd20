/**
 * The notebook as data: an ordered list of SQL, Python and Markdown cells, each with its last
 * output. Pure functions over plain objects, so the same shape is rendered, stored in IndexedDB
 * and exported to `.ipynb`.
 */
import type { JsonValue, PlotlyFigure, PyError, PyResult } from '../../protocol/python';

export type CellKind = 'sql' | 'python' | 'markdown';

export const CELL_KIND_LABEL: Record<CellKind, string> = { sql: 'SQL', python: 'Python', markdown: 'Markdown' };

/** At most this many rows of a SQL cell's result are kept with the notebook (all are shown). */
export const STORED_ROWS = 500;

export type CellOutput =
  | { kind: 'table'; columns: string[]; types: string[]; rows: JsonValue[][]; rowCount: number; truncated: boolean; elapsedMs: number }
  | { kind: 'python'; stdout: string; stderr: string; result?: PyResult; figure?: PlotlyFigure; warnings: string[]; error?: PyError; elapsedMs: number }
  | { kind: 'error'; message: string };

export interface Cell {
  id: string;
  kind: CellKind;
  source: string;
  collapsed: boolean;
  output: CellOutput | null;
  /** Increases with each run of any cell, as Jupyter's execution count; null before a run. */
  runCount: number | null;
}

export interface NotebookDoc {
  id: string;
  title: string;
  cells: Cell[];
  /** The last run number handed out. */
  runs: number;
  updatedAt: string;
}

export function newCell(kind: CellKind, source = '', id: string = crypto.randomUUID()): Cell {
  return { id, kind, source, collapsed: false, output: null, runCount: null };
}

export function emptyNotebook(id = 'main'): NotebookDoc {
  return { id, title: 'Notebook', cells: [], runs: 0, updatedAt: new Date(0).toISOString() };
}

/** Inserts after `afterId` (at the end when absent or unknown). */
export function insertCell(cells: readonly Cell[], cell: Cell, afterId?: string): Cell[] {
  const at = afterId === undefined ? -1 : cells.findIndex((c) => c.id === afterId);
  if (at < 0) return [...cells, cell];
  return [...cells.slice(0, at + 1), cell, ...cells.slice(at + 1)];
}

/** Moves a cell one place up (-1) or down (+1); unchanged at an end. */
export function moveCell(cells: readonly Cell[], id: string, by: -1 | 1): Cell[] {
  const from = cells.findIndex((c) => c.id === id);
  const to = from + by;
  if (from < 0 || to < 0 || to >= cells.length) return [...cells];
  const next = [...cells];
  const [cell] = next.splice(from, 1);
  if (cell) next.splice(to, 0, cell);
  return next;
}

export function removeCell(cells: readonly Cell[], id: string): Cell[] {
  return cells.filter((c) => c.id !== id);
}

/** The cell's position among cells of its kind, from 1: names "SQL cell 2" stay stable per kind. */
export function cellName(cells: readonly Cell[], cell: Cell): string {
  const n = cells.filter((c) => c.kind === cell.kind).findIndex((c) => c.id === cell.id) + 1;
  return `${CELL_KIND_LABEL[cell.kind]} cell ${n}`;
}

/** A result kept for storage: at most STORED_ROWS rows (the rest is re-run away). */
export function storedOutput(output: CellOutput | null): CellOutput | null {
  if (!output || output.kind !== 'table' || output.rows.length <= STORED_ROWS) return output;
  return { ...output, rows: output.rows.slice(0, STORED_ROWS), truncated: true };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads a stored notebook back; anything malformed is dropped rather than trusted. */
export function parseNotebookDoc(v: unknown): NotebookDoc | null {
  if (!isRecord(v) || typeof v.id !== 'string' || !Array.isArray(v.cells)) return null;
  const cells: Cell[] = [];
  for (const c of v.cells) {
    if (!isRecord(c) || typeof c.id !== 'string' || typeof c.source !== 'string') continue;
    if (c.kind !== 'sql' && c.kind !== 'python' && c.kind !== 'markdown') continue;
    cells.push({
      id: c.id,
      kind: c.kind,
      source: c.source,
      collapsed: c.collapsed === true,
      output: isRecord(c.output) && typeof c.output.kind === 'string' ? (c.output as unknown as CellOutput) : null,
      runCount: typeof c.runCount === 'number' ? c.runCount : null,
    });
  }
  return {
    id: v.id,
    title: typeof v.title === 'string' ? v.title : 'Notebook',
    cells,
    runs: typeof v.runs === 'number' ? v.runs : 0,
    updatedAt: typeof v.updatedAt === 'string' ? v.updatedAt : new Date(0).toISOString(),
  };
}
