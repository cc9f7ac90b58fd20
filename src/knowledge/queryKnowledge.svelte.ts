/**
 * (issue 32) The workspace's trusted queries and named metrics on the page, kept in the knowledge
 * store: KnowledgeClient's part for them. The tables a query reads are DuckDB's binder's
 * (trustedQueries.ts); a metric list stays in name order (metricList.ts).
 */
import type { Metric, TrustedQuery } from '../../protocol/agent/knowledge';
import type { KnowledgeStore } from '../../shared/knowledge/store';
import { messageOf } from '../../shared/errors';
import { rebound, trustedFrom, type TablesOf } from './trustedQueries';
import type { MetricHost } from './metricImport';
import { newMetric, withMetric, withMetrics, withoutMetrics, type MetricInput } from './metricList';

export class QueryKnowledge {
  /** Queries the user marked as answering a question, and named metrics. */
  trusted = $state<TrustedQuery[]>([]);
  metrics = $state<Metric[]>([]);

  #store: KnowledgeStore;
  #tablesOf: TablesOf | undefined;
  #newId: () => string;
  #binding = false;

  constructor(store: KnowledgeStore, tablesOf: TablesOf | undefined, newId: () => string) {
    this.#store = store;
    this.#tablesOf = tablesOf;
    this.#newId = newId;
  }

  /** Marks a query as answering `question`, with the tables DuckDB binds (trustedQueries.ts); null, or why not. */
  async addTrusted(question: string, sql: string): Promise<string | null> {
    const item = await trustedFrom(this.#tablesOf, question, sql, this.#newId());
    if (typeof item === 'string') return item;
    try {
      await this.#store.putTrusted(item);
      this.trusted = [...this.trusted, item];
      return null;
    } catch (e) {
      return `The trusted query could not be saved: ${messageOf(e)}`;
    }
  }

  /** Queries marked before the binder (tables guessed from names) get DuckDB's once their tables are loaded. */
  protected async bindOldTrusted(): Promise<void> {
    if (!this.#tablesOf || this.#binding) return;
    this.#binding = true;
    for (const old of this.trusted.filter((t) => !t.bound)) {
      const next = await rebound(this.#tablesOf, $state.snapshot(old) as TrustedQuery);
      if (next) await this.#store.putTrusted(next).then(() => void (this.trusted = this.trusted.map((t) => (t.id === next.id ? next : t))), () => undefined);
    }
    this.#binding = false;
  }

  async deleteTrusted(id: string): Promise<void> {
    await this.#store.deleteTrusted(id).catch(() => undefined);
    this.trusted = this.trusted.filter((t) => t.id !== id);
  }

  async addMetric(m: MetricInput): Promise<string | null> {
    const item = newMetric(m, this.metrics, this.#newId());
    if (typeof item === 'string') return item;
    try {
      await this.#store.putMetric(item);
      this.metrics = withMetric(this.metrics, item);
      return null;
    } catch (e) {
      return `The metric could not be saved: ${messageOf(e)}`;
    }
  }

  /** The workspace's metrics for an import (metricImport.ts: check, apply, undo). */
  metricHost(): MetricHost {
    return {
      tablesOf: this.#tablesOf,
      newId: this.#newId,
      current: () => $state.snapshot(this.metrics) as Metric[],
      putAll: async (ms) => {
        await this.#store.putMetrics(ms);
        this.metrics = withMetrics(this.metrics, ms);
      },
      removeAll: async (ids) => {
        await this.#store.deleteMetrics(ids).catch(() => undefined);
        this.metrics = withoutMetrics(this.metrics, ids);
      },
    };
  }

  async deleteMetric(id: string): Promise<void> {
    await this.#store.deleteMetric(id).catch(() => undefined);
    this.metrics = this.metrics.filter((m) => m.id !== id);
  }
}
