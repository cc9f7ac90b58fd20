/**
 * dbt metrics as DuckDB expressions (issue 32), read from YAML by the `yaml` parser and each
 * translation run on the real DuckDB (Node build) against a known table, so a wrong translation
 * fails on its number, not on its spelling.
 *
 * The shapes, as dbt documents them:
 * - MetricFlow (dbt 1.6–1.11): semantic models with measures `{ name, agg, expr, agg_params }`
 *   (aggregations sum, max, min, average, median, count_distinct, percentile, sum_boolean, count) —
 *   https://docs.getdbt.com/docs/build/measures — and the schema dbt validates them with,
 *   dbt-labs/dbt-semantic-interfaces `dbt_semantic_interfaces/parsing/schemas.py` (`measure_schema`,
 *   `aggregation_type_params_schema`: percentile, use_discrete_percentile, use_approximate_percentile;
 *   `metric_type_params`: measure, numerator, denominator, expr, metrics; `metric_input_schema`:
 *   name, filter, alias, offset_window). Metric types: https://docs.getdbt.com/docs/build/metrics-overview,
 *   https://docs.getdbt.com/docs/build/ratio, https://docs.getdbt.com/docs/build/derived;
 *   `type_params: measure:` — https://docs.getdbt.com/best-practices/how-we-build-our-metrics/semantic-layer-4-build-metrics;
 *   filters as `{{ Dimension('entity__name') }}` — dbt-labs/dbt-core#9804.
 * - dbt ≥ 1.12: a model's `semantic_model:` and `metrics:` beside its columns —
 *   https://docs.getdbt.com/reference/metric-properties, https://docs.getdbt.com/reference/semantic-model-properties.
 * - dbt 1.3–1.5: `metrics:` with `model: ref('…')`, `calculation_method`, `expression`,
 *   `filters: [{ field, operator, value }]`, `window` — https://docs.getdbt.com/docs/build/metrics
 *   (the page's `VersionBlock firstVersion="1.3"` example).
 */
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../workers/data/engine/duckdbEngine';
import { NodeEngine } from '../../workers/data/testing/nodeEngine';
import { dbtMetrics, definesMetrics, refName } from './dbtMetrics';

let engine: NodeEngine;
beforeAll(async () => {
  engine = await NodeEngine.open();
  await engine.query(`CREATE TABLE orders AS SELECT * FROM (VALUES
    (1, 101, 1250, 'C', true, 'North'), (2, 102, 4000, 'R', false, 'South'), (3, 101, 2500, 'C', true, 'North'), (4, 103, NULL, 'C', false, 'South')
  ) t(order_id, cust_no, amount_cents, status, is_food, region)`);
  await engine.query(`CREATE TABLE customers AS SELECT * FROM (VALUES (101, 'a'), (102, 'b')) t(id, name)`);
}, 60_000);

/** The metric's value over its table, by DuckDB. */
async function valueOf(expression: string, table = 'orders'): Promise<unknown> {
  return rowsOf(await engine.query(`SELECT ${expression} AS v FROM ${table}`))[0]?.v;
}

