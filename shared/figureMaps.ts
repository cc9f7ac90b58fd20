/**
 * Maps that fetch nothing (figureSafety.ts's module comment says why): every map subplot a map
 * trace draws on is named and on the built-in offline style, layers only inline GeoJSON without
 * symbols, and map traces without text or icons (glyphs and icons come from third-party servers).
 */
import type { JsonValue } from '../protocol/figure';

type Rec = { [key: string]: JsonValue };

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A `map`, `map2`… subplot of the layout. */
export const MAP_SUBPLOT = /^map(\d*)$/;

/** The map style that draws nothing from the network (see figureSafety.ts's module comment). */
export const OFFLINE_MAP_STYLE = 'white-bg';

/** Trace types drawn on a `map` subplot by the map library (MapLibre). */
const MAP_TRACES = new Set(['scattermap', 'choroplethmap', 'densitymap']);

/**
 * Map text and clusters' counts are drawn with glyphs fetched from a font server; a marker
 * symbol other than a circle is an icon the map library asks a CDN for.
 */
export function offlineMapTrace(t: Rec): void {
  if (typeof t.mode === 'string') {
    const mode = t.mode
      .split('+')
      .filter((m) => m !== 'text')
      .join('+');
    t.mode = mode === '' ? 'markers' : mode;
  }
  delete t.texttemplate;
  delete t.cluster;
  if (isRec(t.marker) && t.marker.symbol !== undefined) {
    const symbol = t.marker.symbol;
    const circles = symbol === 'circle' || (Array.isArray(symbol) && symbol.every((s) => s === 'circle' || s === null));
    if (!circles) delete t.marker.symbol;
  }
}

/** A map subplot on the offline style, keeping only its inline, symbol-free layers. */
export function offlineMap(map: Rec): void {
  map.style = OFFLINE_MAP_STYLE;
  if (!Array.isArray(map.layers)) return;
  map.layers = map.layers.filter((layer): layer is Rec => {
    if (!isRec(layer)) return false;
    const inline = (layer.sourcetype === undefined || layer.sourcetype === 'geojson') && isRec(layer.source);
    // A symbol layer draws an icon (`marker` by default) the map library fetches, and text.
    if (!inline || layer.type === 'symbol') return false;
    // Attribution is drawn as HTML by the map library; text symbols need glyphs from a server.
    delete layer.sourceattribution;
    delete layer.symbol;
    return true;
  });
}

/**
 * Plotly draws a map trace whose subplot the layout does not name on its default style, a
 * third party's (Carto): each map subplot any trace (or frame) draws on is named, offline.
 */
export function nameMapSubplots(layout: Rec, traceLists: readonly JsonValue[][]): void {
  for (const list of traceLists) {
    for (const t of list) {
      if (!isRec(t) || typeof t.type !== 'string' || !MAP_TRACES.has(t.type)) continue;
      const subplot = typeof t.subplot === 'string' && MAP_SUBPLOT.test(t.subplot) ? t.subplot : 'map';
      const existing = layout[subplot];
      if (isRec(existing)) existing.style = OFFLINE_MAP_STYLE;
      else layout[subplot] = { style: OFFLINE_MAP_STYLE };
    }
  }
}
