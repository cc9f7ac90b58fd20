/**
 * A rule that contradicts an accepted dictionary (issue 32): "1 means East" beside a dictionary
 * that says region 1 = North would be sent to the model side by side without a word. When a rule
 * is added or edited, the code–meaning pairs it states are compared with the accepted
 * dictionaries' codes, and a clash is shown to the user (the rule is still theirs to keep).
 * Natural language has no parser we can defer to, so this reads only the plain forms people
 * write — `1 = North`, `1 means North`, `code 1 is North`, `1 stands for North` — and says
 * nothing rather than guess on anything else.
 */
import type { DataDictionary } from '../../protocol/agent/knowledge';

export interface RuleConflict {
  dataset: string;
  column: string;
  code: string;
  /** What the rule says the code means. */
  rule: string;
  /** What the accepted dictionary says. */
  dictionary: string;
}

const PAIR = /(?:^|[\s,;(])(?:code\s+|value\s+)?["'`]?([\p{L}\p{N}._-]{1,20})["'`]?\s*(?:=|:|means|stands for|is)\s+["'`]?([\p{L}][\p{L}\p{N} '-]{0,60}?)["'`]?(?=$|[.,;)\n]|\s+(?:and|or|in|for|when|but)\b)/giu;

/** The (code, meaning) pairs a rule states in the plain forms above. */
export function statedCodes(rule: string): { code: string; meaning: string }[] {
  const out: { code: string; meaning: string }[] = [];
  for (const m of rule.matchAll(PAIR)) {
    const code = m[1]?.trim();
    const meaning = m[2]?.trim();
    if (code && meaning) out.push({ code, meaning });
  }
  return out;
}

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');
const words = (s: string) => new Set(s.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean));

/**
 * Clashes between a rule and the accepted dictionaries. When the rule names a column (or a
 * dataset), only those are compared; otherwise every coded column whose codes hold the code.
 */
export function ruleConflicts(rule: string, dictionaries: readonly DataDictionary[]): RuleConflict[] {
  const pairs = statedCodes(rule);
  if (pairs.length === 0) return [];
  const said = words(rule);
  const accepted = dictionaries.filter((d) => d.status === 'accepted');
  const columns = accepted.flatMap((d) => d.columns.filter((c) => c.codes.length > 0).map((c) => ({ d, c })));
  const named = columns.filter(({ d, c }) => said.has(c.name.toLowerCase()) || said.has(d.dataset.toLowerCase()));
  const scope = named.length ? named : columns;
  const out: RuleConflict[] = [];
  for (const { code, meaning } of pairs) {
    for (const { d, c } of scope) {
      const entry = c.codes.find((x) => norm(x.code) === norm(code));
      if (!entry || entry.meaning.trim() === '') continue;
      // Said the same way (or one contains the other, "North" / "the North"): no clash.
      const a = norm(entry.meaning);
      const b = norm(meaning);
      if (a === b || a.includes(b) || b.includes(a)) continue;
      out.push({ dataset: d.dataset, column: c.name, code, rule: meaning, dictionary: entry.meaning.trim() });
    }
  }
  return out;
}

export function conflictText(c: RuleConflict): string {
  return `This rule says ${c.code} means “${c.rule}”, but the accepted dictionary of ${c.dataset} says ${c.column} ${c.code} = “${c.dictionary}”.`;
}
