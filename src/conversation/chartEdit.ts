/**
 * Changing an answer's chart in the page: the chart a `create_chart` step drew is re-drawn from
 * the data the figure already holds (the x, y and series of each trace, read back into a table),
 * with another type, axes or title, by the same builder the agent's tool uses. No query runs
 * again: the model's SQL is not re-run outside the agent's read-only path. The user's changes
 * are kept in this browser per answer, so a reload shows the chart as they left it.
 */
import { CreateChartArgsSchema, type ChartType } from '../../protocol/agent/tools';
import { buildChartFigure, type ChartTable } from '../../shared/chartFigure';
import type { PlotlyFigure } from '../../protocol/figure';
import type { Step } from './turns';

export type ChartSpec = { type: ChartType; x: string; y?: string; color?: string; title?: string };

/** A chart step that drew: its SQL and spec, in the order the figures reach the answer. */
export interface ChartSource {
  callId: string;
  sql: string;
  spec: ChartSpec;
}

/** Where the user's changes to one chart are kept: its answer and the step that drew it. */
export function editKey(turnId: string, callId: string): string {
  return `${turnId}#${callId}`;
}

/**
 * A chart step's spec and figure as the user left them: their spec, and the figure redrawn from
 * the drawn one's data; the step's own when unchanged or when the change cannot be drawn.
 */
export function editedChart(key: string, spec: ChartSpec, figure: PlotlyFigure): { spec: ChartSpec; figure: PlotlyFigure } {
  const edit = readEdit(key);
  const table = edit ? tableFromFigure(figure, spec) : null;
  const out = edit && table ? redraw(table, edit) : null;
  return edit && out?.ok ? { spec: edit, figure: out.figure } : { spec, figure };
}

/** The successful `create_chart` steps of a turn, as sources for its figures. */
export function chartSources(steps: readonly Step[]): ChartSource[] {
  const out: ChartSource[] = [];
  for (const s of steps) {
    if (s.kind !== 'tool' || s.tool !== 'create_chart' || s.state !== 'done') continue;
    const args = CreateChartArgsSchema.safeParse(s.args);
    if (args.success) out.push({ callId: s.call_id, sql: args.data.sql, spec: args.data.chart });
  }
  return out;
}

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * The rows a figure of the app's own builder plots, with the spec's column names: x, y (when the
 * spec has one) and the series name (when it has a colour). Null for a figure of another shape.
 */
export function tableFromFigure(figure: PlotlyFigure, spec: ChartSpec): ChartTable | null {
  const columns = [{ name: spec.x, type: 'VARCHAR' }];
  if (spec.y) columns.push({ name: spec.y, type: 'DOUBLE' });
  if (spec.color) columns.push({ name: spec.color, type: 'VARCHAR' });
  const rows: unknown[][] = [];
  const push = (x: unknown, y: unknown, series: unknown) => {
    const row: unknown[] = [x];
    if (spec.y) row.push(y);
    if (spec.color) row.push(series);
    rows.push(row);
  };
  for (const trace of figure.data) {
    const type = trace.type;
    if (type === 'pie') {
      const values = arr(trace.values);
      arr(trace.labels).forEach((l, i) => push(l, values[i], null));
    } else if (type === 'heatmap') {
      // x × colour axes with the value in z (the builder's heatmap).
      const xs = arr(trace.x);
      arr(trace.y).forEach((series, r) => arr(arr(trace.z)[r]).forEach((v, c) => v !== null && push(xs[c], v, series)));
    } else if (type === 'bar' || type === 'scatter' || type === 'histogram' || type === 'box') {
      const xs = arr(trace.x);
      const ys = arr(trace.y);
      const n = Math.max(xs.length, ys.length);
      // A box of one column keeps its values in y.
      const single = type === 'box' && xs.length === 0;
      for (let i = 0; i < n; i++) push(single ? ys[i] : xs[i], single ? null : ys[i], trace.name ?? null);
    } else return null;
  }
  return rows.length > 0 ? { columns, rows } : null;
}

/** The figure for an edited spec, or why it cannot be drawn. */
export function redraw(table: ChartTable, spec: ChartSpec): { ok: true; figure: PlotlyFigure } | { ok: false; message: string } {
  const out = buildChartFigure(table, spec);
  return out.ok ? { ok: true, figure: out.figure } : out;
}

const KEY = 'dataseer:chart-edits';
type Store = Pick<Storage, 'getItem' | 'setItem'>;

function readAll(storage: Store | undefined): Record<string, ChartSpec> {
  try {
    const raw = JSON.parse(storage?.getItem(KEY) ?? '{}') as unknown;
    return typeof raw === 'object' && raw !== null ? (raw as Record<string, ChartSpec>) : {};
  } catch {
    return {};
  }
}

/** The user's spec for one answer's chart (see `editKey`), if they changed it. */
export function readEdit(key: string, storage: Store | undefined = globalThis.localStorage): ChartSpec | null {
  const spec = readAll(storage)[key];
  return spec && typeof spec.type === 'string' && typeof spec.x === 'string' ? spec : null;
}

export function saveEdit(key: string, spec: ChartSpec | null, storage: Store | undefined = globalThis.localStorage): void {
  const all = readAll(storage);
  if (spec) all[key] = spec;
  else delete all[key];
  try {
    storage?.setItem(KEY, JSON.stringify(all));
  } catch {
    // Storage full or refused: the change holds for this visit.
  }
}
