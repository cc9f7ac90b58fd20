/**
 * What a chart shows, read from its Plotly traces (the figure the answer carries, not the words
 * around it): the chart type, and for a chart of values per category, the values plotted. A bar
 * of mean body mass per species and a bar of penguins per species have the same columns; only
 * their values tell them apart.
 */
import type { PlotlyFigure } from '../../../protocol/figure';
import { within } from './tolerance';
import type { Tolerance } from './questions';

/** The chart a question expects: its type, and optionally the (category, value) pairs it plots. */
export interface ChartExpectation {
  /** bar · line · scatter · histogram · box · pie · heatmap (create_chart's types). */
  type: string;
  x?: string[];
  y?: number[];
}

type Trace = Record<string, unknown>;

/** The type a trace draws, in create_chart's words: a scatter with lines is a line chart. */
export function traceKind(t: Trace): string {
  const type = typeof t.type === 'string' ? t.type : 'scatter';
  if (type === 'scatter' || type === 'scattergl') {
    const mode = typeof t.mode === 'string' ? t.mode : '';
    return mode.includes('lines') && !mode.includes('markers') ? 'line' : mode.includes('lines') ? 'line+scatter' : 'scatter';
  }
  if (type === 'histogram2d' || type === 'histogram2dcontour') return 'heatmap';
  return type;
}

// Lines with markers are both a line and a scatter; bars of binned counts are a histogram.
const kindMatches = (kind: string, want: string): boolean =>
  kind === want || (kind === 'line+scatter' && (want === 'line' || want === 'scatter')) || (want === 'histogram' && kind === 'bar');

const DTYPES: Record<string, { bytes: number; read: (v: DataView, o: number) => number }> = {
  f8: { bytes: 8, read: (v, o) => v.getFloat64(o, true) },
  f4: { bytes: 4, read: (v, o) => v.getFloat32(o, true) },
  i4: { bytes: 4, read: (v, o) => v.getInt32(o, true) },
  u4: { bytes: 4, read: (v, o) => v.getUint32(o, true) },
  i2: { bytes: 2, read: (v, o) => v.getInt16(o, true) },
  u2: { bytes: 2, read: (v, o) => v.getUint16(o, true) },
  i1: { bytes: 1, read: (v, o) => v.getInt8(o) },
  u1: { bytes: 1, read: (v, o) => v.getUint8(o) },
};

/**
 * A trace's array as plain values: a JSON list, or plotly.py 6's typed-array form
 * `{dtype, bdata}` (base64, little-endian; Plotly.js reads both).
 */
export function arrayOf(v: unknown): unknown[] | null {
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object') {
    const { dtype, bdata } = v as { dtype?: unknown; bdata?: unknown };
    const d = typeof dtype === 'string' ? DTYPES[dtype] : undefined;
    if (!d || typeof bdata !== 'string') return null;
    let bin: string;
    try {
      bin = atob(bdata);
    } catch {
      return null;
    }
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    const view = new DataView(bytes.buffer);
    const out: number[] = [];
    for (let o = 0; o + d.bytes <= bytes.length; o += d.bytes) out.push(d.read(view, o));
    return out;
  }
  return null;
}

const key = (v: unknown): string => String(v ?? '').trim().toLowerCase();
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null);

/** A trace's (category, value) pairs: bars by orientation, a pie's labels and values, else x/y. */
function pairsOf(t: Trace): { k: string; v: number }[] {
  let cats: unknown[] | null;
  let vals: unknown[] | null;
  if (t.type === 'pie') {
    cats = arrayOf(t.labels);
    vals = arrayOf(t.values);
  } else if (t.orientation === 'h') {
    cats = arrayOf(t.y);
    vals = arrayOf(t.x);
  } else {
    cats = arrayOf(t.x);
    vals = arrayOf(t.y);
  }
  if (!cats || !vals) return [];
  const out: { k: string; v: number }[] = [];
  for (let i = 0; i < Math.min(cats.length, vals.length); i++) {
    const n = num(vals[i]);
    if (n !== null) out.push({ k: key(cats[i]), v: n });
  }
  return out;
}

export type ChartVerdict = { ok: true; reason: string } | { ok: false; reason: string };

/** Whether some figure draws the expected type and, where given, the expected values. */
export function judgeChart(figures: readonly PlotlyFigure[], want: ChartExpectation, tol: Tolerance): ChartVerdict {
  const traces = figures.flatMap((f) => f.data);
  const kinds = [...new Set(traces.map(traceKind))];
  const typed = traces.filter((t) => kindMatches(traceKind(t), want.type));
  if (typed.length === 0) return { ok: false, reason: `expected a ${want.type} chart; the figure draws ${kinds.join(', ') || 'nothing'}` };
  if (!want.y) return { ok: true, reason: `a ${want.type} chart` };
  const expected = want.y.map((v, i) => ({ k: key(want.x?.[i] ?? i), v }));
  // Values may be spread over traces (one per colour); every expected pair must be drawn.
  const drawn = typed.flatMap(pairsOf);
  const missing = expected.filter((e) => !drawn.some((d) => (want.x ? d.k === e.k : true) && within(d.v, e.v, tol)));
  if (missing.length === 0) return { ok: true, reason: `a ${want.type} chart of the expected values` };
  const sample = missing.slice(0, 3).map((m) => {
    const got = drawn.find((d) => d.k === m.k);
    return `${m.k}: ${m.v}${got ? ` (plotted ${got.v})` : ' (not plotted)'}`;
  });
  return { ok: false, reason: `the ${want.type} chart plots other values (${sample.join('; ')}) — a different aggregate?` };
}
