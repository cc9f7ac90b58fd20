import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../workers/data/engine/duckdbEngine';
import { NodeEngine } from '../../workers/data/testing/nodeEngine';
import { cappedSortSql, columnFilterWhere, combinedWhere, filterWhere, filteredCountSql, filteredPageSql } from './gridSql';

let engine: NodeEngine;
beforeAll(async () => {
  engine = await NodeEngine.open();
  await engine.query(`CREATE TABLE "odd ""t""" ("it's" VARCHAR, n INTEGER, d DATE)`);
  await engine.query(`INSERT INTO "odd ""t""" VALUES ('Adelie', 1, DATE '2024-01-05'), ('50% off', 22, NULL), ('o''brien_x', NULL, DATE '2023-12-31'), (NULL, 3, DATE '2024-02-01')`);
});
const table = 'odd "t"';
const cols = ["it's", 'n', 'd'];
const count = async (text: string) => {
  const where = filterWhere(cols, text);
  if (!where) return null;
  return Number(rowsOf(await engine.query(filteredCountSql(table, where)))[0]?.n);
};

describe('grid filter SQL on DuckDB', { timeout: 60_000 }, () => {
  it('matches any column as printed, case-insensitively', async () => {
    expect(await count('adel')).toBe(1);
    expect(await count('2024-')).toBe(2);
    expect(await count('2')).toBe(4); // 22, 2024-…, 2023-…, 3 with 2024-02-01
  });
  it('takes the text literally: quotes, % and _ are characters, not syntax or wildcards', async () => {
    expect(await count("o'brien")).toBe(1);
    expect(await count('50%')).toBe(1);
    expect(await count('%')).toBe(1);
    expect(await count('_')).toBe(1);
    expect(await count("'); DROP TABLE x; --")).toBe(0);
  });
  it('has nothing to filter by for blank text', () => {
    expect(filterWhere(cols, '  ')).toBeNull();
    expect(filterWhere([], 'x')).toBeNull();
  });
  it('pages the matching rows in table order', async () => {
    const where = filterWhere(cols, '2')!;
    const rows = rowsOf(await engine.query(filteredPageSql(table, ['n'], where, 1, 2)));
    expect(rows.map((r) => r.n)).toEqual([22, null]);
  });
});

describe('capped sort SQL on DuckDB', { timeout: 60_000 }, () => {
  const sorted = async (query: string, column: number, desc: boolean, limit: number) =>
    rowsOf(await engine.query(cappedSortSql(query, column, desc, limit))).map((r) => Object.values(r)[column]);
  it('sorts the whole result before the cap, NULLs last', async () => {
    const q = 'SELECT * FROM range(1, 1001) t(v) -- a comment at the end;\n;';
    expect(await sorted(q, 0, true, 3)).toEqual([1000, 999, 998]);
    expect(await sorted(`SELECT n, n AS n FROM "odd ""t"""`, 1, false, 10)).toEqual([1, 3, 22, null]);
    expect(await sorted(`SELECT n FROM "odd ""t"""`, 0, true, 10)).toEqual([22, 3, 1, null]);
  });
  it('is refused by the parser unless the query is one query', async () => {
    await expect(engine.query(cappedSortSql('SELECT 1; DROP TABLE "odd ""t"""', 0, false, 5))).rejects.toThrow();
    await expect(engine.query(cappedSortSql('CREATE TABLE z AS SELECT 1', 0, false, 5))).rejects.toThrow();
    expect(await count('adel')).toBe(1);
  });
});

describe('column filters on DuckDB', { timeout: 60_000 }, () => {
  const countWhere = async (where: string | null) => Number(rowsOf(await engine.query(filteredCountSql(table, where ?? 'true')))[0]?.n);
  it('keeps chosen values as DuckDB prints them, quotes and all', async () => {
    expect(await countWhere(columnFilterWhere("it's", { values: ["o'brien_x", 'Adelie'] }))).toBe(2);
    expect(await countWhere(columnFilterWhere('d', { values: ['2024-01-05'] }))).toBe(1);
  });
  it('keeps a numeric range, either end open', async () => {
    expect(await countWhere(columnFilterWhere('n', { min: 2 }))).toBe(2);
    expect(await countWhere(columnFilterWhere('n', { min: 2, max: 5 }))).toBe(1);
    expect(await countWhere(columnFilterWhere('n', { max: 1 }))).toBe(1);
  });
  it('shows only missing values, or hides them', async () => {
    expect(await countWhere(columnFilterWhere('n', { missing: 'only' }))).toBe(1);
    expect(await countWhere(columnFilterWhere('n', { missing: 'hide' }))).toBe(3);
    expect(await countWhere(columnFilterWhere('n', { missing: 'hide', min: 3 }))).toBe(2);
  });
  it('restricts nothing when empty or not a number, and joins with the text box by AND', async () => {
    expect(columnFilterWhere('n', {})).toBeNull();
    expect(columnFilterWhere('n', { min: Number.NaN, values: [] })).toBeNull();
    expect(combinedWhere(null, [{ column: 'n', filter: undefined }])).toBeNull();
    const both = combinedWhere(filterWhere(cols, '2024'), [{ column: 'n', filter: { min: 2 } }]);
    expect(await countWhere(both)).toBe(1); // 2024-02-01 with n = 3
  });
});
