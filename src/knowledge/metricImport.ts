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
  /** Saved together (one transaction, the list updated once): all or none. */
  putAll(ms: readonly Metric[]): Promise<void>;
  removeAll(ids: readonly string[]): Promise<void>;
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
  // The workspace's metrics read once, by table and name (any case; the first of a name wins, as before).
  const byKey = new Map<string, Metric>();
  for (const x of host.current()) if (!byKey.has(keyOf(x))) byKey.set(keyOf(x), x);
  const items: Metric[] = [];
  for (const d of drafts) {
    const there = byKey.get(keyOf(d));
    const item: Metric = { id: there?.id ?? host.newId(), name: d.name.slice(0, 80), dataset: d.dataset, expression: d.expression.slice(0, 2000), description: d.description.slice(0, 500), created_at: new Date(Date.now()).toISOString() };
    items.push(item);
    if (there) undo.replaced.push(there);
    else undo.added.push(item.id);
  }
  try {
    await host.putAll(items);
    return undo;
  } catch (e) {
    await undoMetricImport(host, undo);
    return `The metrics could not be saved: ${messageOf(e)}`;
  }
}

const keyOf = (m: { dataset: string; name: string }) => `${m.dataset}\u0000${m.name.toLowerCase()}`;

export async function undoMetricImport(host: MetricHost, undo: MetricImportUndo): Promise<void> {
  await host.removeAll(undo.added);
  if (undo.replaced.length) await host.putAll(undo.replaced).catch(() => undefined);
}
