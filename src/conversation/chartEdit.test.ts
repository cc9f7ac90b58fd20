import { describe, expect, it } from 'vitest';
import { buildChartFigure } from '../../shared/chartFigure';
import { chartSources, readEdit, redraw, saveEdit, tableFromFigure, type ChartSpec } from './chartEdit';

const table = {
  columns: [
    { name: 'species', type: 'VARCHAR' },
    { name: 'n', type: 'BIGINT' },
    { name: 'island', type: 'VARCHAR' },
  ],
  rows: [
    ['Adelie', 44, 'Biscoe'],
    ['Adelie', 56, 'Dream'],
    ['Gentoo', 124, 'Biscoe'],
  ],
};

function memory(): Storage {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) } as Storage;
}

describe('editing a chart', () => {
  it('reads a figure back into the rows it plots, whatever the type, and redraws it as another type', () => {
    for (const type of ['bar', 'line', 'scatter', 'pie', 'heatmap'] as const) {
      const spec: ChartSpec = { type, x: 'species', y: 'n', color: type === 'pie' ? undefined : 'island' };
      const built = buildChartFigure(table, spec);
      if (!built.ok) throw new Error(built.message);
      const back = tableFromFigure(built.figure, spec);
      expect(back?.rows.length, type).toBe(3);
      const sum = (back?.rows ?? []).reduce((a, r) => a + Number(r[1]), 0);
      expect(sum, type).toBe(224);
    }
    const bar = buildChartFigure(table, { type: 'bar', x: 'species', y: 'n', color: 'island' });
    if (!bar.ok) throw new Error('no bar');
    const back = tableFromFigure(bar.figure, { type: 'bar', x: 'species', y: 'n', color: 'island' });
    if (!back) throw new Error('no table');
    const line = redraw(back, { type: 'line', x: 'species', y: 'n', color: 'island', title: 'Counts' });
    expect(line.ok && line.figure.data.every((t) => t.type === 'scatter')).toBe(true);
    expect(line.ok && JSON.stringify(line.figure.layout)).toContain('Counts');
    expect(redraw(back, { type: 'bar', x: 'nope', y: 'n' }).ok).toBe(false);
  });

  it('finds the chart steps that drew, with their SQL and spec', () => {
    const sources = chartSources([
      { kind: 'tool', call_id: 'a', tool: 'run_sql', args: { sql: 'SELECT 1' }, state: 'done' },
      { kind: 'tool', call_id: 'b', tool: 'create_chart', args: { sql: 'SELECT 2', chart: { type: 'bar', x: 'a', y: 'b' } }, state: 'failed' },
      { kind: 'tool', call_id: 'c', tool: 'create_chart', args: { sql: 'SELECT 3', chart: { type: 'pie', x: 'a', y: 'b' } }, state: 'done' },
    ]);
    expect(sources).toEqual([{ callId: 'c', sql: 'SELECT 3', spec: { type: 'pie', x: 'a', y: 'b' } }]);
  });

  it('keeps the user spec per answer chart, and forgets it on reset', () => {
    const s = memory();
    expect(readEdit('t1#0', s)).toBeNull();
    saveEdit('t1#0', { type: 'line', x: 'a', y: 'b' }, s);
    expect(readEdit('t1#0', s)).toEqual({ type: 'line', x: 'a', y: 'b' });
    expect(readEdit('t1#1', s)).toBeNull();
    saveEdit('t1#0', null, s);
    expect(readEdit('t1#0', s)).toBeNull();
  });
});
