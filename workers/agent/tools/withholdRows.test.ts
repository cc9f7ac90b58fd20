import { describe, expect, it } from 'vitest';
import type { ProfileDataResult, RunPythonResult, RunSqlResult } from '../../../protocol/agent/tools';
import { executeTool, resultForModel, type ToolDeps, type ToolHost } from './execute';
import { limitLines, rowPolicyOf, withholdRows } from './withholdRows';

const policy = { maxRows: 3 };
const fifty: RunSqlResult = {
  columns: [{ name: 'city', type: 'VARCHAR' }, { name: 'n', type: 'INTEGER' }],
  rows: Array.from({ length: 50 }, (_, i) => [`City-${i}`, i]),
  row_count: 50,
  truncated: false,
  elapsed_ms: 3,
};
const profile: ProfileDataResult = {
  dataset: 'people',
  row_count: 50,
  columns_found: ['name', 'age', 'born'],
  columns_missing: [],
  quality: {
    name: { dtype: 'VARCHAR', missing: 0, unique: 50, sample: ['Zelda Quint', 'Ann'], min: 'Ann', max: 'Zelda Quint' },
    age: { dtype: 'INTEGER', missing: 1, unique: 40, sample: [31, 42], min: 18, max: 90, mean: 44.5 },
    born: { dtype: 'DATE', missing: 0, unique: 50, sample: ['1990-01-01'], min: '1930-02-03', max: '2007-12-31' },
  },
  can_proceed: true,
  issues: [],
};

describe('withholdRows', () => {
  it('changes nothing without a policy', () => {
    expect(withholdRows('run_sql', fifty, undefined)).toBe(fifty);
    expect(withholdRows('profile_data', profile, undefined)).toBe(profile);
    expect(rowPolicyOf({}, 20)).toBeUndefined();
    expect(rowPolicyOf({ noRawRows: true }, 20)).toEqual({ maxRows: 20 });
    expect(rowPolicyOf({ noRawRows: true, rowsPerToolOutput: 3 }, 20)).toEqual({ maxRows: 3 });
  });

  it('drops profile samples and the min/max of text columns, keeping the aggregates', () => {
    const shaped = withholdRows('profile_data', profile, policy) as ProfileDataResult & { note: string };
    expect(shaped.quality.name).toEqual({ dtype: 'VARCHAR', missing: 0, unique: 50, sample: [] });
    expect(shaped.quality.age).toEqual({ dtype: 'INTEGER', missing: 1, unique: 40, sample: [], min: 18, max: 90, mean: 44.5 });
    expect(shaped.quality.born).toMatchObject({ sample: [], min: '1930-02-03', max: '2007-12-31' });
    expect(shaped.note).toMatch(/No raw rows/);
    expect(JSON.stringify(shaped)).not.toContain('Zelda');
    // the UI's copy is untouched
    expect(profile.quality.name?.sample).toEqual(['Zelda Quint', 'Ann']);
  });

  it('cuts a SQL result to N rows with a note, keeping the schema and the true row count', () => {
    const shaped = withholdRows('run_sql', fifty, policy) as RunSqlResult & { note: string };
    expect(shaped.rows).toEqual([['City-0', 0], ['City-1', 1], ['City-2', 2]]);
    expect(shaped.columns).toEqual(fifty.columns);
    expect(shaped.row_count).toBe(50);
    expect(shaped.truncated).toBe(true);
    expect(shaped.note).toMatch(/at most 3 rows/);
    expect(fifty.rows).toHaveLength(50);
    // A small result passes as it is.
    const small = { ...fifty, rows: fifty.rows.slice(0, 2), row_count: 2 };
    expect(withholdRows('run_sql', small, policy)).toEqual(small);
  });

  it('cuts Python stdout lines, result tables and lists, and hides figure data', () => {
    const out: RunPythonResult = {
      stdout: Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n') + '\n',
      result: { columns: ['a', 'b', 'c', 'd', 'e'], rows: Array.from({ length: 9 }, (_, i) => [i, i, i, i, i]), row_count: 9, truncated: false },
      figure: { data: [{ type: 'bar', x: ['Secret-X'], y: [1] }] },
      elapsed_ms: 1,
    };
    const shaped = withholdRows('run_python', out, policy) as Record<string, unknown> & { result: { columns: string[]; rows: unknown[] } };
    expect(shaped.stdout).toBe('line 0\nline 1\nline 2\n… [7 more lines withheld: No raw rows]\n');
    expect(shaped.result.columns).toHaveLength(5);
    expect(shaped.result.rows).toHaveLength(3);
    expect(shaped.figure).toMatch(/a chart with 1 trace, shown to the user/);
    expect(JSON.stringify(shaped)).not.toContain('Secret-X');
    expect(shaped.note).toMatch(/No raw rows/);
    // A bare list (or column-oriented dict) is cut too.
    expect(withholdRows('run_python', { stdout: '', result: { x: [1, 2, 3, 4, 5] }, elapsed_ms: 1 }, policy)).toMatchObject({ result: { x: [1, 2, 3] } });
    expect(withholdRows(undefined, [1, 2, 3, 4], policy)).toMatchObject({ value: [1, 2, 3] });
  });

  it('leaves chart summaries, critic reports and examples alone', () => {
    const chart = { figure_id: 'c', points: 50, summary: 'bar chart of 50 rows: x=city, y=n.' };
    expect(withholdRows('create_chart', chart, policy)).toEqual(chart);
    const examples = [1, 2, 3, 4].map((i) => ({ id: `e${i}`, question: 'q', tags: [], approach: '', code_pattern: '' }));
    expect(withholdRows('search_examples', examples, policy)).toBe(examples);
  });

  it('limitLines keeps short text as it is', () => {
    expect(limitLines('a\nb\n', 2)).toBe('a\nb\n');
    expect(limitLines('a\nb\nc', 2)).toBe('a\nb\n… [1 more lines withheld: No raw rows]\n');
  });
});

