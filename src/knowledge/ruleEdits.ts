/**
 * The workspace rules as KnowledgeClient keeps them (issue 24): a new rule and an edited one
 * (trimmed, capped), the user's order (which is also the order rules get room in a tight prompt),
 * and where a rule contradicts an accepted dictionary, in words.
 */
import type { DataDictionary, WorkspaceRule } from '../../protocol/agent/knowledge';
import { conflictText, ruleConflicts } from '../../shared/knowledge/ruleConflicts';

/** The longest rule text kept. */
export const RULE_MAX = 2000;

export const nowIso = (): string => new Date(Date.now()).toISOString();

/** A rule from typed text, or null when there is none; it goes last once the user has ordered the rules. */
export function newRule(text: string, source: WorkspaceRule['source'], id: string, rules: readonly WorkspaceRule[]): WorkspaceRule | null {
  const t = text.trim();
  if (!t) return null;
  const rule: WorkspaceRule = { id, text: t.slice(0, RULE_MAX), created_at: nowIso(), source };
  if (rules.some((r) => r.order !== undefined)) rule.order = rules.length;
  return rule;
}

/** `old` with new text (its own when absent), or null when that leaves it empty. */
export function editedRule(old: WorkspaceRule, text: string | undefined): WorkspaceRule | null {
  const t = (text ?? old.text).trim().slice(0, RULE_MAX);
  return t ? { ...old, text: t, updated_at: nowIso() } : null;
}

/** The rules with one moved up (-1) or down (+1), numbered in their new order; null when it cannot move. */
export function movedRules(rules: readonly WorkspaceRule[], id: string, by: -1 | 1): WorkspaceRule[] | null {
  const i = rules.findIndex((r) => r.id === id);
  const j = i + by;
  if (i < 0 || j < 0 || j >= rules.length) return null;
  const list = [...rules];
  [list[i], list[j]] = [list[j] as WorkspaceRule, list[i] as WorkspaceRule];
  return list.map((r, k) => ({ ...r, order: k }));
}

/** Where a rule's text contradicts the accepted dictionaries (of one dataset when given), in words. */
export function conflictsIn(dictionaries: readonly DataDictionary[], text: string, dataset?: string): string[] {
  return ruleConflicts(
    text,
    dictionaries.filter((d) => dataset === undefined || d.dataset === dataset),
  ).map(conflictText);
}
