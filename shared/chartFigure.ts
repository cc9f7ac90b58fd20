/**
 * `create_chart`: a Plotly figure from a query result and the contract's chart spec, with no
 * Python involved. Returns the figure for the UI and a short summary for the model (the model
 * never needs the points themselves).
 */
import { sanitiseFigure } from './figureSafety';
import type { ChartType, CreateChartArgs } from '../protocol/agent/tools';
import type { PlotlyFigure } from '../protocol/figure';

export interface ChartTable {
  columns: { name: string; type: string }[];
  rows: unknown[][];
}

export type ChartOutcome = { ok: true; figure: PlotlyFigure; points: number; summary: string } | { ok: false; message: string };

function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.toISOString();
  return v;
}

function column(table: ChartTable, name: string | undefined, role: string): { ok: true; index: number } | { ok: false; message: string } | undefined {
  if (name === undefined) return undefined;
  const index = table.columns.findIndex((c) => c.name === name);
  if (index >= 0) return { ok: true, index };
  const have = table.columns.map((c) => c.name).join(', ');
  return { ok: false, message: `the ${role} column "${name}" is not in the query result (columns: ${have})` };
}

const NEEDS_Y: ReadonlySet<ChartType> = new Set(['bar', 'line', 'scatter', 'pie', 'heatmap']);

export function buildChartFigure(table: ChartTable, spec: CreateChartArgs['chart']): ChartOutcome {
  const x = column(table, spec.x, 'x');
  const y = column(table, spec.y, 'y');
  const color = column(table, spec.color, 'color');
  for (const c of [x, y, color]) if (c && !c.ok) return c;
  if (!x || !x.ok) return { ok: false, message: 'x is required' };
  if (NEEDS_Y.has(spec.type) && (!y || !y.ok)) return { ok: false, message: `a ${spec.type} chart needs a y column` };
  if (table.rows.length === 0) return { ok: false, message: 'the query returned no rows to plot' };
  const yi = y && y.ok ? y.index : undefined;
  const ci = color && color.ok ? color.index : undefined;

  // One trace per colour group (or a single trace).
  const groups = new Map<string, unknown[][]>();
  for (const row of table.rows) {
    const key = ci === undefined ? '' : String(plain(row[ci]) ?? 'NULL');
    const g = groups.get(key);
    if (g) g.push(row);
    else groups.set(key, [row]);
  }
  const xs = (rows: unknown[][]) => rows.map((r) => plain(r[x.index]));
  const ys = (rows: unknown[][]) => rows.map((r) => (yi === undefined ? null : plain(r[yi])));

  let data: Record<string, unknown>[];
  switch (spec.type) {
    case 'pie':
      data = [{ type: 'pie', labels: xs(table.rows), values: ys(table.rows) }];
      break;
    case 'heatmap': {
      // x and color are the two axes when colour is given; otherwise x × y with counts.
      const rowKeys = [...new Set(table.rows.map((r) => String(plain(r[x.index]))))];
      if (ci === undefined || yi === undefined) return { ok: false, message: 'a heatmap needs x, color (the second axis) and y (the value)' };
      const colKeys = [...new Set(table.rows.map((r) => String(plain(r[ci]))))];
      const z = colKeys.map(() => rowKeys.map((): unknown => null));
      for (const r of table.rows) {
        const zr = z[colKeys.indexOf(String(plain(r[ci])))];
        if (zr) zr[rowKeys.indexOf(String(plain(r[x.index])))] = plain(r[yi]);
      }
      data = [{ type: 'heatmap', x: rowKeys, y: colKeys, z }];
      break;
    }
    case 'histogram':
      data = [...groups].map(([name, rows]) => ({ type: 'histogram', x: xs(rows), name: name || undefined, opacity: groups.size > 1 ? 0.6 : 1 }));
      break;
    case 'box':
      data = [...groups].map(([name, rows]) =>
        yi === undefined ? { type: 'box', y: xs(rows), name: name || spec.x } : { type: 'box', x: xs(rows), y: ys(rows), name: name || undefined },
      );
      break;
    case 'scatter':
      data = [...groups].map(([name, rows]) => ({ type: 'scatter', mode: 'markers', x: xs(rows), y: ys(rows), name: name || undefined }));
      break;
    case 'line':
      data = [...groups].map(([name, rows]) => ({ type: 'scatter', mode: 'lines+markers', x: xs(rows), y: ys(rows), name: name || undefined }));
      break;
    case 'bar':
      data = [...groups].map(([name, rows]) => ({ type: 'bar', x: xs(rows), y: ys(rows), name: name || undefined }));
      break;
  }
  const layout: Record<string, unknown> = {
    title: { text: spec.title ?? (spec.y ? `${spec.y} by ${spec.x}` : spec.x) },
    xaxis: { title: { text: spec.x } },
    showlegend: groups.size > 1,
  };
  if (spec.type === 'histogram') layout.barmode = 'overlay';
  if (spec.y && spec.type !== 'pie') layout.yaxis = { title: { text: spec.y } };
  if (spec.type === 'histogram') layout.yaxis = { title: { text: 'count' } };
  const points = table.rows.length;
  const series = groups.size > 1 ? ` in ${groups.size} series by ${spec.color}` : '';
  return {
    ok: true,
    // Cells become titles and labels: a link or image URL in the data must not reach Plotly.
    figure: sanitiseFigure({ data, layout }),
    points,
    summary: `${spec.type} chart of ${points} rows${series}: x=${spec.x}${spec.y ? `, y=${spec.y}` : ''}.`,
  };
}
