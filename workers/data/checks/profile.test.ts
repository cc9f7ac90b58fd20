import { describe, expect, it } from 'vitest';
import { describeTable } from '../engine/catalog';
import { BLOCK, columnKind, EXACT_DISTINCT_ROWS, EXACT_TOP_ROWS, ProfileCancelled, profileTable, SAMPLE_ROWS, sampledDistributionsSql, TOP_SAMPLE_ROWS } from './profile';
import { NodeEngine } from '../testing/nodeEngine';

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

  // Issue 37: 150 integer columns × 50 rows failed with "Out of Memory Error: Allocation failure"
  // (FILTER beside count(DISTINCT) in one pass over every column). 600 × 5,000, under a 1 GiB
  // memory_limit, mixes numeric, text and date columns.
  it('profiles a 600-column table in blocks under a 1 GiB memory limit', async () => {
    const engine = await NodeEngine.open({ memoryLimitBytes: 1024 ** 3 });
    const cols = Array.from({ length: 600 }, (_, i) =>
      i % 5 === 4 ? `'v' || ((i * ${i + 3}) % 13) AS c${i}` : i % 7 === 6 ? `DATE '2020-01-01' + (i % 365)::INTEGER AS c${i}` : `(i * ${i + 7}) % 97 AS c${i}`,
    );
    await engine.query(`CREATE TABLE wide AS SELECT ${cols.join(', ')} FROM range(5000) t(i)`);
    const { columns, rowCount } = await describeTable(engine, 'wide');
    const steps: number[] = [];
    const p = await profileTable(engine, 'wide', columns, rowCount, { onProgress: (done, total) => steps.push(done / total) });
    expect(p.columns).toHaveLength(600);
    expect(p.approximate).toBeUndefined();
    expect(p.columns[0]).toMatchObject({ name: 'c0', nulls: 0, distinct: 97, min: 0, max: 96 });
    expect(p.columns[4]).toMatchObject({ type: 'VARCHAR', distinct: 13 });
    expect(p.columns[4]?.top?.[0]?.count).toBeGreaterThan(300);
    expect(p.columns[598]?.histogram?.reduce((s, b) => s + b.count, 0)).toBe(5000);
    // One aggregate statement per block of columns, then histograms and top values by block.
    expect(steps.length).toBeGreaterThanOrEqual(600 / BLOCK);
    expect(steps.at(-1)).toBe(1);
  });
  it('says which statistics are estimates on a long table, and scales sampled top values', async () => {
    const engine = await NodeEngine.open();
    const n = EXACT_TOP_ROWS + 200_000;
    await engine.query(`CREATE TABLE long AS SELECT i, CASE WHEN i % 4 = 0 THEN 'a' ELSE 'b' || (i % 3) END AS s FROM range(${n}) t(i)`);
    const { columns, rowCount } = await describeTable(engine, 'long');
    const p = await profileTable(engine, 'long', columns, rowCount);
    expect(p.approximate).toEqual({ distinct: true, topSampleRows: TOP_SAMPLE_ROWS });
    const top = p.columns[1]?.top ?? [];
    expect(top.map((t) => t.value).sort()).toEqual(['a', 'b0', 'b1', 'b2']);
    const a = top.find((t) => t.value === 'a')?.count ?? 0;
    // A quarter of the rows, within a few percent (a 100,000-row sample).
    expect(Math.abs(a / n - 0.25)).toBeLessThan(0.02);
    // HyperLogLog is close, not exact.
    expect(Math.abs((p.columns[0]?.distinct ?? 0) / n - 1)).toBeLessThan(0.1);
  });
  it('stops at the next statement when cancelled, with ProfileCancelled', async () => {
    const engine = await NodeEngine.open();
    await engine.query(`CREATE TABLE w AS SELECT ${Array.from({ length: 120 }, (_, i) => `i + ${i} AS c${i}`).join(', ')} FROM range(100) t(i)`);
    const { columns, rowCount } = await describeTable(engine, 'w');
    let cancelled = false;
    let statements = 0;
    const run = profileTable(engine, 'w', columns, rowCount, {
      cancelled: () => cancelled,
      onProgress: () => {
        statements++;
        cancelled = true;
      },
    });
    await expect(run).rejects.toBeInstanceOf(ProfileCancelled);
    expect(statements).toBe(1);
  });
  // Over a view every statement reads the file again: a block's statistics come from one
  // aggregate statement and its histograms and top values from one reservoir sample, and blocks
  // are VIEW_BLOCK wide. The statistics must be the table's; the sampled bars close to its own,
  // and the profile must say they are sampled.
  it('profiles a long view in two statements: exact statistics, sampled distributions said as such', { timeout: 300_000 }, async () => {
    const engine = await NodeEngine.open();
    const n = EXACT_DISTINCT_ROWS + 1000;
    const cols = Array.from({ length: 60 }, (_, i) => (i % 10 === 3 ? `'v' || (i % 7) AS c${i}` : i % 10 === 5 ? `CASE WHEN i % 11 = 0 THEN NULL WHEN i = 3 THEN 'nan'::DOUBLE ELSE (i * ${i + 1}) % 1000 / 10.0 END AS c${i}` : `(i * ${i + 7}) % 97 AS c${i}`));
    await engine.query(`CREATE TABLE t AS SELECT ${cols.join(', ')} FROM range(${n}) r(i)`);
    await engine.query('CREATE VIEW v AS SELECT * FROM t');
    const { columns, rowCount } = await describeTable(engine, 't');
    const count = () => {
      const c = { n: 0 };
      return { c, onProgress: () => void c.n++ };
    };
    const asTable = count();
    const asView = count();
    const table = await profileTable(engine, 't', columns, rowCount, { onProgress: asTable.onProgress });
    const view = await profileTable(engine, 'v', columns, rowCount, { onProgress: asView.onProgress, view: true });
    expect(table.approximate).toEqual({ distinct: true });
    expect(view.approximate).toEqual({ distinct: true, topSampleRows: SAMPLE_ROWS, histogramSampleRows: SAMPLE_ROWS });
    const stats = (p: typeof table) => p.columns.map(({ histogram: _h, top: _t, ...rest }) => rest);
    expect(stats(view)).toEqual(stats(table));
    const finite = n - Math.ceil(n / 11) - 1;
    expect(table.columns[5]?.histogram?.reduce((s, b) => s + b.count, 0)).toBe(finite);
    for (const [i, exact] of table.columns.entries()) {
      const sampled = view.columns[i];
      if (exact.histogram) {
        // Same bins; each bar within 1.5% of the rows of the exact one (a 100,000-row sample).
        expect(sampled?.histogram?.map((b) => [b.lo, b.hi])).toEqual(exact.histogram.map((b) => [b.lo, b.hi]));
        for (const [b, bin] of exact.histogram.entries()) expect(Math.abs((sampled?.histogram?.[b]?.count ?? -1) - bin.count)).toBeLessThan(n * 0.015);
      } else expect(sampled?.histogram).toBeUndefined();
    }
    // Seven values of near-equal share: five of them, each about a seventh of the rows.
    const top = view.columns[3]?.top ?? [];
    expect(top).toHaveLength(5);
    for (const t of top) expect(Math.abs(t.count / n - 1 / 7)).toBeLessThan(0.015);
    // On the table, blocks of 50: two aggregate, two histogram and one top-values statement; on the
    // view one aggregate and one sampled statement (and each run's closing progress call).
    expect(asTable.c.n).toBe(2 + 2 + 1 + 1);
    expect(asView.c.n).toBe(2 + 1);
  });
  it('counts a long view sampled histograms and top values in one statement per block', () => {
    const sql = sampledDistributionsSql('v', [{ index: 0, name: 'a"b', lo: 0, width: 2 }], [{ index: 1, col: { name: 'c', type: 'VARCHAR' }, kind: 'text' }], 1000);
    // One sample of only those columns, read once.
    expect(sql.match(/USING SAMPLE/g)).toHaveLength(1);
    expect(sql).toContain('SELECT "a""b", "c" FROM "v" USING SAMPLE reservoir(1000 ROWS)');
  });
});
