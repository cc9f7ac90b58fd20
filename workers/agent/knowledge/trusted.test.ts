import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { KnowledgeStore } from '../../../shared/knowledge/store';
import type { DatasetContext } from '../core/prompts';
import { knowledgeContext } from './runContext';
import { citations, relevantTrusted, similarity } from './trusted';
import { METRICS_HEADING, TRUSTED_HEADING } from './prompt';

const orders: DatasetContext = { name: 'orders', rowCount: 3, columns: [{ name: 'amount', type: 'DOUBLE' }, { name: 'refund', type: 'BOOLEAN' }, { name: 'region', type: 'VARCHAR' }] };
const trusted = { id: 't1', question: 'What is the revenue by region?', sql: 'SELECT region, sum(amount) FILTER (WHERE NOT refund) AS revenue\nFROM orders GROUP BY region', datasets: ['orders'], created_at: '2026-01-01T00:00:00Z' };
const other = { id: 't2', question: 'How many penguins per island?', sql: 'SELECT island, count(*) FROM penguins GROUP BY 1', datasets: ['penguins'], created_at: '2026-01-01T00:00:00Z' };
const revenue = { id: 'm1', name: 'revenue', dataset: 'orders', expression: 'sum(amount) filter (where not refund)', description: 'Sales net of refunds', created_at: '2026-01-01T00:00:00Z' };

describe('trusted queries and metrics', () => {
  it('retrieves the trusted queries of similar questions over loaded tables only', () => {
    expect(similarity('revenue per region', 'What is the revenue by region?')).toBe(1);
    expect(relevantTrusted('Show revenue for each region', [trusted, other], ['orders']).map((q) => q.id)).toEqual(['t1']);
    expect(relevantTrusted('How many penguins per island?', [trusted, other], ['orders'])).toEqual([]);
    expect(relevantTrusted('What is the average order size?', [trusted], ['orders'])).toEqual([]);
  });

  it('scopes by the tables the binder found, and a question naming one of them brings its query closer', () => {
    const byRegion = { ...trusted, id: 't3', question: 'Sales split by area', datasets: ['orders', 'customers'] };
    // One shared word of two (0.5) is enough on its own; "sales" alone of three is not…
    expect(relevantTrusted('What were the sales last year?', [byRegion], ['orders', 'customers'])).toEqual([]);
    // …unless the question names a table the query reads.
    expect(relevantTrusted('What were the sales last year?', [byRegion], ['orders', 'customers'], undefined, new Set(['customers'])).map((q) => q.id)).toEqual(['t3']);
    // A table it reads is not loaded: never offered, however close the question.
    expect(relevantTrusted('Sales split by area', [byRegion], ['orders'])).toEqual([]);
    // A query that reads no table (DuckDB found none) is offered wherever it is close.
    expect(relevantTrusted('Sales split by area', [{ ...byRegion, datasets: [] }], []).map((q) => q.id)).toEqual(['t3']);
  });

  it('reach the prompt: metrics by name with their table, trusted queries with their question', async () => {
    const store = new KnowledgeStore({ dbName: `k-trusted-${Date.now()}` });
    await store.putTrusted(trusted);
    await store.putTrusted(other);
    await store.putMetric(revenue);
    const ctx = await knowledgeContext(store, [orders], undefined, 'Revenue by region, please');
    expect(ctx.datasetsText).toContain(`${METRICS_HEADING}\n- revenue (table orders) = sum(amount) filter (where not refund) — Sales net of refunds`);
    expect(ctx.datasetsText).toContain(`${TRUSTED_HEADING}\n- Question: "What is the revenue by region?"\n  SQL: SELECT region, sum(amount) FILTER (WHERE NOT refund) AS revenue FROM orders GROUP BY region`);
    expect(ctx.datasetsText).not.toContain('penguins');
    expect(ctx.trustedGiven?.map((q) => q.id)).toEqual(['t1']);
    const unrelated = await knowledgeContext(store, [orders], undefined, 'How many orders were refunded?');
    expect(unrelated.datasetsText).not.toContain(TRUSTED_HEADING);
    await store.close();
  });

  it('the answer cites the trusted query it reused and the metric it used', () => {
    const cited = citations(['select region, sum(amount) filter (where not refund) as revenue from orders group by region;'], 'Revenue is highest in the North.', [trusted], [revenue]);
    expect(cited).toEqual(['Reused the trusted query for “What is the revenue by region?”.', 'Metric revenue (orders): sum(amount) filter (where not refund).']);
    expect(citations(['SELECT count(*) FROM orders'], 'There are 3 orders.', [trusted], [revenue])).toEqual([]);
  });
});
