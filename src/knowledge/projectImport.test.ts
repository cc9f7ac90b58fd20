/**
 * One dbt import brings the dataset's descriptions and the project's metrics, shown before they
 * are applied (issue 32). The files are read as the parse worker reads them (readProject, issue
 * 37); here the page's part: metrics checked by DuckDB's binder over their table (the Node build,
 * judged as model SQL) — one DuckDB does not accept is skipped with DuckDB's reason — and the
 * dictionary merged. The project's files: shared/knowledge/testing/dbtProject.ts, read by the worker's tests too.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { emptyDictionary, type Metric } from '../../protocol/agent/knowledge';
import { judgeModelSql } from '../../workers/data/engine/modelSql';
import { NodeEngine } from '../../workers/data/testing/nodeEngine';
import { readProject } from '../../shared/knowledge/projectRead';
import { DOCS, METRICS, NET_REVENUE, ORDER_COLUMNS, SCHEMA, SEMANTIC_ONLY } from '../../shared/knowledge/testing/dbtProject';
import { checkAll, checkProjectImport, type ImportTarget, type ProjectImport } from './projectImport';

let engine: NodeEngine;
beforeAll(async () => {
  engine = await NodeEngine.open();
  await engine.query("CREATE TABLE orders AS SELECT * FROM (VALUES (1, 1250, 'C'), (2, 4000, 'R')) t(order_id, amount_cents, status)");
}, 60_000);

const target = (existing: Metric[] = []): ImportTarget => ({
  base: emptyDictionary('orders', ORDER_COLUMNS),
  existing,
  check: async (m) => {
    const v = await judgeModelSql(engine, `SELECT ${m.expression} AS metric FROM "${m.dataset}"`, { tables: new Set(['orders']), views: new Set() });
    return v.ok ? null : v.message;
  },
});

/** The worker's read, then the page's checks: the whole import as the editor runs it. */
async function readProjectImport(files: { name: string; text: string }[], t: ImportTarget, signal?: AbortSignal): Promise<ProjectImport | 'cancelled'> {
  const read = readProject(files, { dataset: 'orders', columns: ORDER_COLUMNS, datasets: ['orders'] });
  if (!read.ok) throw new Error(read.message);
  return checkProjectImport(read.result, t, signal ? { signal } : {});
}

async function imported(files: { name: string; text: string }[], t: ImportTarget): Promise<ProjectImport> {
  const out = await readProjectImport(files, t);
  if (out === 'cancelled') throw new Error('cancelled');
  return out;
}

describe('a dbt project imported for a dataset', () => {
  it('brings descriptions and metrics together, each metric said: added, replaced, unchanged or skipped with why', async () => {
    const existing: Metric[] = [{ id: 'g', name: 'gross', dataset: 'orders', expression: 'sum(amount_cents)', description: '', created_at: '' }];
    const out = await imported(
      [
        { name: 'orders.yml', text: SCHEMA },
        { name: 'metrics.yml', text: METRICS },
        { name: 'docs.md', text: DOCS },
      ],
      target(existing),
    );
    expect(out.fileName).toBe('orders.yml, metrics.yml');
    expect(out.dictionary?.dictionary.row_meaning).toBe('One order');
    expect(out.dictionary?.preview.added).toEqual(['amount_cents', 'status']);
    expect(out.metrics.added).toEqual([NET_REVENUE]);
    expect(out.metrics.unchanged.map((m) => m.name)).toEqual(['gross']);
    const skipped = Object.fromEntries(out.metrics.skipped.map((s) => [s.name, s.reason]));
    expect(skipped.running).toMatch(/cumulative/);
    // The binder, not a guess, finds the column that is not there.
    expect(skipped.typo_metric).toMatch(/^DuckDB does not accept sum\(amount_cent\) over orders: .*amount_cent/);
  });

  it('says a changed definition replaces the one there is', async () => {
    const existing: Metric[] = [{ id: 'n', name: 'NET_REVENUE', dataset: 'orders', expression: 'sum(amount_cents)', description: '', created_at: '' }];
    const out = await imported([{ name: 'all.yml', text: `${SCHEMA}\n${METRICS}` }], target(existing));
    expect(out.metrics.changed.map((m) => m.name)).toEqual(['net_revenue']);
  });

  it('imports metrics alone when no file describes the columns, and says so', async () => {
    const out = await imported([{ name: 'semantic.yml', text: `${SEMANTIC_ONLY}\n${METRICS}` }], target());
    expect(out.dictionary).toBeNull();
    expect(out.metrics.added.map((m) => m.name)).toEqual(['net_revenue', 'gross']);
    expect(out.warnings).toContain('No file describes the columns of orders: only metrics are imported.');
  });

  it('refuses files that bring nothing for the dataset, with the reason', async () => {
    await expect(readProjectImport([{ name: 'other.yml', text: 'models:\n  - name: customers\n    columns: [{ name: id, description: x }]' }], target())).rejects.toThrow(/describes none of orders's columns/);
    await expect(readProjectImport([{ name: 'docs.md', text: '' }], target())).rejects.toThrow(/Pick the schema file/);
    await expect(readProjectImport([{ name: 'bad.yml', text: 'a: [unclosed' }], target())).rejects.toThrow(/bad.yml could not be read/);
  });

  it('stops checking when the import is cancelled, and says so as a value', async () => {
    const abort = new AbortController();
    let binds = 0;
    const t = target();
    const out = await readProjectImport([{ name: 'all.yml', text: `${SCHEMA}\n${METRICS}` }], {
      ...t,
      check: async (m) => {
        binds++;
        abort.abort();
        return t.check(m);
      },
    }, abort.signal);
    expect(out).toBe('cancelled');
    // The first bind (all of the table's metrics together) failed on the typo; no split followed it.
    expect(binds).toBe(1);
  });
});

// The envelope: a project 100× the size of a usual one, with two typos among 2,000 metrics.
describe('many metrics', { timeout: 180_000 }, () => {
  it('checks 2,000 metrics with DuckDB in a few dozen binds, finding exactly the two it rejects', async () => {
    const metrics = Array.from({ length: 2_000 }, (_, i) => ({ name: `m${i}`, dataset: 'orders', expression: i === 700 || i === 1_999 ? `sum(amount_cent${i})` : `sum(amount_cents) FILTER (WHERE order_id > ${i})`, description: '' }));
    let binds = 0;
    const check = target().check;
    const settled: number[] = [];
    const problems = await checkAll(
      metrics,
      async (m) => {
        binds++;
        return check(m);
      },
      { onChecked: (done) => settled.push(done) },
    );
    if (problems === 'cancelled') throw new Error('cancelled');
    expect(settled.at(-1)).toBe(2_000);
    expect(settled).toEqual([...settled].sort((a, b) => a - b));
    expect(problems.flatMap((p, i) => (p ? [i] : []))).toEqual([700, 1_999]);
    expect(problems[700]).toMatch(/amount_cent700/);
    expect(binds).toBeLessThan(50);
  });
});