const METRICFLOW = `
semantic_models:
  - name: orders
    model: ref('orders')
    entities:
      - name: order
        type: primary
        expr: order_id
      - name: customer
        type: foreign
        expr: cust_no
    dimensions:
      - name: order_status
        type: categorical
        expr: status
      - name: is_food_order
        type: categorical
        expr: is_food
    measures:
      - name: revenue_cents
        agg: sum
        expr: amount_cents
        description: Order amounts in cents
      - name: order_count
        agg: sum
        expr: 1
      - name: customers_with_orders
        agg: count_distinct
        expr: cust_no
      - name: food_orders
        agg: sum_boolean
        expr: is_food
      - name: p90_amount
        agg: percentile
        expr: amount_cents
        agg_params:
          percentile: 0.9
          use_discrete_percentile: true
      - name: median_amount
        agg: median
        expr: amount_cents
      - name: amount_cents
        agg: average
        create_metric: true
      - name: balance
        agg: sum
        expr: amount_cents
        non_additive_dimension:
          name: ordered_at
          window_choice: max
metrics:
  - name: net_revenue
    description: Revenue without refunds
    type: simple
    type_params:
      measure:
        name: revenue_cents
        fill_nulls_with: 0
    filter: |
      {{ Dimension('order__order_status') }} <> 'R'
  - name: orders
    type: simple
    type_params:
      measure: order_count
  - name: food_orders
    type: simple
    type_params:
      measure: food_orders
  - name: p90_order
    type: simple
    type_params:
      measure: p90_amount
  - name: median_order
    type: simple
    type_params:
      measure: median_amount
  - name: buyers
    type: simple
    type_params:
      measure: customers_with_orders
  - name: refund_share
    type: ratio
    type_params:
      numerator:
        name: orders
        filter: "{{ Dimension('order__order_status') }} = 'R'"
      denominator: orders
  - name: revenue_per_order
    type: derived
    type_params:
      expr: net_revenue / n
      metrics:
        - name: net_revenue
        - name: orders
          alias: n
  - name: revenue_growth
    type: derived
    type_params:
      expr: net_revenue - last_month
      metrics:
        - name: net_revenue
        - name: net_revenue
          alias: last_month
          offset_window: 1 month
  - name: cumulative_revenue
    type: cumulative
    type_params:
      measure: revenue_cents
  - name: food_by_time
    type: simple
    type_params:
      measure: order_count
    filter: "{{ TimeDimension('metric_time', 'day') }} >= '2024-01-01'"
  - name: by_customer_region
    type: simple
    type_params:
      measure: order_count
    filter: "{{ Dimension('customer__region') }} = 'North'"
  - name: balance
    type: simple
    type_params:
      measure: balance
`;

describe('MetricFlow semantic_models and metrics (dbt 1.6–1.11)', () => {
  const docs = [parse(METRICFLOW)];
  const read = dbtMetrics(docs, ['orders', 'customers']);
  const byName = new Map(read.metrics.map((m) => [m.name, m]));

  it('translates simple, ratio and derived metrics to expressions DuckDB computes right', async () => {
    expect(byName.get('net_revenue')).toEqual({
      name: 'net_revenue',
      dataset: 'orders',
      expression: "coalesce(sum(amount_cents) FILTER (WHERE (status) <> 'R'), 0)",
      description: 'Revenue without refunds',
    });
    expect(await valueOf(byName.get('net_revenue')?.expression ?? '')).toBe(3750);
    expect(await valueOf(byName.get('orders')?.expression ?? '')).toBe(4);
    expect(await valueOf(byName.get('food_orders')?.expression ?? '')).toBe(2);
    expect(await valueOf(byName.get('buyers')?.expression ?? '')).toBe(3);
    expect(await valueOf(byName.get('p90_order')?.expression ?? '')).toBe(4000);
    expect(await valueOf(byName.get('median_order')?.expression ?? '')).toBe(2500);
    expect(await valueOf(byName.get('refund_share')?.expression ?? '')).toBe(0.25);
    expect(await valueOf(byName.get('revenue_per_order')?.expression ?? '')).toBe(3750 / 4);
    // A measure with create_metric: true is a metric too.
    expect(await valueOf(byName.get('amount_cents')?.expression ?? '')).toBe(2583.3333333333335);
  });

  it('lists what is not one expression over one table as skipped, with the reason', () => {
    const skipped = Object.fromEntries(read.skipped.map((s) => [s.name, s.reason]));
    expect(skipped.revenue_growth).toMatch(/offset in time \(1 month\)/);
    expect(skipped.cumulative_revenue).toMatch(/cumulative/);
    expect(skipped.food_by_time).toMatch(/TimeDimension/);
    expect(skipped.by_customer_region).toMatch(/customer__region is not a dimension of orders/);
    expect(skipped.balance).toMatch(/semi-additive/);
    // Nothing is dropped: each of the 13 metrics and the measure made a metric is read or skipped.
    expect(read.metrics.length + read.skipped.length).toBe(13 + 1);
  });

  it('skips the metrics of a table that is not loaded, naming it', () => {
    const none = dbtMetrics(docs, ['customers']);
    expect(none.metrics).toEqual([]);
    expect(none.skipped.find((s) => s.name === 'orders')?.reason).toBe('its table orders is not loaded');
  });

  it('reads a measure whose semantic model is in another file', () => {
    const [models, metrics] = [{ semantic_models: parse(METRICFLOW).semantic_models }, { metrics: [{ name: 'o', type: 'simple', type_params: { measure: 'order_count' } }] }];
    expect(dbtMetrics([models, metrics], ['orders']).metrics.find((m) => m.name === 'o')?.expression).toBe('sum(1)');
    expect(dbtMetrics([metrics], ['orders']).skipped).toEqual([{ name: 'o', reason: 'its measure order_count is not in the files read' }]);
  });

  it('skips a ratio over two tables and a metric that refers to itself', () => {
    const two = parse(`
semantic_models:
  - name: orders
    model: ref('orders')
    measures: [{ name: order_count, agg: count, expr: order_id }]
  - name: customers
    model: "{{ ref('customers') }}"
    measures: [{ name: customer_count, agg: count, expr: id }]
metrics:
  - name: orders_per_customer
    type: ratio
    type_params: { numerator: order_count, denominator: customer_count }
  - name: loop
    type: derived
    type_params: { expr: loop + 1, metrics: [{ name: loop }] }
`);
    const out = dbtMetrics([two], ['orders', 'customers']);
    expect(out.skipped).toEqual([
      { name: 'orders_per_customer', reason: 'its inputs come from different tables (orders, customers); a metric here is over one table' },
      { name: 'loop', reason: 'its definition refers to itself' },
    ]);
  });
});

