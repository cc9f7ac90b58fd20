import { describe, expect, it } from 'vitest';
import { sanitiseFigure } from './figureSafety';

const EVIL = 'http://127.0.0.1:9/leak?d=secret';
const PIXEL = 'data:image/png;base64,iVBORw0KGgo=';

describe('sanitiseFigure', () => {
  it('leaves nothing in a figure that Plotly would fetch or link to', () => {
    const fig = sanitiseFigure({
      data: [
        { type: 'bar', x: ['a', 'https://example.com/as-data'], y: [1, 2], text: ['<a href="http://evil/">click</a>', 'ok'], hovertemplate: '<a href="//evil">x</a>' },
        { type: 'choropleth', geojson: EVIL, locations: ['x'], z: [1] },
      ],
      layout: {
        title: { text: 'Sales <a href="https://evil.example">here</a>' },
        images: [{ source: EVIL, x: 0, y: 0 }, { source: PIXEL, x: 1, y: 1 }, { source: 'data:text/html,<script>1</script>' }],
        mapbox: { style: EVIL, layers: [{ source: EVIL, sourcetype: 'raster' }, { source: { type: 'FeatureCollection' }, sourcetype: 'geojson' }] },
        map2: { style: 'open-street-map' },
        template: { layout: { images: [{ source: '//evil.example/x.png' }] } },
      },
      config: { topojsonURL: EVIL, responsive: true, plotlyServerURL: EVIL, mapboxAccessToken: 'pk.x', linkText: 'Edit', showLink: true },
      frames: [{ layout: { images: [{ source: EVIL }] } }],
    });
    const text = JSON.stringify(fig);
    expect(text).not.toMatch(/127\.0\.0\.1|evil|<a /);
    expect(fig.layout.images).toEqual([{ source: PIXEL, x: 1, y: 1 }]);
    expect(fig.layout.mapbox).toEqual({ style: 'white-bg', layers: [] });
    expect(fig.layout.map2).toEqual({ style: 'white-bg' });
    expect(fig.config).toEqual({ responsive: true });
    expect(fig.data[0]?.x).toEqual(['a', 'https://example.com/as-data']);
    expect(fig.data[0]?.text).toEqual(['click', 'ok']);
    expect(fig.data[1]).not.toHaveProperty('geojson');
  });

  it('keeps an ordinary chart as it was', () => {
    const fig = { data: [{ type: 'scatter', x: [1, 2], y: [3, 4], name: 'Adelie' }], layout: { title: { text: 'Mass' }, xaxis: { title: { text: 'g' } } } };
    expect(sanitiseFigure(fig)).toEqual(fig);
  });
});
