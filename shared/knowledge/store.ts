/**
 * Where the workspace's knowledge lives: four stores of the workspace database, read by the agent
 * worker at the start of every run and written by the page's editors (both are the same origin,
 * so both open it). Dictionaries are keyed by table name, so a dataset added again under its name finds its
 * dictionary again.
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import { WORKSPACE_DB, workspaceView } from '../db/workspaceDb';
import { DataDictionarySchema, MetricSchema, TrustedQuerySchema, WorkspaceRuleSchema, type DataDictionary, type Metric, type TrustedQuery, type WorkspaceRule } from '../../protocol/agent/knowledge';

interface KnowledgeDb extends DBSchema {
  dictionaries: { key: string; value: DataDictionary };
  rules: { key: string; value: WorkspaceRule };
  trusted: { key: string; value: TrustedQuery };
  metrics: { key: string; value: Metric };
}

/** The database knowledge is kept in (the workspace's). */
export const KNOWLEDGE_DB = WORKSPACE_DB;

/** At most this many rules reach a prompt; the page says so when there are more. */
export const MAX_RULES = 50;

/** The user's order first (a rule never moved has none and keeps its place by age). */
export function sortRules(rules: readonly WorkspaceRule[]): WorkspaceRule[] {
  const key = (r: WorkspaceRule, i: number) => r.order ?? i;
  const byAge = [...rules].sort((a, b) => a.created_at.localeCompare(b.created_at));
  return byAge.map((r, i) => ({ r, k: key(r, i) })).sort((a, b) => a.k - b.k || a.r.created_at.localeCompare(b.r.created_at)).map(({ r }) => r);
}

export class KnowledgeStore {
  readonly dbName: string;

  /** `dbName`: another instance of the workspace database (tests). */
  constructor(options: { dbName?: string } = {}) {
    this.dbName = options.dbName ?? KNOWLEDGE_DB;
  }

  #open(): Promise<IDBPDatabase<KnowledgeDb>> {
    return workspaceView<KnowledgeDb>(this.dbName).open();
  }

  /** Stored dictionaries; a record that no longer fits the schema is skipped, never thrown. */
  async dictionaries(): Promise<DataDictionary[]> {
    const rows = await (await this.#open()).getAll('dictionaries');
    return rows.flatMap((r) => {
      const p = DataDictionarySchema.safeParse(r);
      return p.success ? [p.data] : [];
    });
  }

  async dictionary(dataset: string): Promise<DataDictionary | undefined> {
    const r = await (await this.#open()).get('dictionaries', dataset);
    const p = DataDictionarySchema.safeParse(r);
    return p.success ? p.data : undefined;
  }

  async putDictionary(d: DataDictionary): Promise<void> {
    await (await this.#open()).put('dictionaries', DataDictionarySchema.parse(d));
  }

  async deleteDictionary(dataset: string): Promise<void> {
    await (await this.#open()).delete('dictionaries', dataset);
  }

  /** Rules in the user's order (then oldest first). */
  async rules(): Promise<WorkspaceRule[]> {
    const rows = await (await this.#open()).getAll('rules');
    return sortRules(
      rows.flatMap((r) => {
        const p = WorkspaceRuleSchema.safeParse(r);
        return p.success ? [p.data] : [];
      }),
    );
  }

  async putRule(rule: WorkspaceRule): Promise<void> {
    await (await this.#open()).put('rules', WorkspaceRuleSchema.parse(rule));
  }

  async deleteRule(id: string): Promise<void> {
    await (await this.#open()).delete('rules', id);
  }

  /** Trusted queries, oldest first; a record that no longer fits the schema is skipped. */
  async trusted(): Promise<TrustedQuery[]> {
    const rows = await (await this.#open()).getAll('trusted');
    return rows.flatMap((r) => {
      const p = TrustedQuerySchema.safeParse(r);
      return p.success ? [p.data] : [];
    }).sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  async putTrusted(q: TrustedQuery): Promise<void> {
    await (await this.#open()).put('trusted', TrustedQuerySchema.parse(q));
  }

  async deleteTrusted(id: string): Promise<void> {
    await (await this.#open()).delete('trusted', id);
  }

  async metrics(): Promise<Metric[]> {
    const rows = await (await this.#open()).getAll('metrics');
    return rows.flatMap((r) => {
      const p = MetricSchema.safeParse(r);
      return p.success ? [p.data] : [];
    }).sort((a, b) => a.name.localeCompare(b.name));
  }

  async putMetric(m: Metric): Promise<void> {
    await (await this.#open()).put('metrics', MetricSchema.parse(m));
  }

  async deleteMetric(id: string): Promise<void> {
    await (await this.#open()).delete('metrics', id);
  }

  /** Many metrics in one transaction (a dbt project's 2,000): all saved, or none. */
  async putMetrics(ms: readonly Metric[]): Promise<void> {
    const tx = (await this.#open()).transaction('metrics', 'readwrite');
    await Promise.all([...ms.map((m) => tx.store.put(MetricSchema.parse(m))), tx.done]);
  }

  async deleteMetrics(ids: readonly string[]): Promise<void> {
    const tx = (await this.#open()).transaction('metrics', 'readwrite');
    await Promise.all([...ids.map((id) => tx.store.delete(id)), tx.done]);
  }

  /** Closes this context's connection to the workspace database (reopened on next use). */
  async close(): Promise<void> {
    await workspaceView<KnowledgeDb>(this.dbName).close();
  }
}
