/**
 * What a run takes from the workspace's knowledge: read once at the run's start (so an edit made
 * while a run is under way applies from the next question) and turned into the datasets block.
 */
import type { DataDictionary, Metric, TrustedQuery, WorkspaceRule } from '../../../protocol/agent/knowledge';
import { metricItem, relevantTrusted, trustedItem } from './trusted';
import { relevance } from './relevance';
import type { DatasetContext } from '../core/prompts';
import { buildWorkspaceContext, type DetailLevel, type LeftOut, type WorkspaceContext, type WorkspaceContextInput } from './prompt';
import { MAX_RULES } from '../../../shared/knowledge/store';
import { bindDictionaries, type DatasetIdentity } from '../../../shared/knowledge/identity';
import { appliedRules } from '../../../shared/knowledge/ruleScope';

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
 * The rules a run gets, in the user's order: the workspace's, and a table's own while that
 * table's content is loaded, under its current name (shared/knowledge/ruleScope.ts). At most MAX_RULES.
 */
export function rulesForRun(rules: readonly WorkspaceRule[], datasets: readonly DatasetIdentity[]): string[] {
  return appliedRules(rules, datasets).slice(0, MAX_RULES);
}

/**
 * The run's knowledge block. `onBuilt` hears what it was built from and how it came out, so the
 * context-window fitting can rebuild it smaller, whole, when a request does not fit (windowFit.ts).
 */
export async function knowledgeContext(
  src: KnowledgeSource | undefined,
  datasets: readonly DatasetContext[],
  budgetTokens?: number,
  question = '',
  onBuilt?: (input: WorkspaceContextInput, ctx: WorkspaceContext) => void,
): Promise<KnowledgeContext> {
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
  const identities = datasets.map((d) => ({ name: d.name, fileName: d.fileName ?? '', sizeBytes: d.sizeBytes ?? 0, columns: d.columns }));
  const texts = rulesForRun(rules, identities);
  const [allTrusted, allMetrics] = src ? await Promise.all([src.trusted?.().catch(() => []) ?? [], src.metrics?.().catch(() => []) ?? []]) : [[], []];
  // The tables the question names (by name, column or dictionary term) bring their trusted queries closer.
  const named = new Set([...relevance(question, datasets, dictionaries)].filter(([, r]) => r.score > 0).map(([name]) => name));
  const trusted = relevantTrusted(question, allTrusted, loaded, undefined, named);
  const metrics = allMetrics.filter((m) => loaded.includes(m.dataset));
  const input: WorkspaceContextInput = {
    datasets,
    dictionaries,
    rules: texts,
    question,
    metrics: metrics.map(metricItem),
    trusted: trusted.map(trustedItem),
    ...(budgetTokens !== undefined ? { budgetTokens } : {}),
  };
  const ctx = buildWorkspaceContext(input);
  onBuilt?.(input, ctx);
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
