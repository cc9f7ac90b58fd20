/// <reference types="node" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { duckdbHost } from '../testing/duckdbHost';
import { CHART_ROWS, chartRows, reduction } from './chartRows';
import { executeTool, type ToolDeps } from './execute';

let instance: DuckDBInstance;
let conn: DuckDBConnection;
const signal = new AbortController().signal;

beforeAll(async () => {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
  // 40,000 rows: over 13× what a chart takes; five categories, two groups.
  await conn.run(`CREATE TABLE big AS SELECT range AS i, range % 5 AS cat, CASE WHEN range % 2 = 0 THEN 'even' ELSE 'odd' END AS grp, (range % 1000) / 10.0 AS v FROM range(40000)`);
});
afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

// Native DuckDB on a shared machine: generous time per test (no timing is asserted).
describe('create_chart rows reduced in DuckDB', { timeout: 60_000 }, () => {
  it('leaves a result that fits as it is', async () => {
    const r = await chartRows(duckdbHost(conn), 'SELECT cat, sum(v) AS v FROM big GROUP BY cat ORDER BY cat', { type: 'bar', x: 'cat', y: 'v' }, signal);
    expect(r.ok && r.value.reduced).toBe(undefined);
    expect(r.ok && r.value.table.rows.length).toBe(5);
  });

  it('sums bars per category over every row (not the first rows)', async () => {
    const r = await chartRows(duckdbHost(conn), 'SELECT cat, v FROM big;', { type: 'bar', x: 'cat', y: 'v' }, signal);
    if (!r.ok) throw new Error(r.message);
    expect(r.value.table.rows.length).toBe(5);
    const exact = Number((await conn.runAndReadAll('SELECT sum(v) FROM big WHERE cat = 0')).getRowsJS()[0]?.[0]);
    expect(Number(r.value.table.rows[0]?.[1])).toBeCloseTo(exact, 3);
    expect(r.value.reduced).toMatch(/the sum of v per cat over all 40,000 rows/);
  });

  it('averages heatmap cells per x and colour', async () => {
    const r = await chartRows(duckdbHost(conn), 'SELECT cat, grp, v FROM big', { type: 'heatmap', x: 'cat', color: 'grp', y: 'v' }, signal);
    if (!r.ok) throw new Error(r.message);
    expect(r.value.table.rows.length).toBe(10);
  });

  it('samples points evenly (a reservoir, the same each time), lines in x order', async () => {
    const host = duckdbHost(conn);
    const a = await chartRows(host, 'SELECT i, v FROM big ORDER BY i', { type: 'scatter', x: 'i', y: 'v' }, signal);
    const b = await chartRows(host, 'SELECT i, v FROM big ORDER BY i', { type: 'scatter', x: 'i', y: 'v' }, signal);
    if (!a.ok || !b.ok) throw new Error('failed');
    expect(a.value.table.rows.length).toBe(CHART_ROWS);
    expect(a.value.table.rows).toEqual(b.value.table.rows);
    // From the whole range, not its head.
    expect(Math.max(...a.value.table.rows.map((r) => Number(r[0])))).toBeGreaterThan(35_000);
    expect(a.value.reduced).toMatch(new RegExp(`random sample of ${CHART_ROWS.toLocaleString('en-US')} of the 40,000 rows`));
    const line = await chartRows(host, 'SELECT i, v FROM big', { type: 'line', x: 'i', y: 'v' }, signal);
    if (!line.ok) throw new Error(line.message);
    const xs = line.value.table.rows.map((r) => Number(r[0]));
    expect(xs).toEqual([...xs].sort((p, q) => p - q));
  });

  it('quotes column names and keeps a WITH query whole', () => {
    const plan = reduction('WITH t AS (SELECT 1 AS "a b") SELECT * FROM t;', { type: 'bar', x: 'a b', y: 'a"b' });
    expect(plan?.sql).toContain('"a b", sum("a""b")');
    expect(plan?.sql).toContain('(WITH t AS (SELECT 1 AS "a b") SELECT * FROM t\n)');
  });

  it('keeps a query that ends in a line comment whole', async () => {
    const r = await chartRows(duckdbHost(conn), 'SELECT i, v FROM big -- every row', { type: 'box', x: 'v' }, signal);
    expect(r.ok && r.value.reduced).toMatch(/random sample/);
  });

  it('draws a query DuckDB will not take as a subquery as before, and says so', async () => {
    const base = duckdbHost(conn);
    // The data worker refuses what its judge does not take (here: any wrapped form).
    const host = { ...base, runSql: (sql: string, max: number, sig: AbortSignal) => (sql.includes('__rows') ? Promise.resolve({ ok: false as const, message: 'Parser Error' }) : base.runSql(sql, max, sig)) };
    const r = await chartRows(host, 'SELECT i, v FROM big', { type: 'box', x: 'v' }, signal);
    if (!r.ok) throw new Error(r.message);
    expect(r.value.table.rows.length).toBe(CHART_ROWS);
    expect(r.value.reduced).toBe(`the first ${CHART_ROWS.toLocaleString('en-US')} rows only`);
  });

  it('tells the model through create_chart what the chart is drawn from', async () => {
    const deps: ToolDeps = {
      host: duckdbHost(conn),
      validate: async () => ({ is_valid: true, issues: [], suggestions: [], confidence: 1 }),
      searchExamples: async () => [],
    };
    const run = await executeTool({ id: 'c', name: 'create_chart', args: { sql: 'SELECT cat, v FROM big', chart: { type: 'pie', x: 'cat', y: 'v' } } }, deps, signal);
    expect(run.modelText).toMatch(/Drawn from the sum of v per cat over all 40,000 rows\./);
  });
});
