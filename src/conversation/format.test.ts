import { describe, expect, test } from 'vitest';
import { asPythonOutput, asProfile, asTable, asVerdict, looksLikePython, resultGrid, retryCounts, statusLabel, stepCode } from './format';

describe('step formatting', () => {
  test('stepCode finds the code of code tools only', () => {
    expect(stepCode('run_sql', { sql: 'SELECT 1' })).toEqual({ language: 'sql', code: 'SELECT 1' });
    expect(stepCode('create_chart', { sql: 'SELECT a, b FROM t', chart: { type: 'bar', x: 'a' } })).toEqual({ language: 'sql', code: 'SELECT a, b FROM t' });
    expect(stepCode('run_python', { code: 'result = 1' })).toEqual({ language: 'python', code: 'result = 1' });
    expect(stepCode('run_sql', { query: 'SELECT 1' })).toBeNull();
    expect(stepCode('validate_results', { code: 'SELECT 1' })).toBeNull();
    expect(stepCode('run_python', null)).toBeNull();
  });

  test('looksLikePython tells the two languages apart', () => {
    expect(looksLikePython('t = sql("SELECT 1")\nresult = t')).toBe(true);
    expect(looksLikePython('import statistics\nprint(1)')).toBe(true);
    expect(looksLikePython('SELECT avg(x) FROM t WHERE y = 1')).toBe(false);
  });

  test('asVerdict reads validation reports and nothing else', () => {
    expect(asVerdict({ is_valid: false, confidence: 0.4, issues: ['n is small', 3], suggestions: [] })).toEqual({
      is_valid: false,
      confidence: 0.4,
      issues: ['n is small'],
      suggestions: [],
    });
    expect(asVerdict({ columns: [], rows: [] })).toBeNull();
    expect(asVerdict('valid')).toBeNull();
  });

  test('asPythonOutput keeps stdout, result and a figure', () => {
    expect(asPythonOutput({ stdout: 'hi\n', result: 3, elapsed_ms: 5 })).toEqual({ stdout: 'hi\n', result: 3, figure: null });
    const fig = asPythonOutput({ stdout: '', result: null, figure: { data: [{ type: 'bar' }], layout: { title: 'x' } } });
    expect(fig?.figure).toEqual({ data: [{ type: 'bar' }], layout: { title: 'x' } });
    expect(asPythonOutput({ columns: [], rows: [] })).toBeNull();
  });

  test('asTable accepts run_sql results and Python tables', () => {
    expect(asTable({ columns: [{ name: 'a', type: 'INTEGER' }], rows: [[1]], row_count: 1, truncated: false })?.columns).toEqual(['a']);
    expect(asTable({ columns: ['a', 'b'], rows: [[1, 2]] })).toEqual({ columns: ['a', 'b'], rows: [[1, 2]], row_count: 1, truncated: false });
  });

  test('asProfile flattens column quality', () => {
    const p = asProfile({
      dataset: 'penguins',
      row_count: 344,
      columns_found: ['a'],
      columns_missing: ['zz'],
      quality: { a: { dtype: 'DOUBLE', missing: 2, unique: 10, sample: [], min: 1, max: 9, mean: 4.123456789 } },
      can_proceed: true,
      issues: ['zz not found'],
    });
    expect(p).toEqual({
      dataset: 'penguins',
      row_count: 344,
      rows: [{ column: 'a', dtype: 'DOUBLE', missing: '2', unique: '10', min: '1', max: '9', mean: '4.12346' }],
      missing_columns: ['zz'],
      issues: ['zz not found'],
    });
  });

  test('retryCounts numbers consecutive attempts after failures', () => {
    const steps = [
      { kind: 'tool', tool: 'run_sql', state: 'failed' },
      { kind: 'status' },
      { kind: 'tool', tool: 'run_sql', state: 'failed' },
      { kind: 'tool', tool: 'validate_results', state: 'done' },
      { kind: 'tool', tool: 'run_python', state: 'done' },
      { kind: 'tool', tool: 'run_sql', state: 'done' },
    ];
    expect(retryCounts(steps)).toEqual([0, 0, 1, 0, 2, 0]);
  });

  test('statusLabel names known statuses and passes unknown ones through', () => {
    expect(statusLabel('loop_detected')).toBe('Loop detected');
    expect(statusLabel('summarizing')).toBe('Summarising earlier turns');
    expect(statusLabel('something_new')).toBe('something_new');
  });
});

describe('resultGrid', () => {
  test('a run_sql result keeps its column types', () => {
    const g = resultGrid({ columns: [{ name: 'n', type: 'BIGINT' }, { name: 's', type: 'VARCHAR' }], rows: [[1, 'a']], row_count: 1, truncated: false, elapsed_ms: 3 });
    expect(g).toEqual({ columns: [{ name: 'n', type: 'BIGINT' }, { name: 's', type: 'VARCHAR' }], rows: [[1, 'a']], row_count: 1, truncated: false });
  });
  test('a Python table result gets inferred types and JSON for nested values', () => {
    const g = resultGrid({ stdout: '', result: { columns: ['x', 'y'], rows: [[1, { a: 1 }], [null, 'b']], row_count: 2, truncated: false }, elapsed_ms: 1 });
    expect(g?.columns).toEqual([{ name: 'x', type: 'DOUBLE' }, { name: 'y', type: 'VARCHAR' }]);
    expect(g?.rows).toEqual([[1, '{"a":1}'], [null, 'b']]);
  });
  test('scalars and empty tables are not grids', () => {
    expect(resultGrid({ stdout: '', result: 3, elapsed_ms: 1 })).toBeNull();
    expect(resultGrid(42)).toBeNull();
    expect(resultGrid({ columns: [], rows: [] })).toBeNull();
  });
});
