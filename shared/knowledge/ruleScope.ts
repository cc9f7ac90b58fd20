/**
 * Where a rule applies (issue 32), by the content of the dataset it was scoped to, as dictionaries
 * are bound (identity.ts): a rule scoped to a table records that table's fingerprint, so it follows
 * a rename, and a different file loaded under the same name is only *offered* the rule — the user
 * applies it or not; it is never sent for that file on its own.
 */
import type { WorkspaceRule } from '../../protocol/agent/knowledge';
import { datasetFingerprint, type DatasetIdentity } from './identity';

export type RuleScope =
  /** Every question gets it. */
  | { kind: 'workspace' }
  /** Sent while this dataset (its current name) is loaded. */
  | { kind: 'dataset'; dataset: string }
  /** Written for another file that had this dataset's name: not sent until the user applies it. */
  | { kind: 'offered'; dataset: string }
  /** Its dataset is not loaded: kept, not sent. */
  | { kind: 'not_loaded' };

/**
 * A rule's scope among the loaded datasets. A scoped rule without a fingerprint (stored before
 * this) is bound by name, as it was.
 */
export function ruleScope(rule: WorkspaceRule, datasets: readonly DatasetIdentity[]): RuleScope {
  if (rule.dataset === undefined) return { kind: 'workspace' };
  if (rule.fingerprint === undefined) return datasets.some((d) => d.name === rule.dataset) ? { kind: 'dataset', dataset: rule.dataset } : { kind: 'not_loaded' };
  const same = datasets.filter((d) => datasetFingerprint(d) === rule.fingerprint);
  const own = same.find((d) => d.name === rule.dataset) ?? same[0];
  if (own) return { kind: 'dataset', dataset: own.name };
  if (datasets.some((d) => d.name === rule.dataset)) return { kind: 'offered', dataset: rule.dataset };
  return { kind: 'not_loaded' };
}

/** The rule scoped to `ds` (stamped with its content), or to the whole workspace when `ds` is undefined. */
export function scopeRule(rule: WorkspaceRule, ds: DatasetIdentity | undefined): WorkspaceRule {
  const { dataset: _d, fingerprint: _f, ...rest } = rule;
  return ds ? { ...rest, dataset: ds.name, fingerprint: datasetFingerprint(ds) } : rest;
}

/**
 * The rules a run gets, as the prompt carries them, in the user's order: the workspace's, and a
 * table's own while its content is loaded (marked with the table's current name).
 */
export function appliedRules(rules: readonly WorkspaceRule[], datasets: readonly DatasetIdentity[]): string[] {
  const out: string[] = [];
  for (const r of rules) {
    const scope = ruleScope(r, datasets);
    if (scope.kind === 'workspace') out.push(r.text);
    else if (scope.kind === 'dataset') out.push(`(for ${scope.dataset}) ${r.text}`);
  }
  return out;
}
