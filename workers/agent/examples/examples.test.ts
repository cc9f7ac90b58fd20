/**
 * The example library must be usable as written: every SQL pattern runs on native DuckDB once
 * its placeholders are filled in, every chart pattern is a valid create_chart call whose SQL
 * runs, and every Python pattern is valid Python.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { CreateChartArgsSchema } from '../../../protocol/agent/tools';
import { EXAMPLES, EXAMPLE_CATEGORIES } from './library';

const require = createRequire(import.meta.url);
const weatherCsv = join(dirname(require.resolve('vega-datasets')), '..', 'data', 'seattle-weather.csv');

/** Placeholders → names in the test tables (seattle-weather plus derived columns). */
const FILL: Record<string, string> = {
  '<table>': 'weather',
  '<other_table>': 'weather_labels',
  '<group_col>': 'kind',
  '<group_a>': 'sun',
  '<group_b>': 'rain',
  '<value_col>': 'temp_max',
  '<x_col>': 'temp_min',
  '<y_col>': 'temp_max',
  '<date_col>': 'date',
  '<flag_col>': 'rained',
  '<key_col>': 'kind',
};

function fill(pattern: string): string {
  let out = pattern;
  for (const [k, v] of Object.entries(FILL)) out = out.split(k).join(v);
  return out;
}

function chartArgs(pattern: string): unknown {
  const m = /^create_chart\(([\s\S]*)\)$/.exec(fill(pattern).trim());
  if (!m) throw new Error('not a create_chart call');
  return JSON.parse(m[1] ?? '');
}

describe('example library', () => {
  it('has at least 30 examples with unique ids, covering every category', () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(30);
    expect(new Set(EXAMPLES.map((e) => e.id)).size).toBe(EXAMPLES.length);
    for (const c of EXAMPLE_CATEGORIES) expect(EXAMPLES.filter((e) => e.category === c).length).toBeGreaterThanOrEqual(4);
    for (const e of EXAMPLES) {
      expect(e.question.length).toBeGreaterThan(10);
      expect(e.tags.length).toBeGreaterThanOrEqual(3);
      expect(e.approach.length).toBeGreaterThan(20);
    }
  });

  it('uses only the documented placeholders', () => {
    for (const e of EXAMPLES) {
      const left = fill(e.code_pattern).match(/<[a-z_]+>/g);
      expect(left, e.id).toBeNull();
    }
  });

  it('offers Python patterns both with and without pandas', () => {
    const py = EXAMPLES.filter((e) => e.language === 'python');
    expect(py.some((e) => e.code_pattern.includes('pandas') || e.code_pattern.includes('groupby'))).toBe(true);
    expect(py.filter((e) => e.tags.includes('stdlib')).length).toBeGreaterThanOrEqual(5);
  });
});

describe('SQL and chart patterns on native DuckDB', () => {
  let instance: DuckDBInstance;
  let conn: DuckDBConnection;

  beforeAll(async () => {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    instance = await DuckDBInstance.create(':memory:');
    conn = await instance.connect();
    await conn.run(
      `CREATE TABLE weather AS SELECT *, weather AS kind, (precipitation > 0)::INT AS rained FROM read_csv('${weatherCsv}')`,
    );
    // One planted outlier, so the outlier and anomaly patterns have something to find.
    await conn.run(`INSERT INTO weather SELECT * REPLACE (80.0 AS temp_max) FROM weather WHERE kind = 'sun' LIMIT 1`);
    await conn.run(`CREATE TABLE weather_labels AS SELECT DISTINCT kind, upper(kind) AS label FROM weather WHERE kind <> 'fog'`);
  });

  afterAll(() => {
    conn?.closeSync();
    instance?.closeSync();
  });

  for (const e of EXAMPLES.filter((x) => x.language === 'sql')) {
    it(`${e.id} runs and returns rows`, async () => {
      const reader = await conn.runAndReadAll(fill(e.code_pattern));
      expect(reader.currentRowCount, e.id).toBeGreaterThan(0);
    });
  }

  for (const e of EXAMPLES.filter((x) => x.language === 'chart')) {
    it(`${e.id} is a valid create_chart call whose SQL yields its columns`, async () => {
      const parsed = CreateChartArgsSchema.safeParse(chartArgs(e.code_pattern));
      expect(parsed.success, e.id).toBe(true);
      if (!parsed.success) return;
      const reader = await conn.runAndReadAll(parsed.data.sql);
      expect(reader.currentRowCount).toBeGreaterThan(0);
      const cols = reader.columnNames();
      for (const c of [parsed.data.chart.x, parsed.data.chart.y, parsed.data.chart.color]) if (c) expect(cols).toContain(c);
    });
  }

  it('the outlier and z-score examples find the planted outlier', async () => {
    for (const id of ['pat_outliers_iqr_sql', 'pat_zscore_sql']) {
      const e = EXAMPLES.find((x) => x.id === id);
      const rows = (await conn.runAndReadAll(fill(e?.code_pattern ?? ''))).getRowObjectsJson();
      expect(Number(rows[0]?.temp_max), id).toBe(80);
    }
  });

  it('the join example finds unmatched rows (fog has no label)', async () => {
    const e = EXAMPLES.find((x) => x.id === 'ops_join_sql');
    const rows = (await conn.runAndReadAll(fill(e?.code_pattern ?? ''))).getRowObjectsJson();
    expect(Number(rows[0]?.rows_unmatched)).toBeGreaterThan(0);
  });

  it('the Pearson example agrees with a direct corr()', async () => {
    const e = EXAMPLES.find((x) => x.id === 'rel_pearson_sql');
    const [row] = (await conn.runAndReadAll(fill(e?.code_pattern ?? ''))).getRowObjectsJson();
    const [ref] = (await conn.runAndReadAll('SELECT corr(temp_max, temp_min) AS r FROM weather')).getRowObjectsJson();
    expect(Number(row?.pearson_r)).toBeCloseTo(Number(ref?.r), 4);
  });
});

describe('Python patterns', () => {
  const python = EXAMPLES.filter((e) => e.language === 'python');
  it('every pattern is valid Python 3', () => {
    const sources = JSON.stringify(python.map((e) => ({ id: e.id, code: fill(e.code_pattern) })));
    const script = 'import ast, json, sys\nbad = []\nfor item in json.loads(sys.stdin.read()):\n    try:\n        ast.parse(item["code"])\n    except SyntaxError as e:\n        bad.append(f"{item[\'id\']}: {e}")\nprint(json.dumps(bad))';
    const out = execFileSync('python3', ['-c', script], { input: sources, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([]);
    expect(python.length).toBeGreaterThanOrEqual(8);
  });
});
