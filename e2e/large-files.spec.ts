/**
 * The two big-file tests (@large). They run in `npm test` like every other test; to skip them
 * locally use `npx playwright test --grep-invert @large`. No timing assertions here: speed is
 * the benchmark's job.
 */
import { expect, test } from './support/fixtures';
import { expectSameRows, parseDisplayedNumber } from './support/compare';
import { nativeQuery, read } from './support/native';
import { vega } from './support/paths';
import { LARGE_CSV_ROWS, ensureLargeCsv } from '../scripts/make-bad-fixtures.mjs';

test.describe('big files', { tag: '@large' }, () => {
  // Both tests read the one large CSV the first of them writes: in one worker, in order.
  test.describe.configure({ mode: 'default' });
  test('a 1,000,000-row CSV shows progress while loading, then counts 1,000,000', async ({ app }) => {
    test.setTimeout(15 * 60_000);
    const path = await ensureLargeCsv();
    await app.addFiles(path);
    await expect(app.progress('big-1m.csv')).toBeVisible({ timeout: 60_000 });
    await app.expectDataset('big_1m', 12 * 60_000);
    await expect(app.progress('big-1m.csv')).toHaveCount(0);
    // Usable at once; its copy for the next visit is written alongside, then it says nothing more.
    await expect(app.datasetItem('big_1m')).not.toContainText('Saving for your next visit', { timeout: 5 * 60_000 });
    await expect(app.datasetItem('big_1m')).not.toContainText('Not saved');

    expect(parseDisplayedNumber(await app.scalar('SELECT count(*) FROM big_1m'))).toBe(LARGE_CSV_ROWS);
    const sql = 'SELECT category, count(*) AS n, round(sum(value), 2) AS total, min(id) AS lo, max(id) AS hi FROM big_1m GROUP BY 1 ORDER BY 1';
    const page = await app.runSql(sql);
    expectSameRows(page.rows, (await nativeQuery(sql, { big_1m: read.csv(path) })).rows);
  });

  test('Cancel during a big CSV load stops it: no dataset, no error, and the engine answers at once', async ({ app, page }) => {
    test.setTimeout(5 * 60_000);
    const path = await ensureLargeCsv();
    await app.addFiles(path);
    await expect(app.progress('big-1m.csv')).toBeVisible({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Cancel loading big-1m.csv', exact: true }).click();
    await expect(app.progress('big-1m.csv')).toHaveCount(0, { timeout: 60_000 });
    await expect(app.alerts).toHaveCount(0);
    expect(await app.datasetNames()).not.toContain('big_1m');
    expect(parseDisplayedNumber(await app.scalar("SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE 'big_1m%'"))).toBe(0);
    await app.expectResponsive();
    expect(app.pageErrors).toEqual([]);
  });

  test('flights-3m.parquet loads 3,000,000 rows and aggregates like native DuckDB', async ({ app }) => {
    test.setTimeout(15 * 60_000);
    const path = vega('flights-3m.parquet');
    await app.addFiles(path);
    await app.expectDataset('flights_3m', 12 * 60_000);
    expect(parseDisplayedNumber(await app.scalar('SELECT count(*) FROM flights_3m'))).toBe(3_000_000);

    const sql =
      'SELECT origin, count(*) AS n, round(avg(delay), 4) AS avg_delay, sum(distance) AS dist, ' +
      'min("date")::VARCHAR AS first FROM flights_3m GROUP BY origin ORDER BY n DESC, origin LIMIT 8';
    const page = await app.runSql(sql);
    expectSameRows(page.rows, (await nativeQuery(sql, { flights_3m: read.parquet(path) })).rows);
  });
});
