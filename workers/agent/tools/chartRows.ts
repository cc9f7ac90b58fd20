/**
 * The rows `create_chart` draws. A query with more rows than a chart can take is reduced in
 * DuckDB, where the rows are, before any row crosses to the page: bars and pie slices are summed
 * per category, heatmap cells averaged, and points (scatter, line, histogram, box) sampled
 * evenly at random (a reservoir sample, the same one each time). Before, the first 5,000 rows
 * were drawn as if they were all, which is a different chart.
 */
import type { CreateChartArgs, RunSqlResult } from '../../../protocol/agent/tools';
import { quoteIdent } from '../../../shared/sql';
import { MAX_FIGURE_POINTS } from '../../../shared/figureBudget';
import type { HostResult, ToolHost } from './execute';

/** Rows a chart is drawn from: the page's point budget (figureBudget.ts). */
export const CHART_ROWS = MAX_FIGURE_POINTS;

type Chart = CreateChartArgs['chart'];

export interface ChartRows {
  table: RunSqlResult;
  /** What the chart shows instead of every row, for the model's summary. */
  reduced?: string;
}

/** The model's statement as a subquery: DuckDB's own parser still judges it where it runs. */
function asSubquery(sql: string): string {
  return `(${sql.trim().replace(/;\s*$/, '')}\n)`;
}

/** The reduced query and how to say what it did; undefined when no reduction keeps the chart's meaning. */
export function reduction(sql: string, chart: Chart, rows = CHART_ROWS): { sql: string; says: (total: number) => string } | undefined {
  const q = asSubquery(sql);
  const x = quoteIdent(chart.x);
  const keys = chart.color !== undefined && chart.color !== chart.x ? [x, quoteIdent(chart.color)] : [x];
  const n = (total: number) => total.toLocaleString('en-US');
  switch (chart.type) {
    case 'bar':
    case 'pie':
    case 'heatmap': {
      if (chart.y === undefined) return undefined;
      const y = quoteIdent(chart.y);
      const fn = chart.type === 'heatmap' ? 'avg' : 'sum';
      return {
        sql: `SELECT ${keys.join(', ')}, ${fn}(${y}) AS ${y} FROM ${q} AS __rows GROUP BY ${keys.join(', ')} ORDER BY ${keys.join(', ')}`,
        says: (total) => `the ${fn === 'sum' ? 'sum' : 'average'} of ${chart.y} per ${keys.length > 1 ? `${chart.x} and ${chart.color ?? ''}` : chart.x} over all ${n(total)} rows`,
      };
    }
    case 'line':
      return {
        sql: `SELECT * FROM (SELECT * FROM ${q} AS __rows USING SAMPLE reservoir(${rows} ROWS) REPEATABLE (31)) ORDER BY ${x}`,
        says: (total) => `a random sample of ${n(rows)} of the ${n(total)} rows, in ${chart.x} order (aggregate in the query, e.g. GROUP BY a time bucket, for every row)`,
      };
    case 'scatter':
    case 'histogram':
    case 'box':
      return {
        sql: `SELECT * FROM ${q} AS __rows USING SAMPLE reservoir(${rows} ROWS) REPEATABLE (31)`,
        says: (total) => `a random sample of ${n(rows)} of the ${n(total)} rows (aggregate in the query for exact ${chart.type === 'histogram' ? 'counts' : 'figures'})`,
      };
  }
}

/** The chart's rows: all of them when they fit, else reduced in DuckDB (said in `reduced`). */
export async function chartRows(host: ToolHost, sql: string, chart: Chart, signal: AbortSignal): Promise<HostResult<ChartRows>> {
  const first = await host.runSql(sql, CHART_ROWS, signal);
  if (!first.ok || !first.value.truncated) return first.ok ? { ok: true, value: { table: first.value } } : first;
  const plan = reduction(sql, chart);
  if (!plan) return { ok: true, value: { table: first.value, reduced: `the first ${CHART_ROWS.toLocaleString('en-US')} rows only` } };
  const count = await host.runSql(`SELECT count(*) AS n FROM ${asSubquery(sql)} AS __rows`, 1, signal);
  const reduced = await host.runSql(plan.sql, CHART_ROWS, signal);
  // A statement DuckDB will not take as a subquery (SHOW, PIVOT …) is drawn as before, and says so.
  if (!reduced.ok || !count.ok) return { ok: true, value: { table: first.value, reduced: `the first ${CHART_ROWS.toLocaleString('en-US')} rows only` } };
  const total = Number(count.value.rows[0]?.[0] ?? 0);
  const note = plan.says(total) + (reduced.value.truncated ? `; of that, the first ${CHART_ROWS.toLocaleString('en-US')} rows` : '');
  return { ok: true, value: { table: reduced.value, reduced: note } };
}