describe('dbt ≥ 1.12: semantic_model and metrics on the model', () => {
  it('translates a simple metric with its agg and expr', async () => {
    const doc = parse(`
models:
  - name: orders
    semantic_model:
      enabled: true
    columns:
      - name: order_id
        entity: { name: order, type: primary }
      - name: status
        dimension: { type: categorical }
    metrics:
      - name: completed_revenue
        type: simple
        agg: sum
        expr: amount_cents
        filter: "{{ Dimension('order__status') }} = 'C'"
`);
    const out = dbtMetrics([doc], ['orders']);
    expect(out.skipped).toEqual([]);
    expect(await valueOf(out.metrics[0]?.expression ?? '')).toBe(3750);
  });
});

describe('dbt < 1.6 metrics (calculation_method, expression, filters)', () => {
  const LEGACY = `
version: 2
metrics:
  - name: completed_revenue
    label: Completed revenue
    model: ref('orders')
    description: "Amounts of completed orders"
    calculation_method: sum
    expression: amount_cents
    timestamp: ordered_at
    time_grains: [day, week, month]
    filters:
      - field: status
        operator: '='
        value: "'C'"
      - field: is_food
        operator: 'is'
        value: 'true'
  - name: order_count
    model: ref('orders')
    calculation_method: count
    expression: order_id
  - name: food_share
    calculation_method: derived
    expression: "{{metric('completed_revenue')}} / {{ metric('order_count') }}"
  - name: rolling_orders
    model: ref('orders')
    calculation_method: count
    expression: order_id
    window:
      count: 14
      period: day
  - name: old_style
    model: ref('orders')
    type: count_distinct
    sql: cust_no
`;
  const out = dbtMetrics([parse(LEGACY)], ['orders']);
  const byName = new Map(out.metrics.map((m) => [m.name, m]));

  it('translates each calculation and its filters', async () => {
    expect(byName.get('completed_revenue')?.expression).toBe("sum(amount_cents) FILTER (WHERE (status = 'C') AND (is_food is true))");
    expect(await valueOf(byName.get('completed_revenue')?.expression ?? '')).toBe(3750);
    expect(byName.get('completed_revenue')?.description).toBe('Amounts of completed orders');
    expect(await valueOf(byName.get('food_share')?.expression ?? '')).toBe(3750 / 4);
    // dbt 1.0–1.2 spelled it `type` and `sql`.
    expect(await valueOf(byName.get('old_style')?.expression ?? '')).toBe(3);
  });

  it('skips a rolling window, with the reason', () => {
    expect(out.skipped).toEqual([{ name: 'rolling_orders', reason: 'it is a rolling window over time, which needs a time spine, not one aggregate' }]);
  });
});

describe('reading the project', () => {
  it('names the model a ref points to', () => {
    expect(refName("ref('orders')")).toBe('orders');
    expect(refName('{{ ref("pkg", "orders") }}')).toBe('orders');
    expect(refName('orders')).toBe('orders');
  });

  it('tells a file with metrics from a plain schema file', () => {
    expect(definesMetrics([parse(METRICFLOW)])).toBe(true);
    expect(definesMetrics([parse('models:\n  - name: orders\n    columns: [{ name: id }]')])).toBe(false);
  });
});
