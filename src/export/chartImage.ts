/**
 * A figure drawn to a static SVG by plotly.js (loaded on demand) for the HTML report, on a light
 * background so it reads the same printed or in a dark viewer.
 */
import { sanitiseFigure } from '../../shared/figureSafety';
import type { PlotlyFigure } from '../../protocol/figure';
import type { JsonValue } from '../../protocol/python';
import { loadPlotly, themedLayout, topojsonUrl } from '../charts/plotly';

const LIGHT = { dark: false, fg: '#17202a', muted: '#5a6472', grid: '#d5dbe3', font: 'system-ui, sans-serif' };

/**
 * Map traces draw with WebGL through a map library whose workers start from `blob:` URLs, which
 * the page's policy refuses: Plotly's toImage would wait for them forever.
 */
const MAP_TRACE = /^(scattermap|choroplethmap|densitymap)$/;

/** A drawing that has not finished by then never will (a trace type that needs what the page lacks). */
const DRAW_TIMEOUT_MS = 20_000;

/** `data:image/svg+xml,…` for the figure, or null when plotly cannot draw it. */
export async function figureSvgUrl(figure: PlotlyFigure, size = { width: 800, height: 450 }): Promise<string | null> {
  const fig = sanitiseFigure(figure);
  if (fig.data.some((t) => typeof t.type === 'string' && MAP_TRACE.test(t.type))) return null;
  try {
    const plotly = await loadPlotly();
    const layout = themedLayout((fig.layout ?? {}) as Record<string, JsonValue>, LIGHT);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), DRAW_TIMEOUT_MS)));
    const drawing = plotly.toImage(
      { data: fig.data, layout: { ...layout, paper_bgcolor: '#ffffff', plot_bgcolor: '#ffffff', autosize: false, ...size }, config: { staticPlot: true, topojsonURL: topojsonUrl() } },
      { format: 'svg', ...size },
    );
    const url = await Promise.race([drawing, timeout]).finally(() => clearTimeout(timer));
    return url !== null && /^data:image\/svg\+xml[;,]/.test(url) ? url : null;
  } catch {
    return null;
  }
}

/** Draws each distinct figure once; the lookup answers by the figure's JSON. */
export async function drawFigures(figures: PlotlyFigure[]): Promise<(fig: PlotlyFigure) => string | null> {
  const urls = new Map<string, string | null>();
  for (const fig of figures) {
    const key = JSON.stringify(fig);
    if (!urls.has(key)) urls.set(key, await figureSvgUrl(fig));
  }
  return (fig) => urls.get(JSON.stringify(fig)) ?? null;
}
