/**
 * Applying a project's metrics (issue 32): each checked by DuckDB's binder over its table before
 * it is offered, saved with one step back (Undo import deletes what it added and puts back what it
 * replaced).
 */
import type { Metric } from '../../protocol/agent/knowledge';
import type { QueryTablesOutcome } from '../../protocol/data';
import type { MetricDraft } from '../../shared/knowledge/dbtMetrics';
import { messageOf } from '../../shared/errors';
import { quoteIdent } from '../../shared/sql';

/** What an applied metric import changed. */
export interface MetricImportUndo {
  added: string[];
  replaced: Metric[];
}

/** The workspace's metrics as the import sees them (KnowledgeClient's store and state). */
export interface MetricHost {
  /** DuckDB's binder (absent: metrics are not checked). */
  tablesOf: ((sql: string) => Promise<QueryTablesOutcome>) | undefined;
  newId(): string;
  current(): Metric[];
  put(m: Metric): Promise<void>;
  remove(id: string): Promise<void>;
}

/**
 * Why DuckDB does not bind `expression` as one value over its table, or null. Judged as the
 * agent's SQL would be (a metric is used in it), so nothing runs. Without a way to ask: null.
 */
export async function checkMetric(tablesOf: ((sql: string) => Promise<QueryTablesOutcome>) | undefined, m: { dataset: string; expression: string }): Promise<string | null> {
  if (!tablesOf) return null;
  try {
    const read = await tablesOf(`SELECT ${m.expression} AS metric FROM ${quoteIdent(m.dataset)}`);
    return read.ok ? null : read.message.replace(/^refused: /, '');
  } catch (e) {
    return messageOf(e);
  }
}

export async function applyMetricImport(host: MetricHost, drafts: readonly MetricDraft[]): Promise<MetricImportUndo | string> {
  const undo: MetricImportUndo = { added: [], replaced: [] };
  try {
    for (const d of drafts) {
      const there = host.current().find((x) => x.dataset === d.dataset && x.name.toLowerCase() === d.name.toLowerCase());
      const item: Metric = { id: there?.id ?? host.newId(), name: d.name.slice(0, 80), dataset: d.dataset, expression: d.expression.slice(0, 2000), description: d.description.slice(0, 500), created_at: new Date(Date.now()).toISOString() };
      await host.put(item);
      if (there) undo.replaced.push(there);
      else undo.added.push(item.id);
    }
    return undo;
  } catch (e) {
    await undoMetricImport(host, undo);
    return `The metrics could not be saved: ${messageOf(e)}`;
  }
}

export async function undoMetricImport(host: MetricHost, undo: MetricImportUndo): Promise<void> {
  for (const id of undo.added) await host.remove(id);
  for (const m of undo.replaced) await host.put(m).catch(() => undefined);
}
