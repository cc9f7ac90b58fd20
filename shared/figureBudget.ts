/**
 * What a figure may ask of the page: Plotly draws on the main thread, and an SVG trace of 250,000
 * points held the tab for 42 s (issue #31). Before the sanitiser copies a figure and before
 * Plotly sees it, its points are counted from array lengths alone (no walk over the values); a
 * figure over the budget keeps an evenly spaced sample of each trace's points, or — when its
 * traces cannot be thinned without changing what they mean (a heatmap's grid, a table) — its
 * data is left out, and either way the figure says so and how to aggregate instead.
 */
import type { JsonValue } from '../protocol/figure';

type Json = JsonValue;
type Rec = { [key: string]: Json };

/**
 * Points the page draws for one figure (data and frames together) within the tab's budget: with
 * plotly.js loaded, drawing 5,000 SVG markers took 241 ms of main-thread CPU in one task
 * (`node bench/run.mjs --only=figures`, 2026-11-28), over the 200 ms goal; the cost is about
 * linear in the points.
 */
export const MAX_FIGURE_POINTS = 3_000;

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Bytes per item of plotly.py's typed arrays (`{dtype, bdata}`). */
function itemSize(dtype: string): number {
  const n = Number(/(\d)$/.exec(dtype)?.[1] ?? '1');
  return n === 1 || n === 2 || n === 4 || n === 8 ? n : 1;
}

function typedLength(v: Rec): number | undefined {
  if (typeof v.dtype !== 'string' || typeof v.bdata !== 'string') return undefined;
  const b = v.bdata.replace(/\s/g, '');
  const bytes = Math.floor((b.length * 3) / 4) - (b.endsWith('==') ? 2 : b.endsWith('=') ? 1 : 0);
  return Math.floor(bytes / itemSize(v.dtype));
}

/** Points in one value: an array's length, a 2-D array's cells, a typed array's items. */
function sizeOf(v: Json): number {
  if (Array.isArray(v)) {
    const first = v[0];
    if (Array.isArray(first)) {
      let cells = 0;
      for (const row of v) cells += Array.isArray(row) ? row.length : 1;
      return cells;
    }
    return v.length;
  }
  if (isRec(v)) return typedLength(v) ?? 0;
  return 0;
}

/** Where a trace's per-point arrays live: top level and one level down (marker.color, cells.values…). */
function pointArrays(t: Rec): { holder: Rec; key: string; size: number; flat: boolean }[] {
  const out: { holder: Rec; key: string; size: number; flat: boolean }[] = [];
  const visit = (holder: Rec, depth: number) => {
    for (const [key, v] of Object.entries(holder)) {
      // Lists of objects (splom's and parcoords' `dimensions`) hold their points inside.
      if (Array.isArray(v) && isRec(v[0]) && typeof v[0].bdata !== 'string') {
        if (depth < 2) for (const item of v) if (isRec(item)) visit(item, depth + 1);
        continue;
      }
      if (Array.isArray(v) || (isRec(v) && typeof v.bdata === 'string')) {
        const size = sizeOf(v);
        const flat = !(Array.isArray(v) && Array.isArray(v[0]));
        out.push({ holder, key, size, flat });
      } else if (isRec(v) && depth < 2) visit(v, depth + 1);
    }
  };
  visit(t, 0);
  return out;
}

/** A trace's points: its largest per-point array (a table's: its rows, which it lays out one by one). */
export function tracePoints(t: Json): number {
  if (!isRec(t)) return 0;
  if (t.type === 'table') {
    let rows = 0;
    for (const part of [t.cells, t.header]) {
      const columns = isRec(part) ? part.values : undefined;
      if (Array.isArray(columns)) for (const c of columns) rows = Math.max(rows, Array.isArray(c) ? c.length : 1);
    }
    return rows;
  }
  let n = 0;
  for (const a of pointArrays(t)) n = Math.max(n, a.size);
  return n;
}

/** Traces whose points are independent marks: every k-th of them draws the same picture, thinner. */
const THINNABLE = new Set([
  'scatter',
  'scattergl',
  'scattermap',
  'scattergeo',
  'scatterpolar',
  'scatterpolargl',
  'scatter3d',
  'scatterternary',
  'scattercarpet',
  'scattersmith',
  'bar',
  'histogram',
  'box',
  'violin',
  'densitymap',
  'histogram2d',
  'histogram2dcontour',
]);

