import { describe, expect, it } from 'vitest';
import { rowsOf } from '../engine/duckdbEngine';
import { tableNames } from '../engine/catalog';
import { NodeEngine } from '../testing/nodeEngine';
import { warmUpArrow, warmUpCsv, warmUpEngine } from './warmUp';

describe('warmUpEngine', { timeout: 60_000 }, () => {
  it('reads its CSV through the load path and leaves no table, file or dataset behind', async () => {
    const engine = await NodeEngine.open();
    await warmUpEngine(engine);
    expect(await tableNames(engine)).toEqual([]);
    expect(rowsOf(await engine.query("SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name LIKE 'dataseer_warm_up%'"))).toEqual([{ n: 0 }]);
    expect(rowsOf(await engine.query("SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name LIKE 'dataseer_warm%'"))).toEqual([{ n: 0 }]);
    // The registration is gone too: the same statement now fails.
    await expect(engine.query("SELECT * FROM read_csv('/dataseer/warm_up.csv')")).rejects.toThrow();
    // Twice is fine (a restarted worker warms its new engine).
    await warmUpEngine(engine);
  });

  it('inserts Arrow of every kind the readers hand over', async () => {
    const engine = await NodeEngine.open();
    await engine.insertArrowStream(warmUpArrow(10), 'w', true);
    const types = rowsOf(await engine.query("SELECT column_name AS c, data_type AS t FROM duckdb_columns() WHERE table_name = 'w' ORDER BY column_index"));
    expect(types.map((r) => `${String(r.c)} ${String(r.t)}`)).toEqual(['id INTEGER', 'big BIGINT', 'value DOUBLE', 'label VARCHAR', 'kind VARCHAR', 'day DATE', 'flag BOOLEAN']);
    expect(rowsOf(await engine.query("SELECT count(*)::INTEGER AS n, count(label)::INTEGER AS labelled FROM w"))).toEqual([{ n: 10, labelled: 8 }]);
  });

  it('has the shapes a first load meets: quoted commas, decimals, dates, booleans, empty fields', async () => {
    const engine = await NodeEngine.open();
    await engine.registerBlob('/dataseer/w.csv', new Blob([warmUpCsv(50)]));
    const types = rowsOf(await engine.query("SELECT column_name AS c, column_type AS t FROM (DESCRIBE SELECT * FROM read_csv('/dataseer/w.csv', null_padding = true))"));
    expect(Object.fromEntries(types.map((r) => [r.c, r.t]))).toMatchObject({ id: 'BIGINT', price: 'DOUBLE', event_date: 'DATE', flag: 'BOOLEAN', note: 'VARCHAR' });
  });
});
