import { describe, expect, it } from 'vitest';
import type { RunSqlResult } from '../../../protocol/agent/tools';
import { INVALID_ARGS_KEY, executeTool, type ToolDeps, type ToolHost } from './execute';

const table: RunSqlResult = {
  columns: [{ name: 'species', type: 'VARCHAR' }, { name: 'n', type: 'BIGINT' }],
  rows: [['Adelie', 152], ['Gentoo', 124]],
  row_count: 2,
  truncated: false,
  elapsed_ms: 1,
};

function deps(over: Partial<ToolHost> = {}, extra: Partial<ToolDeps> = {}): ToolDeps {
  const host: ToolHost = {
    runSql: async (sql, maxRows) => (sql.includes('boom') ? { ok: false, message: 'Binder Error: column boom' } : { ok: true, value: { ...table, rows: table.rows.slice(0, maxRows) } }),
    profile: async (a) => ({ ok: true, value: { dataset: a.dataset, row_count: 2, columns_found: [], columns_missing: [], quality: {}, can_proceed: true, issues: [] } }),
    runPython: async (code) =>
      code.includes('raise')
        ? { ok: true, value: { stdout: 'before\n', result: null, error: { type: 'ValueError', message: 'bad', traceback: 'Traceback\n  line 1\nValueError: bad' }, elapsed_ms: 2 } }
        : { ok: true, value: { stdout: '', result: { mean: 1.5 }, figure: { data: [{ type: 'bar' }] }, elapsed_ms: 2 } },
    ...over,
  };
  return {
    host,
    validate: async () => ({ is_valid: true, issues: [], suggestions: [], confidence: 0.8 }),
    searchExamples: async (q, k) => [{ id: 'x', question: q, tags: [], approach: '', code_pattern: '' }].slice(0, k),
    ...extra,
  };
}
const signal = new AbortController().signal;

describe('executeTool', () => {
  it('runs SQL and returns the table to the model as JSON', async () => {
    const r = await executeTool({ id: 'c1', name: 'run_sql', args: { sql: 'SELECT 1', max_rows: 1 } }, deps(), signal);
    expect(r.outcome).toMatchObject({ ok: true, tool: 'run_sql', callId: 'c1' });
    expect(JSON.parse(r.modelText)).toMatchObject({ rows: [['Adelie', 152]] });
    expect(r.result?.output).toMatchObject({ row_count: 2 });
  });

  it('returns engine errors, bad arguments and unknown tools as Error: text', async () => {
    const sqlErr = await executeTool({ id: 'c', name: 'run_sql', args: { sql: 'SELECT boom' } }, deps(), signal);
    expect(sqlErr.modelText).toBe('Error: Binder Error: column boom');
    expect(sqlErr.outcome).toMatchObject({ ok: false, error: 'Error: Binder Error: column boom' });
    const badArgs = await executeTool({ id: 'c', name: 'run_sql', args: { query: 'x' } }, deps(), signal);
    expect(badArgs.modelText).toMatch(/^Error: invalid arguments for run_sql: sql/);
    const invalid = await executeTool({ id: 'c', name: 'run_sql', args: { [INVALID_ARGS_KEY]: '{"sql": SEL' } }, deps(), signal);
    expect(invalid.modelText).toMatch(/not valid JSON \(\{"sql": SEL\)/);
    const unknown = await executeTool({ id: 'c', name: 'execute_code', args: {} }, deps(), signal);
    expect(unknown.modelText).toMatch(/^Error: there is no tool named execute_code/);
  });

  it('reports Python exceptions with the traceback tail and stdout', async () => {
    const r = await executeTool({ id: 'p', name: 'run_python', args: { code: 'raise ValueError("bad")' } }, deps(), signal);
    expect(r.outcome.ok).toBe(false);
    expect(r.modelText).toMatch(/^Error: ValueError: bad\nTraceback[\s\S]*stdout:\nbefore/);
    const fine = await executeTool({ id: 'p', name: 'run_python', args: { code: 'result = 1' } }, deps(), signal);
    expect(fine.figure).toEqual({ data: [{ type: 'bar' }] });
  });

  it('builds a chart from SQL and returns only a summary to the model', async () => {
    const r = await executeTool({ id: 'fig1', name: 'create_chart', args: { sql: 'SELECT 1', chart: { type: 'bar', x: 'species', y: 'n' } } }, deps(), signal);
    expect(r.result?.output).toEqual({ figure_id: 'fig1', points: 2, summary: 'bar chart of 2 rows: x=species, y=n.' });
    expect(r.figure?.data).toHaveLength(1);
    const wrong = await executeTool({ id: 'f', name: 'create_chart', args: { sql: 'SELECT 1', chart: { type: 'bar', x: 'island', y: 'n' } } }, deps(), signal);
    expect(wrong.modelText).toMatch(/x column "island" is not in the query result/);
  });

  it('records validation reports and serves examples', async () => {
    const v = await executeTool({ id: 'v', name: 'validate_results', args: { question: 'q', approach: 'a', results: 'r', code: 'c' } }, deps(), signal);
    expect(v.outcome.report).toEqual({ is_valid: true, issues: [], suggestions: [], confidence: 0.8 });
    const s = await executeTool({ id: 's', name: 'search_examples', args: { query: 'ttest', top_k: 1 } }, deps(), signal);
    expect(s.result?.output).toHaveLength(1);
  });

  it('times out a slow tool and says so', async () => {
    const slow = deps({ runSql: () => new Promise(() => undefined) }, { timeoutMs: { run_sql: 50 } });
    const r = await executeTool({ id: 't', name: 'run_sql', args: { sql: 'SELECT 1' } }, slow, signal);
    expect(r.modelText).toBe('Error: timed out after 50 ms');
    expect(r.elapsedMs).toBeGreaterThanOrEqual(45);
  });

  it('rethrows when the run itself is aborted', async () => {
    const ctrl = new AbortController();
    const hang = deps({ runSql: (_s, _m, sig) => new Promise((_, rej) => sig.addEventListener('abort', () => rej(new Error('aborted')))) });
    const p = executeTool({ id: 'a', name: 'run_sql', args: { sql: 'SELECT 1' } }, hang, ctrl.signal);
    ctrl.abort();
    await expect(p).rejects.toThrow('aborted');
  });
});
