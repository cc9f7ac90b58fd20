/** Small display helpers for the step trace and answer card. */
import type { JsonValue, PlotlyFigure } from '../../protocol/python';

/** JSON for a `<pre>`, shortened past `max` characters with a note saying so. */
export function prettyJson(value: unknown, max = 4000): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value, null, 2) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters)` : text;
}

export function formatMs(ms: number | undefined): string {
  if (ms === undefined) return '';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export interface TableOutput {
  columns: string[];
  rows: unknown[][];
  row_count: number;
  truncated: boolean;
}

/** A `run_sql`-shaped output (`{columns:[{name}], rows}`), or null for anything else. */
export function asTable(output: unknown): TableOutput | null {
  if (typeof output !== 'object' || output === null) return null;
  const o = output as Record<string, unknown>;
  if (!Array.isArray(o.columns) || !Array.isArray(o.rows)) return null;
  const columns = o.columns.map((c: unknown) =>
    typeof c === 'object' && c !== null && typeof (c as Record<string, unknown>).name === 'string' ? ((c as Record<string, unknown>).name as string) : String(c),
  );
  const rows = o.rows.filter((r): r is unknown[] => Array.isArray(r));
  return {
    columns,
    rows,
    row_count: typeof o.row_count === 'number' ? o.row_count : rows.length,
    truncated: o.truncated === true,
  };
}

export function cellText(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export interface StepCode {
  language: 'sql' | 'python';
  code: string;
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The code a tool call ran (run_sql's and create_chart's SQL, run_python's code), if any. */
export function stepCode(tool: string, args: unknown): StepCode | null {
  const a = record(args);
  if (!a) return null;
  if ((tool === 'run_sql' || tool === 'create_chart') && typeof a.sql === 'string') return { language: 'sql', code: a.sql };
  if (tool === 'run_python' && typeof a.code === 'string') return { language: 'python', code: a.code };
  return null;
}

/** Whether a snippet reads as Python rather than SQL (validate_results' `code` can be either). */
export function looksLikePython(code: string): boolean {
  return /(^|\n)\s*(import |from \S+ import |def |print\(|for .+ in .+:|if .+:\s*$)|\bsql\(|(^|\n)\s*(result|fig)\s*=/m.test(code);
}

export interface Verdict {
  is_valid: boolean;
  confidence: number;
  issues: string[];
  suggestions: string[];
}

/** A validation report (`validate_results` output), or null for anything else. */
export function asVerdict(output: unknown): Verdict | null {
  const o = record(output);
  if (!o || typeof o.is_valid !== 'boolean' || typeof o.confidence !== 'number') return null;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
  return { is_valid: o.is_valid, confidence: o.confidence, issues: strings(o.issues), suggestions: strings(o.suggestions) };
}

export interface PythonOutput {
  stdout: string;
  result: unknown;
  figure: { data: unknown[]; layout?: Record<string, unknown>; config?: Record<string, unknown> } | null;
}

/** A `run_python` output (`{stdout, result, figure?}`), or null for anything else. */
export function asPythonOutput(output: unknown): PythonOutput | null {
  const o = record(output);
  if (!o || typeof o.stdout !== 'string' || !('result' in o)) return null;
  const f = record(o.figure);
  const figure =
    f && Array.isArray(f.data)
      ? { data: f.data as unknown[], ...(record(f.layout) ? { layout: record(f.layout) ?? {} } : {}), ...(record(f.config) ? { config: record(f.config) ?? {} } : {}) }
      : null;
  return { stdout: o.stdout, result: o.result, figure };
}

export interface ProfileRow {
  column: string;
  dtype: string;
  missing: string;
  unique: string;
  min: string;
  max: string;
  mean: string;
}

export interface ProfileOutput {
  dataset: string;
  row_count: number | null;
  rows: ProfileRow[];
  missing_columns: string[];
  issues: string[];
}

/** A `profile_data` output as one row per column, or null for anything else. */
export function asProfile(output: unknown): ProfileOutput | null {
  const o = record(output);
  const quality = record(o?.quality);
  if (!o || !quality) return null;
  const text = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'number' ? String(Number(v.toPrecision(6))) : String(v));
  const rows = Object.entries(quality).map(([column, q]) => {
    const c = record(q) ?? {};
    return { column, dtype: text(c.dtype), missing: text(c.missing), unique: text(c.unique), min: text(c.min), max: text(c.max), mean: text(c.mean) };
  });
  const strings = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  return {
    dataset: typeof o.dataset === 'string' ? o.dataset : '',
    row_count: typeof o.row_count === 'number' ? o.row_count : null,
    rows,
    missing_columns: strings(o.columns_missing),
    issues: strings(o.issues),
  };
}

const CODE_TOOLS = new Set(['run_sql', 'run_python', 'create_chart']);

const STATUS_LABELS: Record<string, string> = {
  validating: 'Validating',
  retrying: 'Retrying',
  loop_detected: 'Loop detected',
  budget_exhausted: 'Step budget used up',
  summarizing: 'Summarising earlier turns',
  provider_adjusted: 'Adjusted to the endpoint',
  context_fitted: 'Knowledge fitted to the context',
};

/** A status step's name for people (the trace and the exported reports); unknown ones as sent. */
export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status;
}

/**
 * For each step, how many code attempts in a row had failed just before it (0 for a first try):
 * a code step after a failed one is a retry, until a code step succeeds. Other steps get 0.
 */
export function retryCounts(steps: readonly { kind: string; tool?: string; state?: string }[]): number[] {
  let failedRun = 0;
  return steps.map((s) => {
    if (s.kind !== 'tool' || !s.tool || !CODE_TOOLS.has(s.tool)) return 0;
    const n = failedRun;
    if (s.state === 'failed') failedRun++;
    else if (s.state === 'done') failedRun = 0;
    return n;
  });
}

export interface ResultGrid {
  columns: { name: string; type: string }[];
  rows: (string | number | boolean | null)[][];
  row_count: number;
  truncated: boolean;
}

/**
 * The final answer's `result` as grid data: a run_sql result, or the table a run_python run set
 * as `result`. Column types come from SQL; for Python they are inferred (numbers right-aligned).
 */
export function resultGrid(result: unknown): ResultGrid | null {
  const direct = asTable(result);
  const python = direct ? null : asPythonOutput(result);
  const table = direct ?? (python ? asTable(python.result) : null);
  if (!table || table.columns.length === 0) return null;
  const source = record(direct ? result : python?.result);
  const declared = Array.isArray(source?.columns) ? source.columns : [];
  const columns = table.columns.map((name, i) => {
    const c = record(declared[i]);
    if (c && typeof c.type === 'string') return { name, type: c.type };
    const numeric = table.rows.length > 0 && table.rows.every((r) => r[i] === null || r[i] === undefined || typeof r[i] === 'number');
    return { name, type: numeric ? 'DOUBLE' : 'VARCHAR' };
  });
  const rows = table.rows.map((r) =>
    columns.map((_, i) => {
      const v = r[i];
      return v === null || v === undefined || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? (v ?? null) : JSON.stringify(v);
    }),
  );
  return { columns, rows, row_count: table.row_count, truncated: table.truncated };
}

/** A figure as the chart component takes it: data traces as objects, a layout object. */
export function chartFigure(figure: { data: unknown[]; layout?: unknown; config?: unknown }): PlotlyFigure {
  // Figures crossed the worker boundary as JSON (structured clone of parsed JSON), so their
  // values are JSON values; only the shape is checked here.
  const data = figure.data.filter((t): t is Record<string, JsonValue> => record(t) !== null);
  const layout = (record(figure.layout) ?? {}) as Record<string, JsonValue>;
  const config = record(figure.config) as Record<string, JsonValue> | null;
  return config ? { data, layout, config } : { data, layout };
}
