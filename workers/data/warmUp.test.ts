import { describe, expect, it } from 'vitest';
import { rowsOf } from './engine';
import { tableNames } from './catalog';
import { NodeEngine } from './testing/nodeEngine';
import { warmUpCsv, warmUpEngine } from './warmUp';

describe('warmUpEngine', { timeout: 60_000 }, () => {
  it('reads its CSV through the load path and leaves no table, file or dataset behind', async () => {
    const engine = await NodeEngine.open();
    await warmUpEngine(engine);
    expect(await tableNames(engine)).toEqual([]);
    expect(rowsOf(await engine.query("SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name LIKE 'dataseer_warm%'"))).toEqual([{ n: 0 }]);
    // The registration is gone too: the same statement now fails.
    await expect(engine.query("SELECT * FROM read_csv('/dataseer/warm_up.csv')")).rejects.toThrow();
    // Twice is fine (a restarted worker warms its new engine).
    await warmUpEngine(engine);
  });

  it('has the shapes a first load meets: quoted commas, decimals, dates, booleans, empty fields', async () => {
    const engine = await NodeEngine.open();
    await engine.registerBlob('/dataseer/w.csv', new Blob([warmUpCsv(50)]));
    const types = rowsOf(await engine.query("SELECT column_name AS c, column_type AS t FROM (DESCRIBE SELECT * FROM read_csv('/dataseer/w.csv', null_padding = true))"));
    expect(Object.fromEntries(types.map((r) => [r.c, r.t]))).toMatchObject({ id: 'BIGINT', price: 'DOUBLE', event_date: 'DATE', flag: 'BOOLEAN', note: 'VARCHAR' });
  });
});
