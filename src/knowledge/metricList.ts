/**
 * The workspace's named metrics as KnowledgeClient keeps them (issue 32): a metric the user adds
 * (named, on a table, one per name and table, capped), and the list in name order.
 */
import type { Metric } from '../../protocol/agent/knowledge';
import { nowIso } from './ruleEdits';

export interface MetricInput {
  name: string;
  dataset: string;
  expression: string;
  description: string;
}

/** The metric to store, or why it cannot be added. */
export function newMetric(m: MetricInput, existing: readonly Metric[], id: string): Metric | string {
  const name = m.name.trim();
  if (!name || !m.expression.trim() || !m.dataset) return 'A metric needs a name, a table and a definition.';
  if (existing.some((x) => x.name.toLowerCase() === name.toLowerCase() && x.dataset === m.dataset)) return `There is already a metric named ${name} for ${m.dataset}.`;
  return { id, name: name.slice(0, 80), dataset: m.dataset, expression: m.expression.trim().slice(0, 2000), description: m.description.trim().slice(0, 500), created_at: nowIso() };
}

/** The list with `m` added (or put in place of the one with its id), in name order. */
export function withMetric(list: readonly Metric[], m: Metric): Metric[] {
  return withMetrics(list, [m]);
}

export function withoutMetrics(list: readonly Metric[], ids: readonly string[]): Metric[] {
  const gone = new Set(ids);
  return list.filter((x) => !gone.has(x.id));
}

/** Many at once, sorted once (one at a time, 2,000 imported metrics sorted the list 2,000 times). */
export function withMetrics(list: readonly Metric[], ms: readonly Metric[]): Metric[] {
  const ids = new Set(ms.map((m) => m.id));
  return [...list.filter((x) => !ids.has(x.id)), ...ms].sort((a, b) => a.name.localeCompare(b.name));
}
