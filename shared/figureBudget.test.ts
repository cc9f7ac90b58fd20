import { describe, expect, it } from 'vitest';
import { fitFigure, MAX_FIGURE_POINTS, tracePoints } from './figureBudget';
import { sanitiseFigure, sanitiseFigureWithNote } from './figureSafety';

type Fig = { data: Record<string, unknown>[]; layout?: Record<string, unknown>; frames?: unknown[] };
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** plotly.py ≥ 6's typed array for float64 values. */
function f8(values: number[]): { dtype: string; bdata: string } {
  const bytes = new Uint8Array(new Float64Array(values).buffer);
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return { dtype: 'f8', bdata: btoa(s) };
}
function readF8(v: unknown): number[] {
  const { bdata } = v as { bdata: string };
  const s = atob(bdata);
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return [...new Float64Array(bytes.buffer)];
}

describe('fitFigure', () => {
  it('leaves a figure within the budget as it is (the same object)', () => {
    const fig = { data: [{ type: 'scatter', x: range(100), y: range(100) }] };
    expect(fitFigure(fig).figure).toBe(fig);
    expect(fitFigure(fig).note).toBeUndefined();
  });

  it('counts points from lengths: arrays, grids, typed arrays', () => {
    expect(tracePoints({ x: range(10), y: range(12), marker: { color: range(30) } })).toBe(30);
    expect(tracePoints({ type: 'heatmap', z: [range(5), range(5), range(5)] })).toBe(15);
    expect(tracePoints({ y: f8(range(40)) })).toBe(40);
    expect(tracePoints({ type: 'splom', dimensions: [{ values: range(50) }, { values: range(50) }] })).toBe(50);
    // A table counts its rows: 1,000 rows of 5 columns is drawn.
    const table = { type: 'table', header: { values: ['a', 'b', 'c', 'd', 'e'] }, cells: { values: range(5).map(() => range(1000)) } };
    expect(tracePoints(table)).toBe(1000);
    expect(fitFigure({ data: [table] }).note).toBeUndefined();
  });

  it('thins every trace by the same step, per-point attributes with it, and says so on the chart', () => {
    const n = 250_000;
    const fig: Fig = {
      data: [
        { type: 'scatter', mode: 'markers', x: range(n), y: range(n).map((i) => i * 2), marker: { color: range(n), colorscale: [[0, 'red'], [1, 'blue']] }, text: range(n).map(String) },
        { type: 'scattergl', x: range(n / 5), y: f8(range(n / 5)) },
      ],
      layout: { title: { text: 'big' } },
    };
    const { figure, note } = sanitiseFigureWithNote(fig);
    const [a, b] = figure.data as Record<string, unknown>[];
    const ax = a?.x as number[];
    const total = ax.length + (b?.x as number[]).length;
    expect(total).toBeLessThanOrEqual(MAX_FIGURE_POINTS);
    const step = ax[1] as number;
    expect(step).toBeGreaterThan(1);
    // The same points across x, y, colours and text, evenly spaced.
    expect((a?.y as number[]).slice(0, 3)).toEqual([0, 2 * step, 4 * step]);
    expect(((a?.marker as Record<string, unknown>).color as number[]).slice(0, 2)).toEqual([0, step]);
    expect((a?.text as string[])[1]).toBe(String(step));
    expect((a?.marker as Record<string, unknown>).colorscale).toEqual([[0, 'red'], [1, 'blue']]);
    expect(readF8(b?.y).slice(0, 2)).toEqual([0, step]);
    expect(note).toMatch(/GROUP BY/);
    const annotations = (figure.layout as Record<string, unknown>).annotations as { text: string }[];
    expect(annotations.at(-1)?.text).toMatch(/^1 in [\d,]+ of 300,000 points shown$/);
    // Sanitised again (the worker, then the page): no second thinning, no second note.
    expect(sanitiseFigure(figure)).toEqual(figure);
  });

  it('thins frames too', () => {
    const fig: Fig = { data: [{ type: 'scatter', x: range(3000), y: range(3000) }], frames: [{ name: 'a', data: [{ x: range(3000), y: range(3000) }] }] };
    const out = fitFigure(fig).figure as Fig;
    const frameX = ((out.frames?.[0] as Fig).data[0]?.x as number[]).length;
    expect((out.data[0]?.x as number[]).length + frameX).toBeLessThanOrEqual(MAX_FIGURE_POINTS);
  });

  it('leaves out what cannot be thinned and says how to aggregate', () => {
    const grid = range(3000).map(() => range(3000));
    const { figure, note } = sanitiseFigureWithNote({ data: [{ type: 'heatmap', z: grid }] });
    expect(figure.data).toEqual([]);
    expect(note).toMatch(/not drawn.*9,000,000 points.*GROUP BY/);
    const tiny = sanitiseFigureWithNote({ data: range(6000).map((i) => ({ type: 'bar', x: [i], y: [1] })) });
    expect(tiny.figure.data).toEqual([]);
    expect(sanitiseFigure(figure)).toEqual(figure);
  });
});
