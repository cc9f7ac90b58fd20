/**
 * Trusted queries and metrics for a run (issue 32; after Genie's example SQL and Hex's semantic
 * models). The trusted queries whose questions are closest to the asked one (by shared words,
 * over the loaded tables only) and every metric of a loaded table go into the prompt; after the
 * run, the final output says which trusted query it reused and which metrics its SQL or answer
 * used, so an answer cites them.
 */
import type { Metric, TrustedQuery } from '../../../protocol/agent/knowledge';

const STOP = new Set('the a an of in on at to for by and or is are was were what which how many much per each with from this that there their do does did show give me list all total'.split(' '));
const words = (s: string) => new Set(s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1 && !STOP.has(w)));

/** Trusted queries shown per run at most. */
export const TRUSTED_TOP = 3;

/** How close two questions are: shared words over the smaller set (0…1). */
export function similarity(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  if (x.size === 0 || y.size === 0) return 0;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / Math.min(x.size, y.size);
}

/** What naming one of a trusted query's tables adds to its questions' closeness. */
export const TABLE_NAMED_BONUS = 0.25;

/**
 * The trusted queries for a question: only over loaded tables (the tables DuckDB's binder found
 * when it was marked), at least half their words shared — or a little less when the question
 * names one of the tables the query reads — closest first.
 */
export function relevantTrusted(question: string, queries: readonly TrustedQuery[], loaded: readonly string[], top = TRUSTED_TOP, named: ReadonlySet<string> = new Set()): TrustedQuery[] {
  return queries
    .filter((q) => q.datasets.every((d) => loaded.includes(d)))
    .map((q) => ({ q, s: similarity(question, q.question) + (q.datasets.some((d) => named.has(d)) ? TABLE_NAMED_BONUS : 0) }))
    .filter(({ s }) => s >= 0.5)
    .sort((a, b) => b.s - a.s)
    .slice(0, top)
    .map(({ q }) => q);
}

export const trustedItem = (q: TrustedQuery) => `- Question: ${JSON.stringify(q.question)}\n  SQL: ${q.sql.trim().replace(/\s*\n\s*/g, ' ')}`;
export const metricItem = (m: Metric) => `- ${m.name} (table ${m.dataset}) = ${m.expression.trim()}${m.description.trim() ? ` — ${m.description.trim()}` : ''}`;

const normSql = (s: string) => s.replace(/\s+/g, ' ').replace(/;\s*$/, '').trim().toLowerCase();

/** What the answer should cite: the trusted queries its SQL reused, the metrics its SQL or text used. */
export function citations(sqls: readonly string[], answer: string, trusted: readonly TrustedQuery[], metrics: readonly Metric[]): string[] {
  const ran = sqls.map(normSql);
  const out: string[] = [];
  for (const q of trusted) {
    const t = normSql(q.sql);
    if (ran.some((r) => r === t || r.includes(t))) out.push(`Reused the trusted query for “${q.question}”.`);
  }
  const text = answer.toLowerCase();
  for (const m of metrics) {
    const expr = normSql(m.expression);
    const named = new RegExp(`(^|[^\\p{L}\\p{N}_])${m.name.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}\\p{N}_])`, 'u').test(text);
    if (ran.some((r) => r.includes(expr)) || named) out.push(`Metric ${m.name} (${m.dataset}): ${m.expression.trim()}.`);
  }
  return out;
}
