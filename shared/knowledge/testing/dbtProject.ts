/**
 * Test-only: one small dbt project about an `orders` table, read by the parse worker's tests
 * (workers/parse/jobs.test.ts) and by the page's import tests (src/knowledge/projectImport.test.ts),
 * so both sides of an import read the same files. YAML shapes as in shared/knowledge/dbtMetrics.test.ts,
 * where dbt's docs are cited.
 *
 * What it holds on purpose: descriptions from doc blocks and one in place with a unit; an
 * accepted_values test; a measure over a column that is not there (`typo_total`: the worker
 * translates it, DuckDB's binder rejects it); a metric dbt cannot give as one aggregate (`running`).
 */

/** The columns of the `orders` table the project describes. */
export const ORDER_COLUMNS = ['order_id', 'amount_cents', 'status'];

export const SCHEMA = `
version: 2
models:
  - name: orders
    description: "{{ doc('orders_row') }}"
    columns:
      - name: status
        description: "{{ doc('status_doc') }}"
        data_tests:
          - accepted_values:
              arguments:
                values: ['C', 'R']
      - name: amount_cents
        description: Amount in cents
        meta: { unit: cents }
semantic_models:
  - name: orders
    model: ref('orders')
    entities: [{ name: order, type: primary, expr: order_id }]
    dimensions: [{ name: order_status, type: categorical, expr: status }]
    measures:
      - { name: revenue_cents, agg: sum, expr: amount_cents }
      - { name: typo_total, agg: sum, expr: amount_cent }
`;

/** The semantic models alone: metrics with no file describing the columns. */
export const SEMANTIC_ONLY = SCHEMA.slice(SCHEMA.indexOf('semantic_models:'));

export const METRICS = `
metrics:
  - name: net_revenue
    description: Revenue without refunds
    type: simple
    type_params: { measure: revenue_cents }
    filter: "{{ Dimension('order__order_status') }} <> 'R'"
  - name: typo_metric
    type: simple
    type_params: { measure: typo_total }
  - name: gross
    type: simple
    type_params: { measure: revenue_cents }
  - name: running
    type: cumulative
    type_params: { measure: revenue_cents }
`;

export const DOCS = '{% docs orders_row %}One order{% enddocs %}\n{% docs status_doc %}C completed, R refunded{% enddocs %}';

/** net_revenue as both sides translate it. */
export const NET_REVENUE = { name: 'net_revenue', dataset: 'orders', expression: "sum(amount_cents) FILTER (WHERE (status) <> 'R')", description: 'Revenue without refunds' };
