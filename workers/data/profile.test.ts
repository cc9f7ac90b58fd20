import { describe, expect, it } from 'vitest';
import { describeTable } from './catalog';
import { columnKind, profileTable } from './profile';
import { NodeEngine } from './testing/nodeEngine';

describe('profile', { timeout: 60_000 }, () => {
  it('classifies DuckDB types', () => {
    expect(['BIGINT', 'DECIMAL(18,3)', 'UBIGINT', 'DOUBLE'].map(columnKind)).toEqual(['numeric', 'numeric', 'numeric', 'numeric']);
    expect(['VARCHAR', 'BOOLEAN'].map(columnKind)).toEqual(['text', 'text']);
    expect(['DATE', 'TIMESTAMP WITH TIME ZONE'].map(columnKind)).toEqual(['temporal', 'temporal']);
    expect(columnKind('INTEGER[]')).toBe('other');
  });
  it('profiles odd columns: constant, all-null, lists, quoted names, NaN', async () => {
    const engine = await NodeEngine.open();
    await engine.query(`CREATE TABLE "select" AS SELECT 7 AS "const", NULL::DOUBLE AS "all null", [i, i] AS lst, CASE WHEN i = 0 THEN 'nan'::DOUBLE ELSE i END AS "we""ird", i % 2 = 0 AS flag FROM range(10) t(i)`);
    const { columns, rowCount } = await describeTable(engine, 'select');
    const p = await profileTable(engine, 'select', columns, rowCount);
    const [k, nul, lst, weird, flag] = p.columns;
    expect(k).toMatchObject({ min: 7, max: 7, distinct: 1, histogram: [{ lo: 7, hi: 7, count: 10 }] });
    expect(nul).toMatchObject({ nulls: 10, distinct: 0 });
    expect(nul?.histogram).toBeUndefined();
    expect(lst).toMatchObject({ type: 'BIGINT[]', nulls: 0, distinct: 10 });
    expect(weird?.histogram?.reduce((s, b) => s + b.count, 0)).toBe(9);
    expect(flag?.top).toEqual([
      { value: 'false', count: 5 },
      { value: 'true', count: 5 },
    ]);
  });
});
