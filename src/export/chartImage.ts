/**
 * A figure drawn to a static SVG by plotly.js (loaded on demand) for the HTML report, on a light
 * background so it reads the same printed or in a dark viewer.
 */
import { sanitiseFigure } from '../../shared/figureSafety';
import type { PlotlyFigure } from '../../shared/figure';
import type { JsonValue } from '../../workers/protocol/python';
import { loadPlotly, themedLayout, topojsonUrl } from '../charts/plotly';

const LIGHT = { dark: false, fg: '#17202a', muted: '#5a6472', grid: '#d5dbe3', font: 'system-ui, sans-serif' };

/** `data:image/svg+xml,…` for the figure, or null when plotly cannot draw it. */
export async function figureSvgUrl(figure: PlotlyFigure, size = { width: 800, height: 450 }): Promise<string | null> {
  const fig = sanitiseFigure(figure);
  try {
    const plotly = await loadPlotly();
    const layout = themedLayout((fig.layout ?? {}) as Record<string, JsonValue>, LIGHT);
    const url = await plotly.toImage(
      { data: fig.data, layout: { ...layout, paper_bgcolor: '#ffffff', plot_bgcolor: '#ffffff', autosize: false, ...size }, config: { staticPlot: true, topojsonURL: topojsonUrl() } },
      { format: 'svg', ...size },
    );
    return /^data:image\/svg\+xml[;,]/.test(url) ? url : null;
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
