/**
 * What a run takes from the workspace's knowledge: read once at the run's start (so an edit made
 * while a run is under way applies from the next question) and turned into the datasets block.
 */
import type { DataDictionary, WorkspaceRule } from '../../../protocol/agent/knowledge';
import type { DatasetContext } from '../prompts';
import { buildWorkspaceContext, type DetailLevel, type LeftOut } from './prompt';
import { MAX_RULES } from '../../../shared/knowledge/store';

export interface KnowledgeSource {
  dictionaries(): Promise<DataDictionary[]>;
  rules(): Promise<WorkspaceRule[]>;
}

export interface KnowledgeContext {
  datasetsText?: string;
  /** What the block shows in less detail than the workspace has (said in the run's steps). */
  knowledgeLeftOut?: LeftOut[];
  /** Each dataset's level in the block. */
  knowledgeLevels?: Record<string, DetailLevel>;
}

export async function knowledgeContext(src: KnowledgeSource | undefined, datasets: readonly DatasetContext[], budgetTokens?: number, question = ''): Promise<KnowledgeContext> {
  if (!src && budgetTokens === undefined) return {};
  // Unreadable knowledge must not stop a question: the run goes on with the raw schema.
  const [dicts, rules] = src ? await Promise.all([src.dictionaries().catch(() => []), src.rules().catch(() => [])]) : [[], []];
  // A draft is the model's guess until the user accepts it: only accepted dictionaries are taught.
  const dictionaries = new Map(dicts.filter((d) => d.status === 'accepted').map((d) => [d.dataset, d]));
  const ctx = buildWorkspaceContext({ datasets, dictionaries, rules: rules.slice(-MAX_RULES).map((r) => r.text), question, ...(budgetTokens !== undefined ? { budgetTokens } : {}) });
  return { datasetsText: ctx.text, knowledgeLeftOut: ctx.leftOut, knowledgeLevels: ctx.levels };
}

/** Share of the run's token budget the datasets block may take before it is made compact. */
export const DATASETS_SHARE = 0.4;
