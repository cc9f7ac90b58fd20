import { describe, expect, it } from 'vitest';
import type { PlotlyFigure } from '../../protocol/figure';
import { answerMarkdown, figureLabel, outlineTurn, tableOf } from './outline';
import { FIGURE, chartStep, final, sqlStep, turn } from './testing/threads';

const PY_FIG: PlotlyFigure = { data: [{ type: 'scatter', x: [1], y: [2] }], layout: {} };

describe('outline', () => {
  it('gives each chart step the next figure that is not a Python step\'s own, and keeps the rest', () => {
    const extra: PlotlyFigure = { data: [{ type: 'pie' }] };
    const t = outlineTurn(
      turn(
        'q',
        [
          { kind: 'tool', call_id: 'p', tool: 'run_python', args: { code: 'fig = 1' }, state: 'done', output: { stdout: '', result: null, figure: PY_FIG } },
          chartStep,
          { ...chartStep, call_id: 'bad', state: 'failed', error: 'Error: no rows' },
        ],
        final('a', { figures: [PY_FIG, FIGURE, extra] }),
      ),
    );
    const kinds = t.items.map((i) => i.kind);
    expect(kinds).toEqual(['python', 'chart', 'chart']);
    expect(t.items[1]).toMatchObject({ kind: 'chart', figure: FIGURE, chart: { type: 'bar', x: 'Species', y: 'mean_mass' } });
    expect(t.items[2]).toMatchObject({ kind: 'chart', figure: null, error: 'Error: no rows' });
    expect(t.extraFigures).toEqual([extra]);
  });

  it('reads SQL and Python table shapes', () => {
    expect(tableOf({ columns: [{ name: 'a', type: 'INT' }], rows: [[1]], row_count: 5, truncated: false })).toEqual({ columns: ['a'], rows: [[1]], rowCount: 5, truncated: true });
    expect(tableOf({ columns: ['x'], rows: [[1], 'junk'] })).toEqual({ columns: ['x'], rows: [[1]], rowCount: 1, truncated: false });
    expect(tableOf('text')).toBeNull();
  });

  it('summarises the non-code tools in a line', () => {
    const t = outlineTurn(
      turn(
        'q',
        [
          { kind: 'tool', call_id: 'v', tool: 'validate_results', args: {}, state: 'done', output: { is_valid: false, issues: ['small n'], suggestions: [], confidence: 0.4 } },
          { kind: 'tool', call_id: 'pr', tool: 'profile_data', args: { dataset: 'penguins' }, state: 'done', output: { dataset: 'penguins', row_count: 344, columns_found: ['a', 'b'], columns_missing: [], issues: [], can_proceed: true, quality: {} } },
          sqlStep(),
        ],
        null,
        { text: 'partial', state: 'stopped' },
      ),
    );
    expect(t.items[0]).toEqual({ kind: 'note', markdown: '*Validation:* not valid (confidence 40%). Issues: small n.' });
    expect(t.items[1]).toEqual({ kind: 'note', markdown: '*Profiled* `penguins`: 344 rows, 2 columns.' });
    expect(answerMarkdown(t)).toContain('partial\n\n*(The run ended before the answer was complete.)*');
  });

  it('flags ungrounded numbers in the answer', () => {
    const md = answerMarkdown(outlineTurn(turn('q', [], final('It is 12.', { ungrounded_numbers: ['12'] }))));
    expect(md).toContain('**Not found in any tool output** (check before relying on them): 12');
  });

  it('leaves out a draft note that became the answer unchanged', () => {
    const t = outlineTurn(turn('q', [{ kind: 'note', text: 'Gentoo.\n' }, { kind: 'note', text: 'Looking first.' }], final('Gentoo.')));
    expect(t.items).toEqual([{ kind: 'note', markdown: 'Looking first.' }]);
  });
});

describe('figureLabel', () => {
  it('reads a styled title as its words', () => {
    expect(figureLabel({ data: [{ type: 'bar' }], layout: { title: { text: '<span style="color:red">Counts</span> <b>by</b> species' } } })).toBe('Counts by species: bar chart');
  });
});
