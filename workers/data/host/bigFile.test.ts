/**
 * Issue 37: a CSV attached as a view reads with what DuckDB's sniffer found once (its columns and
 * types, header, dialect), so a statement over the view binds without sniffing the file again; it
 * answers as a table of the same file would.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeReportHost } from '../testing/reportHost';

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

const CSV = `id,day,city,score\n${Array.from({ length: 300 }, (_, i) => `${i},${String((i % 28) + 1).padStart(2, '0')}/0${(i % 9) + 1}/2024,c${i % 7},${(i % 10) / 2}`).join('\n')}\n`;
const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

describe('a CSV attached as a view', { timeout: 120_000 }, () => {
  it('is read with the schema found once (no detection when a statement binds it) and answers as its table does', async () => {
    // The footprint check is told there is no memory: the file becomes a view.
    const view = makeReportHost({ memoryCeilingBytes: 1, storage: false });
    await view.call('init', {});
    const [info] = await view.loadAll('visits.csv', CSV);
    expect(info).toMatchObject({ name: 'visits', view: true, rowCount: 300 });
    const sql = (await view.rows("SELECT sql FROM duckdb_views() WHERE view_name = 'visits'", text))[0]?.[0];
    // As DuckDB writes the view's SQL back (auto_detect = CAST('f' AS BOOLEAN) in 1.x).
    expect(sql).toMatch(/auto_detect = (false|CAST\('f' AS BOOLEAN\))/);
    expect(sql).toContain("dateformat = '%d/%m/%Y'");

    const table = makeReportHost({ storage: false });
    await table.call('init', {});
    const [made] = await table.loadAll('visits.csv', CSV);
    expect(made?.view).toBeFalsy();
    expect(info?.columns).toEqual(made?.columns);
    const q = 'SELECT city, count(*) AS n, sum(score) AS s, min(day) AS d FROM visits GROUP BY city ORDER BY city';
    expect(await view.rows(q, text)).toEqual(await table.rows(q, text));
  });
});
