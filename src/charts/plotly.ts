/**
 * Loads plotly.js on first use (a multi-megabyte chunk kept out of the app shell) and themes a
 * figure's layout to the page's light or dark colours.
 */
import type { PlotlyStatic } from 'plotly.js-dist-min';
import type { JsonValue, PlotlyFigure } from '../../protocol/python';
import { TOPOJSON_DIR } from '../../shared/figureSafety';
import { plotlyPlainText } from '../../shared/plotlyText';
import { plural } from '../../shared/text';

let loading: Promise<PlotlyStatic> | null = null;

export function loadPlotly(): Promise<PlotlyStatic> {
  loading ??= import('plotly.js-dist-min').then((m) => m.default);
  loading.catch(() => (loading = null));
  return loading;
}

const categories = new WeakMap<PlotlyStatic, Map<string, string[]>>();

/**
 * The WebGL a figure's traces need, as Plotly's own schema says (its trace categories): a map
 * (MapLibre) needs WebGL2, another `gl` trace WebGL. Undefined when none is drawn with WebGL.
 */
export function webGlNeeded(plotly: PlotlyStatic, data: readonly unknown[]): 'webgl2' | 'webgl' | undefined {
  let byType = categories.get(plotly);
  if (!byType) {
    byType = new Map(Object.entries(plotly.PlotSchema.get().traces).map(([type, t]) => [type, t.categories ?? []]));
    categories.set(plotly, byType);
  }
  let need: 'webgl2' | 'webgl' | undefined;
  for (const trace of data) {
    const type = typeof trace === 'object' && trace !== null && typeof (trace as { type?: unknown }).type === 'string' ? (trace as { type: string }).type : 'scatter';
    const cats = byType.get(type) ?? [];
    if (cats.includes('map')) return 'webgl2';
    if (cats.includes('gl')) need = 'webgl';
  }
  return need;
}

const available = new Map<string, boolean>();
/** Whether this browser gives a `kind` context at all (turned off, or the GPU blocklisted, it does not). */
export function webGlAvailable(kind: 'webgl2' | 'webgl'): boolean {
  let ok = available.get(kind);
  if (ok === undefined) {
    try {
      ok = document.createElement('canvas').getContext(kind) !== null;
    } catch {
      ok = false;
    }
    available.set(kind, ok);
  }
  return ok;
}

/** Plotly's `topojsonURL`: geo charts read their world map from the app's own build, not Plotly's CDN, so they work offline. */
export function topojsonUrl(): string {
  return new URL(TOPOJSON_DIR, document.baseURI).href;
}

export interface ChartTheme {
  dark: boolean;
  fg: string;
  muted: string;
  grid: string;
  font: string;
}

type Layout = Record<string, JsonValue>;

function isRecord(v: unknown): v is { [key: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Fills in colours the figure leaves unset; colours the figure sets win. */
export function themedLayout(layout: Layout, theme: ChartTheme): Layout {
  const axis = (a: JsonValue | undefined): Layout => ({
    gridcolor: theme.grid,
    linecolor: theme.grid,
    zerolinecolor: theme.grid,
    ...(isRecord(a) ? a : {}),
  });
  const out: Layout = {
    paper_bgcolor: 'rgba(0,0,0,0)',
    plot_bgcolor: 'rgba(0,0,0,0)',
    ...layout,
    font: { color: theme.fg, family: theme.font, ...(isRecord(layout.font) ? layout.font : {}) },
    autosize: true,
  };
  for (const key of Object.keys(layout).filter((k) => /^[xy]axis\d*$/.test(k))) out[key] = axis(layout[key]);
  out.xaxis = axis(layout.xaxis);
  out.yaxis = axis(layout.yaxis);
  if (layout.template === undefined) delete out.template;
  return out;
}

/** A plain-text summary of a figure, for its accessible description. */
export function describeFigure(fig: PlotlyFigure): string {
  const layout = fig.layout ?? {};
  const title = isRecord(layout.title) ? layout.title.text : layout.title;
  const kinds = [...new Set(fig.data.map((t) => (typeof t.type === 'string' ? t.type : 'scatter')))];
  const traces = fig.data.length;
  // The accessible name is the title's words, not its pseudo-HTML.
  const head = typeof title === 'string' && title ? `${plotlyPlainText(title)}: ` : '';
  return `${head}${kinds.join(', ')} chart with ${plural(traces, 'trace')}`;
}

export function readTheme(el: Element): ChartTheme {
  const style = getComputedStyle(el);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  // The user's own theme choice (data-theme on the root) wins over the system's.
  const chosen = el.ownerDocument?.documentElement.dataset.theme;
  const dark = chosen ? chosen === 'dark' : (globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false);
  return {
    dark,
    fg: v('--fg', dark ? '#e6e9ee' : '#17202a'),
    muted: v('--muted', '#5a6472'),
    grid: v('--border', dark ? '#333c4a' : '#d5dbe3'),
    font: style.fontFamily || 'system-ui, sans-serif',
  };
}
