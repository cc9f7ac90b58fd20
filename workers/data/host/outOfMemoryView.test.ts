/**
 * Issue 37: a CSV the footprint check lets through but whose table DuckDB cannot hold (its
 * memory_limit reached below the limit the footprint check planned for) is attached as a view
 * over its file instead of failing the load. The fault is injected: DuckDB's Node build with a
 * 128 MiB memory_limit, while the footprint check is told the limit is 1 GiB. (The limit leaves
 * room for a few of read_csv's buffers, up to 32 MB each, which a query over the view needs.)
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { tableFromIPC } from 'apache-arrow';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LoadOutcome, QueryOutcome } from '../../../protocol/data';
import { footprintCeiling } from '../engine/memoryBudget';
import { makeReportHost } from '../testing/reportHost';

const MIB = 1024 ** 2;

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

/** Rows of text and numbers: 700,000 make a 77 MB CSV whose table needs more than 128 MiB. */
function bigCsv(rows: number): string {
  const lines = ['id,name,city,score,note'];
  for (let i = 0; i < rows; i++) lines.push(`${i},name number ${i},city ${i % 977} of somewhere long,${(i % 1000) / 10},a note that is long enough to take some memory ${i}`);
  return `${lines.join('\n')}\n`;
}

function makeHost(memoryLimitBytes: number) {
  // The footprint check plans for a 1 GiB limit: only DuckDB itself finds the table too big.
  return makeReportHost({ memoryLimitBytes, memoryCeilingBytes: footprintCeiling(1024 * MIB) }).call;
}

const loaded = (o: LoadOutcome) => {
  if (!o.ok) throw new Error(`load failed: ${o.message}`);
  return o;
};

function rows(o: QueryOutcome): Record<string, unknown>[] {
  if (!o.ok) throw new Error(o.message);
  return tableFromIPC(o.result.ipc).toArray().map((r) => ({ ...(r as object) }));
}

describe('a table that runs DuckDB out of memory', { timeout: 300_000 }, () => {
  it('is attached as a view over its file, queryable, said in its load report, and nothing else is lost', async () => {
    const call = makeHost(128 * MIB);
    await call('init', {});
    const small = loaded(await call('load', { source: { kind: 'text', text: 'k,v\na,1\nb,2\n', fileName: 'keep.csv' }, options: { loadId: 'keep' } }));
    expect(small.datasets[0]).toMatchObject({ name: 'keep', rowCount: 2 });
    expect(small.datasets[0]?.view).toBeFalsy();

    const file = new File([bigCsv(700_000)], 'visits.csv');
    const outcome = loaded(await call('load', { source: { kind: 'file', file }, options: { loadId: 'big' } }));
    const [ds] = outcome.datasets;
    expect(ds).toMatchObject({ name: 'visits', rowCount: 700_000, view: true, persisted: false });
    expect(ds?.columns.map((c) => c.name)).toEqual(['id', 'name', 'city', 'score', 'note']);
    expect(ds?.report?.attached).toMatch(/^Attached as a view: the table did not fit in memory/);
    expect(outcome.warnings.join(' ')).toMatch(/did not fit in this tab's memory as a table, so visits is a view over the file/);

    // Queryable afterwards, under the same 128 MiB limit.
    expect(rows(await call('consoleQuery', { sql: 'SELECT count(*)::DOUBLE AS n, round(sum(score)) AS s, count(DISTINCT city)::DOUBLE AS c FROM visits' }))).toEqual([{ n: 700_000, s: 34_965_000, c: 977 }]);
    const page = await call('page', { name: 'visits', offset: 699_998, limit: 10 });
    expect(page.rowCount).toBe(2);

    // Nothing else lost: the other dataset is listed and answers; no half-made table is left.
    const list = await call('list', {});
    expect(list.map((d) => [d.name, d.view ?? false])).toEqual([
      ['keep', false],
      ['visits', true],
    ]);
    expect(rows(await call('consoleQuery', { sql: 'SELECT sum(v)::DOUBLE AS s FROM keep' }))).toEqual([{ s: 3 }]);
    expect(rows(await call('consoleQuery', { sql: "SELECT count(*)::DOUBLE AS n FROM duckdb_tables() WHERE table_name = 'visits'" }))).toEqual([{ n: 0 }]);
  });

  it('is made as a table when the memory limit holds it (the control)', async () => {
    const call = makeHost(1024 * MIB);
    await call('init', {});
    const outcome = loaded(await call('load', { source: { kind: 'file', file: new File([bigCsv(700_000)], 'visits.csv') }, options: { loadId: 'big' } }));
    expect(outcome.datasets[0]).toMatchObject({ name: 'visits', rowCount: 700_000 });
    expect(outcome.datasets[0]?.view).toBeFalsy();
    expect(outcome.datasets[0]?.report?.attached).toBeUndefined();
  });
});
