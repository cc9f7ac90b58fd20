import { describe, expect, it } from 'vitest';
import { parseFigure, parseOutcome, parseResult } from './outcome';
import { MAX_FIGURE_POINTS } from '../../shared/figureBudget';

describe('parseOutcome', () => {
  it('passes a result and a figure through', () => {
    const json = JSON.stringify({
      ok: true,
      warnings: [],
      result: { kind: 'scalar', value: 6, repr: '6' },
      figure: JSON.stringify({ data: [{ type: 'bar', x: [1, 2], y: [3, 4] }], layout: { title: { text: 't' } } }),
    });
    const out = parseOutcome(json, 12);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.result).toEqual({ kind: 'scalar', value: 6, repr: '6' });
    expect(out.figure?.data[0]?.type).toBe('bar');
    expect(out.figure?.layout).toEqual({ title: { text: 't' } });
    expect(out.elapsedMs).toBe(12);
  });

  it('turns a malformed fig into a warning, not a failure', () => {
    const out = parseOutcome(JSON.stringify({ ok: true, warnings: [], figure: JSON.stringify({ data: 5 }) }), 1);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.figure).toBeUndefined();
    expect(out.warnings[0]).toMatch(/list of trace dicts/);
  });

  it('trims the traceback and flags a MemoryError for restart', () => {
    const out = parseOutcome(
      JSON.stringify({
        ok: false,
        error: {
          type: 'MemoryError',
          message: '',
          traceback: 'Traceback (most recent call last):\n  File "/lib/_dataseer.py", line 1, in run\n    exec(c)\n  File "<python>", line 1, in <module>\n    x = [0] * 10**9\nMemoryError\n',
        },
      }),
      3,
    );
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.restarted).toBe(true);
    expect(out.error.type).toBe('MemoryError');
    expect(out.error.traceback).not.toContain('_dataseer');
    expect(out.error.traceback).toContain('x = [0] * 10**9');
  });

  it('reports an unreadable report as an internal error', () => {
    const out = parseOutcome('not json', 0);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error.type).toBe('InternalError');
  });
});

describe('parseResult', () => {
  it('keeps table shape and recomputes truncation from the rows it holds', () => {
    const r = parseResult({ kind: 'table', columns: ['a', 'b'], rows: [[1, 'x'], [2, 'y']], rowCount: 5000, truncated: false });
    expect(r).toEqual({ kind: 'table', columns: ['a', 'b'], rows: [[1, 'x'], [2, 'y']], rowCount: 5000, truncated: true });
  });

  it('falls back to a repr for an unknown kind', () => {
    expect(parseResult({ kind: 'weird', x: 1 }).kind).toBe('repr');
    expect(parseResult({ kind: 'scalar', value: { a: 1 } }).kind).toBe('repr');
  });
});

describe('parseFigure', () => {
  it('accepts a bare list of traces', () => {
    const fig = parseFigure([{ type: 'scatter', y: [1, 2] }]);
    expect(typeof fig).toBe('object');
    if (typeof fig === 'object') expect(fig.figure.layout).toEqual({});
  });

  it('thins a figure over the point budget and says how to aggregate', () => {
    const n = 250_000;
    const outcome = parseOutcome(JSON.stringify({ ok: true, figure: JSON.stringify({ data: [{ type: 'scatter', mode: 'markers', x: Array.from({ length: n }, (_, i) => i), y: Array.from({ length: n }, (_, i) => i % 7) }] }) }), 1);
    if (!outcome.ok) throw new Error('run failed');
    expect((outcome.figure?.data[0]?.x as unknown[]).length).toBeLessThanOrEqual(MAX_FIGURE_POINTS);
    expect(outcome.warnings.join(' ')).toMatch(/1 point in \d+:.*GROUP BY/);
  });

  it('rejects a layout that is not a dict', () => {
    expect(parseFigure({ data: [], layout: 3 })).toMatch(/layout/);
  });
});
