/**
 * One sanitiser for every Plotly figure (a create_chart result, Python's `fig`, the notebook
 * and the exports), applied before Plotly sees a figure and before one is written to a file.
 * Plotly fetches what a figure names: `layout.images[].source`, `config.topojsonURL`, map styles
 * and layer sources, choropleth `geojson` given as a URL; and it renders `<a href>` in text as
 * links. A figure written by a model or a prompt in a data file must stay data: images only as
 * `data:image/…` URIs, no URL in any field Plotly fetches, no links, and only config keys that
 * change how the chart behaves on the page.
 */
import type { JsonValue, PlotlyFigure } from './python';

type Json = JsonValue;
type Rec = { [key: string]: Json };

const isRec = (v: Json | undefined): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An image Plotly may draw: an inline raster or SVG, nothing it would download. */
export function isInlineImage(v: string): boolean {
  return /^data:image\/(png|jpe?g|gif|webp|svg\+xml|bmp)[;,]/i.test(v.trim());
}

/** Anything a browser could fetch: a scheme other than data:, or protocol-relative, or a path. */
function isFetchable(v: string): boolean {
  const t = v.trim();
  if (t === '') return false;
  return !/^data:/i.test(t) || !isInlineImage(t);
}

/** Keys whose string values Plotly loads from the network (or follows as links). */
const FETCHED_KEYS = new Set(['source', 'topojson', 'topojsonURL', 'geojson', 'href', 'link', 'url', 'src', 'sourceattribution', 'urlTarget']);

/** Map styles given by name draw tiles from third-party servers; only these draw none. */
const TILELESS_STYLES = new Set(['white-bg', 'carto-positron-nolabels']);

/** The config keys a figure may set; everything else (topojsonURL, plotlyServerURL, mapbox tokens, links) is dropped. */
const CONFIG_KEYS = new Set([
  'responsive',
  'displaylogo',
  'displayModeBar',
  'scrollZoom',
  'staticPlot',
  'editable',
  'doubleClick',
  'showTips',
  'showAxisDragHandles',
  'showAxisRangeEntryBoxes',
  'autosizable',
  'fillFrame',
  'frameMargins',
  'modeBarButtonsToRemove',
  'toImageButtonOptions',
  'typesetMath',
]);

/** Removes `<a …>` link markup that Plotly renders from text fields. */
function unlink(text: string): string {
  return text.replace(/<a\b[^>]*>/gi, '').replace(/<\/a\s*>/gi, '');
}

function clean(value: Json, key: string | undefined, parentKey: string | undefined): Json | undefined {
  if (typeof value === 'string') {
    if (key !== undefined && FETCHED_KEYS.has(key) && isFetchable(value)) return undefined;
    // A map's `style` may be a URL or the name of a third-party tile server.
    if (key === 'style' && (parentKey === 'mapbox' || parentKey === 'map' || /^(mapbox|map)\d+$/.test(parentKey ?? ''))) {
      return TILELESS_STYLES.has(value) ? value : 'white-bg';
    }
    return unlink(value);
  }
  if (Array.isArray(value)) {
    const out: Json[] = [];
    for (const item of value) {
      // An image or map layer whose source went is dropped whole.
      if (isRec(item) && (key === 'images' || key === 'layers') && typeof item.source === 'string' && isFetchable(item.source)) continue;
      if (isRec(item) && key === 'layers' && isRec(item.source)) continue;
      const c = clean(item, undefined, key);
      if (c !== undefined) out.push(c);
    }
    return out;
  }
  if (isRec(value)) {
    const out: Rec = {};
    for (const [k, v] of Object.entries(value)) {
      const c = clean(v, k, key);
      if (c !== undefined) out[k] = c;
    }
    // Map layouts without a style fall back to Plotly's default tile server: choose none.
    if ((key === 'mapbox' || key === 'map' || /^(mapbox|map)\d+$/.test(key ?? '')) && out.style === undefined) out.style = 'white-bg';
    return out;
  }
  return value;
}

/** Any figure shape the app uses (the agent's and Python's): the result has the same type. */
type AnyFigure = { data: readonly unknown[]; layout?: object; config?: object; frames?: readonly unknown[] };

export function sanitiseFigure<F extends AnyFigure>(figure: F): F {
  return sanitisePlotly(figure as unknown as PlotlyFigure) as unknown as F;
}

function sanitisePlotly(fig: PlotlyFigure): PlotlyFigure {
  const data = (clean(fig.data as Json, 'data', undefined) as Rec[] | undefined) ?? [];
  const layout = (clean((fig.layout ?? {}) as Json, 'layout', undefined) as Rec | undefined) ?? {};
  const out: PlotlyFigure = { data, layout };
  if (fig.config) {
    const config: Rec = {};
    for (const [k, v] of Object.entries(fig.config)) {
      if (!CONFIG_KEYS.has(k)) continue;
      const c = clean(v as Json, k, 'config');
      if (c !== undefined) config[k] = c;
    }
    out.config = config;
  }
  if (fig.frames) out.frames = (clean(fig.frames as Json, 'frames', undefined) as Json[] | undefined) ?? [];
  return out;
}
