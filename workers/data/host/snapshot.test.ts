import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../engine/duckdbEngine';
import { describeTable } from '../engine/catalog';
import { FRAME_ROWS, restoreSnapshot, writeSnapshot } from './snapshot';
import { NodeEngine } from '../testing/nodeEngine';

let engine: NodeEngine;
beforeAll(async () => {
  engine = await NodeEngine.open();
});

const all = async (sql: string) => rowsOf(await engine.query(sql));

describe('dataset snapshots', { timeout: 60_000 }, () => {
  it('restores every common type exactly, with the types it was saved with', async () => {
    await engine.query(`CREATE TABLE kinds AS SELECT * FROM (VALUES
      (9007199254740993::BIGINT, 12345678901234567.89::DECIMAL(20,2), 1.5::DOUBLE, 'a'::VARCHAR, DATE '2024-02-29', TIMESTAMP '2024-02-29 13:14:15.123456', true, {'x': 1, 'y': 'b'}, [1, 2, 3], 170141183460469231731687303715884105727::HUGEINT),
      (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
    ) t(big, dec, dbl, txt, day, ts, flag, st, lst, huge)`);
    const before = await describeTable(engine, 'kinds');
    const blob = await writeSnapshot(engine, 'kinds', before.columns);
    const expected = await all('SELECT big::VARCHAR AS big, dec::VARCHAR AS dec, dbl, txt, day::VARCHAR AS day, ts::VARCHAR AS ts, flag, st::VARCHAR AS st, lst::VARCHAR AS lst, huge::VARCHAR AS huge FROM kinds');
    await engine.query('DROP TABLE kinds');
    await restoreSnapshot(engine, blob, 'kinds', before.columns, '__scratch_kinds');
    expect(await describeTable(engine, 'kinds')).toEqual(before);
    expect(await all('SELECT big::VARCHAR AS big, dec::VARCHAR AS dec, dbl, txt, day::VARCHAR AS day, ts::VARCHAR AS ts, flag, st::VARCHAR AS st, lst::VARCHAR AS lst, huge::VARCHAR AS huge FROM kinds')).toEqual(expected);
    expect(await all("SELECT table_name FROM duckdb_tables() WHERE table_name LIKE '__scratch%'")).toEqual([]);
  });

  it('writes a big table in frames and an empty one as its columns', async () => {
    await engine.query(`CREATE TABLE many AS SELECT i, i % 7 AS k FROM range(${FRAME_ROWS * 2 + 5}) t(i)`);
    const cols = (await describeTable(engine, 'many')).columns;
    const blob = await writeSnapshot(engine, 'many', cols);
    await engine.query('DROP TABLE many');
    await restoreSnapshot(engine, blob, 'many', cols, '__scratch_many');
    expect(await all('SELECT count(*)::DOUBLE AS n, sum(i)::DOUBLE AS s FROM many')).toEqual([{ n: FRAME_ROWS * 2 + 5, s: ((FRAME_ROWS * 2 + 5) * (FRAME_ROWS * 2 + 4)) / 2 }]);

    await engine.query('CREATE TABLE nothing (a INTEGER, b VARCHAR)');
    const none = (await describeTable(engine, 'nothing')).columns;
    const empty = await writeSnapshot(engine, 'nothing', none);
    await engine.query('DROP TABLE nothing');
    await restoreSnapshot(engine, empty, 'nothing', none, '__scratch_nothing');
    expect(await describeTable(engine, 'nothing')).toEqual({ columns: none, rowCount: 0 });
  });

  it('refuses a cut-short snapshot and leaves no table behind', async () => {
    await engine.query('CREATE TABLE small AS SELECT 1 AS a');
    const cols = (await describeTable(engine, 'small')).columns;
    const blob = await writeSnapshot(engine, 'small', cols);
    await engine.query('DROP TABLE small');
    await expect(restoreSnapshot(engine, blob.slice(0, blob.size - 10), 'small', cols, '__scratch_small')).rejects.toThrow(/cut short/);
    expect(await all("SELECT table_name FROM duckdb_tables() WHERE table_name IN ('small', '__scratch_small')")).toEqual([]);
  });
});
