import { describe, expect, it } from 'vitest';
import type { PlotlyStatic } from 'plotly.js-dist-min';
import { describeFigure, themedLayout, webGlNeeded } from './plotly';

const theme = { dark: true, fg: '#eee', muted: '#999', grid: '#333', font: 'sans-serif' };

describe('themedLayout', () => {
  it('fills colours the figure leaves unset', () => {
    const out = themedLayout({ title: { text: 'x' } }, theme);
    expect(out.font).toEqual({ color: '#eee', family: 'sans-serif' });
    expect(out.xaxis).toMatchObject({ gridcolor: '#333' });
    expect(out.paper_bgcolor).toBe('rgba(0,0,0,0)');
  });

  it('keeps colours the figure sets, on every axis', () => {
    const out = themedLayout({ font: { color: 'red' }, paper_bgcolor: 'white', yaxis2: { gridcolor: 'blue' } }, theme);
    expect(out.font).toEqual({ color: 'red', family: 'sans-serif' });
    expect(out.paper_bgcolor).toBe('white');
    expect(out.yaxis2).toEqual({ gridcolor: 'blue', linecolor: '#333', zerolinecolor: '#333' });
  });
});

describe('describeFigure', () => {
  it('names the title, trace kinds and count', () => {
    expect(describeFigure({ data: [{ type: 'bar' }, { type: 'bar' }], layout: { title: { text: 'Sales' } } })).toBe('Sales: bar chart with 2 traces');
    expect(describeFigure({ data: [{ y: [1] }], layout: {} })).toBe('scatter chart with 1 trace');
  });
});

describe('webGlNeeded', () => {
  // Plotly's schema as plotly.js 3 describes these traces (trace `categories`).
  const plotly = {
    PlotSchema: {
      get: () => ({ traces: { scatter: { categories: ['cartesian', 'svg'] }, scattergl: { categories: ['gl', 'regl', 'cartesian'] }, scattermap: { categories: ['map', 'gl', 'symbols'] } } }),
    },
  } as unknown as PlotlyStatic;
  it('says what Plotly draws with WebGL: a map needs WebGL2, another gl trace WebGL, SVG nothing', () => {
    expect(webGlNeeded(plotly, [{ type: 'scatter' }, {}])).toBeUndefined();
    expect(webGlNeeded(plotly, [{ type: 'scattergl' }])).toBe('webgl');
    expect(webGlNeeded(plotly, [{ type: 'scattergl' }, { type: 'scattermap' }])).toBe('webgl2');
  });
});