describe('executeTool under No raw rows', () => {
  const host: ToolHost = {
    runSql: async () => ({ ok: true, value: fifty }),
    profile: async () => ({ ok: true, value: profile }),
    runPython: async () => ({
      ok: true,
      value: { stdout: 'r1\nr2\nr3\nr4\nr5\n', result: null, error: { type: 'KeyError', message: 'x', traceback: 'KeyError: x' }, elapsed_ms: 1 },
    }),
  };
  const deps: ToolDeps = {
    host,
    rowPolicy: policy,
    validate: async () => ({ is_valid: true, issues: [], suggestions: [], confidence: 1 }),
    searchExamples: async () => [],
  };
  const signal = new AbortController().signal;

  it('sends the model at most N rows while the UI keeps the full output', async () => {
    const r = await executeTool({ id: 's', name: 'run_sql', args: { sql: 'SELECT * FROM t' } }, deps, signal);
    expect((JSON.parse(r.modelText) as RunSqlResult).rows).toHaveLength(3);
    expect(r.modelText).not.toContain('City-3');
    expect((r.result?.output as RunSqlResult).rows).toHaveLength(50);
    const p = await executeTool({ id: 'p', name: 'profile_data', args: { dataset: 'people' } }, deps, signal);
    expect(p.modelText).not.toContain('Zelda');
    expect((p.result?.output as ProfileDataResult).quality.name?.sample).toContain('Zelda Quint');
  });

  it('limits the stdout quoted in a Python error', async () => {
    const r = await executeTool({ id: 'p', name: 'run_python', args: { code: 'x' } }, deps, signal);
    expect(r.modelText).toContain('stdout:\nr1\nr2\nr3\n');
    expect(r.modelText).not.toContain('r4');
  });

  it('shapes a result quoted to the critic', () => {
    expect(resultForModel(deps, fifty)).not.toContain('City-3');
    expect(resultForModel({}, fifty)).toContain('City-49');
  });
});
