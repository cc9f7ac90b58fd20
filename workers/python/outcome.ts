/**
 * Turns the runner's JSON report into the boundary's `RunOutcome`, validating every field:
 * the report is built by Python from user values, so nothing in it is trusted by shape.
 */
import { sanitiseFigureWithNote } from '../../shared/figureSafety';
import type { JsonValue, PlotlyFigure, PyError, PyResult, RunOutcome } from '../../protocol/python';
import { trimTraceback } from './traceback';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isJson(v: unknown, depth = 0): v is JsonValue {
  if (depth > 64) return false;
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every((x) => isJson(x, depth + 1));
  if (isRecord(v)) return Object.values(v).every((x) => isJson(x, depth + 1));
  return false;
}

export function parseResult(v: unknown): PyResult {
  if (!isRecord(v)) return { kind: 'repr', text: String(v) };
  switch (v.kind) {
    case 'table': {
      const columns = Array.isArray(v.columns) ? v.columns.map(String) : [];
      const rows = Array.isArray(v.rows) ? v.rows.filter((r): r is JsonValue[] => Array.isArray(r) && isJson(r)) : [];
      const rowCount = typeof v.rowCount === 'number' ? v.rowCount : rows.length;
      return { kind: 'table', columns, rows, rowCount, truncated: rowCount > rows.length };
    }
    case 'scalar':
      if (typeof v.value === 'number' || typeof v.value === 'string' || typeof v.value === 'boolean') {
        return { kind: 'scalar', value: v.value, repr: typeof v.repr === 'string' ? v.repr : String(v.value) };
      }
      break;
    case 'json':
      if (isJson(v.value)) return { kind: 'json', value: v.value };
      break;
    case 'repr':
      if (typeof v.text === 'string') return { kind: 'repr', text: v.text };
      break;
  }
  return { kind: 'repr', text: JSON.stringify(v) };
}

/** A figure in Plotly's JSON form: `{data: [...], layout?: {...}}`; a bare trace list is accepted. */
export function parseFigure(v: unknown): { figure: PlotlyFigure; note?: string } | string {
  const fig = Array.isArray(v) ? { data: v } : v;
  if (!isRecord(fig)) return 'fig must be a dict like {"data": [...], "layout": {...}}';
  if (!Array.isArray(fig.data) || !fig.data.every((t) => isRecord(t) && isJson(t))) {
    return 'fig["data"] must be a list of trace dicts';
  }
  if (fig.layout !== undefined && !(isRecord(fig.layout) && isJson(fig.layout))) return 'fig["layout"] must be a dict';
  const out: PlotlyFigure = {
    data: fig.data as Record<string, JsonValue>[],
    layout: (fig.layout as Record<string, JsonValue> | undefined) ?? {},
  };
  if (isRecord(fig.config) && isJson(fig.config)) out.config = fig.config as Record<string, JsonValue>;
  if (Array.isArray(fig.frames) && isJson(fig.frames)) out.frames = fig.frames;
  return sanitiseFigureWithNote(out);
}

export function parseError(v: unknown): PyError {
  if (!isRecord(v)) return { type: 'Error', message: String(v), traceback: '' };
  const type = typeof v.type === 'string' ? v.type : 'Error';
  const message = typeof v.message === 'string' ? v.message : '';
  const traceback = typeof v.traceback === 'string' ? trimTraceback(v.traceback) : '';
  return { type, message, traceback };
}

/** Errors after which the interpreter cannot be trusted: the worker is replaced. */
export function needsRestart(error: PyError): boolean {
  return error.type === 'MemoryError';
}

export function parseOutcome(json: string, elapsedMs: number): RunOutcome {
  let report: unknown;
  try {
    report = JSON.parse(json);
  } catch {
    return { ok: false, error: { type: 'InternalError', message: 'The Python runner returned an unreadable report.', traceback: '' }, elapsedMs, restarted: false };
  }
  if (!isRecord(report)) {
    return { ok: false, error: { type: 'InternalError', message: 'The Python runner returned no report.', traceback: '' }, elapsedMs, restarted: false };
  }
  const session = typeof report.sessionFresh === 'boolean' ? { sessionFresh: report.sessionFresh } : {};
  if (report.ok !== true) {
    const error = parseError(report.error);
    return { ok: false, error, elapsedMs, restarted: needsRestart(error), ...session };
  }
  const warnings = Array.isArray(report.warnings) ? report.warnings.map(String) : [];
  const outcome: RunOutcome = { ok: true, warnings, elapsedMs, ...session };
  if (report.result !== undefined) outcome.result = parseResult(report.result);
  if (typeof report.figure === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(report.figure);
    } catch {
      parsed = undefined;
    }
    const fig = parseFigure(parsed);
    if (typeof fig === 'string') warnings.push(fig);
    else {
      outcome.figure = fig.figure;
      // Said beside the chart, and to the model through the run's output.
      if (fig.note) warnings.push(fig.note);
    }
  }
  return outcome;
}
