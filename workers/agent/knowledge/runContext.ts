/**
 * What a run takes from the workspace's knowledge: read once at the run's start (so an edit made
 * while a run is under way applies from the next question) and turned into the datasets block.
 */
import type { DataDictionary, Metric, TrustedQuery, WorkspaceRule } from '../../../protocol/agent/knowledge';
import { metricItem, relevantTrusted, trustedItem } from './trusted';
import { relevance } from './relevance';
import type { DatasetContext } from '../prompts';
import { buildWorkspaceContext, type DetailLevel, type LeftOut } from './prompt';
import { MAX_RULES } from '../../../shared/knowledge/store';
import { bindDictionaries } from '../../../shared/knowledge/identity';

export interface KnowledgeSource {
  dictionaries(): Promise<DataDictionary[]>;
  rules(): Promise<WorkspaceRule[]>;
  /** (issue 32) Absent on older sources: no trusted queries or metrics. */
  trusted?(): Promise<TrustedQuery[]>;
  metrics?(): Promise<Metric[]>;
}

export interface KnowledgeContext {
  datasetsText?: string;
  /** What the block shows in less detail than the workspace has (said in the run's steps). */
  knowledgeLeftOut?: LeftOut[];
  /** Each dataset's level in the block. */
  knowledgeLevels?: Record<string, DetailLevel>;
  /** The rules exactly as the block carries them (the final output records them for exports). */
  rulesGiven?: string[];
  /** The trusted queries and metrics the block carries (the final output cites those it used). */
  trustedGiven?: TrustedQuery[];
  metricsGiven?: Metric[];
}

/**
 * The rules a run gets, in the user's order: the workspace's, and a table's own while that table
 * is loaded (marked with its name). At most MAX_RULES.
 */
export function rulesForRun(rules: readonly WorkspaceRule[], loaded: readonly string[]): string[] {
  return rules
    .filter((r) => r.dataset === undefined || loaded.includes(r.dataset))
    .slice(0, MAX_RULES)
    .map((r) => (r.dataset ? `(for ${r.dataset}) ${r.text}` : r.text));
}

export async function knowledgeContext(src: KnowledgeSource | undefined, datasets: readonly DatasetContext[], budgetTokens?: number, question = ''): Promise<KnowledgeContext> {
  if (!src && budgetTokens === undefined) return {};
  // Unreadable knowledge must not stop a question: the run goes on with the raw schema.
  const [dicts, rules] = src ? await Promise.all([src.dictionaries().catch(() => []), src.rules().catch(() => [])]) : [[], []];
  // Each dataset's own dictionary, by content (a renamed table keeps it; another file under the
  // same name does not get it). A draft is the model's guess until the user accepts it: only
  // accepted dictionaries are taught.
  const bound = bindDictionaries(
    dicts,
    datasets.map((d) => ({ name: d.name, fileName: d.fileName ?? '', sizeBytes: d.sizeBytes ?? 0, columns: d.columns })),
  );
  const dictionaries = new Map<string, DataDictionary>();
  for (const [name, b] of bound) if (b.own?.status === 'accepted') dictionaries.set(name, b.own);
  const loaded = datasets.map((d) => d.name);
  const texts = rulesForRun(rules, loaded);
  const [allTrusted, allMetrics] = src ? await Promise.all([src.trusted?.().catch(() => []) ?? [], src.metrics?.().catch(() => []) ?? []]) : [[], []];
  // The tables the question names (by name, column or dictionary term) bring their trusted queries closer.
  const named = new Set([...relevance(question, datasets, dictionaries)].filter(([, r]) => r.score > 0).map(([name]) => name));
  const trusted = relevantTrusted(question, allTrusted, loaded, undefined, named);
  const metrics = allMetrics.filter((m) => loaded.includes(m.dataset));
  const ctx = buildWorkspaceContext({
    datasets,
    dictionaries,
    rules: texts,
    question,
    metrics: metrics.map(metricItem),
    trusted: trusted.map(trustedItem),
    ...(budgetTokens !== undefined ? { budgetTokens } : {}),
  });
  const given = texts.map((r) => r.trim()).filter((r) => r !== '').slice(0, ctx.rulesShown);
  return {
    datasetsText: ctx.text,
    knowledgeLeftOut: ctx.leftOut,
    knowledgeLevels: ctx.levels,
    rulesGiven: given,
    trustedGiven: trusted.slice(0, ctx.trustedShown),
    metricsGiven: metrics.slice(0, ctx.metricsShown),
  };
}

/** Share of the run's token budget the datasets block may take before it is made compact. */
export const DATASETS_SHARE = 0.4;
