import { describe, expect, it } from 'vitest';
import { stepSummary, stepTitle } from './stepSummary';
import type { ToolStep } from './turns';

const step = (over: Partial<ToolStep>): ToolStep => ({ kind: 'tool', call_id: 'c', tool: 'run_sql', args: {}, state: 'done', ...over });

describe('step titles and summaries', () => {
  it('say what a query did in words, with its rows and time', () => {
    const s = step({
      args: { sql: 'SELECT count(*) FROM "seattle_weather" WHERE weather = \'sun\'' },
      output: { columns: [{ name: 'n', type: 'BIGINT' }], rows: [[1]], row_count: 1, truncated: false, elapsed_ms: 29 },
      elapsed_ms: 29,
    });
    expect(stepTitle(s)).toBe('Ran a query on seattle_weather');
    expect(stepSummary(s)).toBe('1 row · 29 ms');
  });

  it('say a failed step failed, with the first line of its error', () => {
    const s = step({ state: 'failed', error: 'Binder Error: column "x" not found\nLINE 1', args: { sql: 'SELECT x FROM penguins' } });
    expect(stepTitle(s)).toBe('A query on penguins failed');
    expect(stepSummary(s)).toBe('Binder Error: column "x" not found');
  });

  it('name the verdict of a check without a second confidence figure', () => {
    const s = step({ tool: 'validate_results', output: { is_valid: false, issues: ['a', 'b'], suggestions: [], confidence: 0.9 } });
    expect(stepTitle(s)).toBe('Checked the result');
    expect(stepSummary(s)).toBe('2 issues found');
    expect(stepSummary(s)).not.toMatch(/%/);
  });

  it('describe profiles, charts, Python and example look-ups', () => {
    expect(stepTitle(step({ tool: 'profile_data', args: { dataset: 'penguins' } }))).toBe('Profiled penguins');
    expect(stepSummary(step({ tool: 'profile_data', output: { row_count: 344, quality: { a: {}, b: {} } } }))).toBe('344 rows · 2 columns');
    expect(stepTitle(step({ tool: 'create_chart', args: { chart: { type: 'bar' } } }))).toBe('Drew a bar chart');
    expect(stepSummary(step({ tool: 'run_python', output: { stdout: '', result: null, error: { type: 'NameError', message: "name 'x' is not defined", traceback: '' } } }))).toBe(
      "NameError: name 'x' is not defined",
    );
    expect(stepSummary(step({ tool: 'search_examples', output: [{}, {}] }))).toBe('2 examples');
    expect(stepSummary(step({ state: 'running' }))).toBe('running…');
  });
});