function decode(b64: string): Uint8Array {
  const s = atob(b64.replace(/\s/g, ''));
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

function encode(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function strided(v: Json, n: number, step: number): Json {
  if (Array.isArray(v)) {
    const out: Json[] = [];
    for (let i = 0; i < v.length; i += step) out.push(v[i] ?? null);
    return out;
  }
  if (isRec(v) && typeof v.dtype === 'string' && typeof v.bdata === 'string') {
    const size = itemSize(v.dtype);
    const bytes = decode(v.bdata);
    const kept = new Uint8Array(Math.ceil(n / step) * size);
    let o = 0;
    for (let i = 0; i < n; i += step) {
      kept.set(bytes.subarray(i * size, i * size + size), o);
      o += size;
    }
    const out: Rec = { dtype: v.dtype, bdata: encode(kept.subarray(0, o)) };
    return out;
  }
  return v;
}

/** Every k-th point of a trace; arrays of another length (a colour scale, a bin spec) are left as they are. */
function thin(t: Rec, n: number, step: number): Rec {
  // Copied along the way down only: the arrays themselves are read, never cloned whole.
  const visit = (holder: Rec, depth: number): Rec => {
    const out: Rec = { ...holder };
    for (const [key, v] of Object.entries(holder)) {
      if (Array.isArray(v) || (isRec(v) && typeof v.bdata === 'string')) {
        const flat = !(Array.isArray(v) && Array.isArray(v[0]));
        if (flat && sizeOf(v) === n) out[key] = strided(v, n, step);
      } else if (isRec(v) && depth < 2) out[key] = visit(v, depth + 1);
    }
    return out;
  };
  return visit(t, 0);
}

function thinnable(t: Rec, n: number): boolean {
  const type = typeof t.type === 'string' ? t.type : 'scatter';
  if (!THINNABLE.has(type)) return false;
  // A 2-D array as large as the trace is a grid, not a list of marks.
  return pointArrays(t).every((a) => a.flat || a.size < n);
}

export type FittedFigure<F> = { figure: F; note?: string };

type AnyFigure = { data: readonly unknown[]; layout?: object; config?: object; frames?: readonly unknown[] };

const fmt = (n: number) => n.toLocaleString('en-US');

const HOW_TO_AGGREGATE =
  'aggregate before plotting: in SQL, GROUP BY the x value (or bins such as floor(x / width)) with count(*) or avg(y); in Python, df.groupby(...).agg(...) or numpy.histogram';

/** A note the reader sees on the chart itself (and in every export of it). */
function noteAnnotation(text: string): Rec {
  return { text, showarrow: false, xref: 'paper', yref: 'paper', x: 1, y: 1, xanchor: 'right', yanchor: 'bottom', font: { size: 11 }, opacity: 0.8 };
}

/**
 * The figure within the budget, and a note when something was left out. Cheap when it fits:
 * only array lengths are read.
 */
export function fitFigure<F extends AnyFigure>(figure: F, budget = MAX_FIGURE_POINTS): FittedFigure<F> {
  const data = Array.isArray(figure.data) ? (figure.data as Json[]) : [];
  const frames = Array.isArray(figure.frames) ? (figure.frames as Json[]) : [];
  const frameData = frames.map((f) => (isRec(f) && Array.isArray(f.data) ? f.data : []));
  const counts = data.map(tracePoints);
  const frameCounts = frameData.map((list) => list.map(tracePoints));
  const total = counts.reduce((a, b) => a + b, 0) + frameCounts.flat().reduce((a, b) => a + b, 0);
  if (total <= budget) return { figure };

  // Every trace keeps the same share of its points, so their proportions hold; the step leaves
  // room for each trace's rounding up, so a thinned figure fits and is not thinned again.
  const traces = data.length + frameData.reduce((a, l) => a + l.length, 0);
  const step = Math.ceil(total / Math.max(1, budget - traces));
  const layout: Rec = isRec(figure.layout) ? { ...(figure.layout as Rec) } : {};
  const annotations = Array.isArray(layout.annotations) ? [...layout.annotations] : [];
  const thinnableList = (list: Json[], sizes: readonly number[]) => list.every((t, i) => (sizes[i] ?? 0) <= 1 || (isRec(t) && thinnable(t, sizes[i] ?? 0)));
  if (step > 1 && thinnableList(data, counts) && frameData.every((list, f) => thinnableList(list, frameCounts[f] ?? []))) {
    const thinList = (list: Json[], sizes: readonly number[]) => list.map((t, i) => (isRec(t) && (sizes[i] ?? 0) > 1 ? thin(t, sizes[i] ?? 0, step) : t));
    const thinned = thinList(data, counts);
    const thinnedFrames = frames.map((f, k) => (isRec(f) && Array.isArray(f.data) ? { ...f, data: thinList(f.data, frameCounts[k] ?? []) } : f));
    const left = thinned.map(tracePoints).reduce((a, b) => a + b, 0) + thinnedFrames.reduce<number>((a, f) => a + (isRec(f) && Array.isArray(f.data) ? f.data.map(tracePoints).reduce((x, y) => x + y, 0) : 0), 0);
    if (left <= budget) {
      annotations.push(noteAnnotation(`1 in ${fmt(step)} of ${fmt(total)} points shown`));
      layout.annotations = annotations;
      const out: Rec = { ...(figure as unknown as Rec), data: thinned, layout };
      if (frames.length) out.frames = thinnedFrames;
      const note = `Showing 1 point in ${fmt(step)}: ${fmt(total)} are more than the ${fmt(budget)} a chart draws without freezing the page; for every point, ${HOW_TO_AGGREGATE}.`;
      return { figure: out as unknown as F, note };
    }
  }
  const note = `This chart was not drawn: its ${fmt(total)} points are more than the ${fmt(budget)} a chart draws without freezing the page, and its traces cannot be thinned without changing them; ${HOW_TO_AGGREGATE}.`;
  annotations.push(noteAnnotation(`Not drawn: ${fmt(total)} points; aggregate first`));
  layout.annotations = annotations;
  const out: Rec = { ...(figure as unknown as Rec), data: [], layout };
  delete out.frames;
  return { figure: out as unknown as F, note };
}
