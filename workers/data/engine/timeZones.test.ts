import { describe, expect, it } from 'vitest';
import { NodeEngine } from '../testing/nodeEngine';
import { rowsOf } from './duckdbEngine';
import { briefSqlError } from './sqlError';

// The Node build of DuckDB-WASM has no ICU (the browser loads it from the network): the engine
// boots with UTC_ONLY_SQL as the browser does when ICU does not load.
describe('time zones without ICU', { timeout: 60_000 }, () => {
  it('AT TIME ZONE and current_setting answer for UTC; another zone says what it needs', async () => {
    const e = await NodeEngine.open();
    const one = async (sql: string) => rowsOf(await e.query(sql))[0]?.x;
    expect(await one("SELECT CAST(TIMESTAMP '2024-01-01 12:00' AT TIME ZONE 'UTC' AS VARCHAR) AS x")).toBe('2024-01-01 12:00:00');
    expect(await one("SELECT CAST(timezone('Etc/UTC', TIMESTAMP '2024-03-01 00:30') AS VARCHAR) AS x")).toBe('2024-03-01 00:30:00');
    expect(await one("SELECT current_setting('TimeZone') AS x")).toBe('UTC');
    // Other settings still answer.
    expect(String(await one("SELECT current_setting('threads') AS x"))).toMatch(/^\d+$/);
    let message = '';
    try {
      await e.query("SELECT TIMESTAMP '2024-01-01 12:00' AT TIME ZONE 'America/New_York' AS x");
    } catch (err) {
      message = briefSqlError(err);
    }
    expect(message).toContain("Time zone 'America/New_York' needs DuckDB's ICU extension");
    expect(message).not.toContain('Autoloading');
  });
});
