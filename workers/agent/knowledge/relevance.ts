/**
 * Which datasets a question names: by the table's name, by a column's name, or by a term of the
 * table's accepted dictionary (a column's description or unit, a code's meaning). The fitting of
 * the knowledge block gives those tables room first (issue 32), so "average income in the North"
 * keeps the survey's codes even when a 500-column table is loaded beside it.
 */
import type { DataDictionary } from '../../../protocol/agent/knowledge';
import type { DatasetContext } from '../core/prompts';

const words = (s: string): string[] => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** Words too common in questions and descriptions to say which table is meant. */
const COMMON = new Set(
  'the and for with from that this what which where when how many much per each are was were has have had not all any one two its their there than then into over under by of in on to a an is it as at or be do does did show give list count total number value values data table column row rows average mean sum year years month date time name code codes type'.split(' '),
);

const meaningful = (s: string): string[] => words(s).filter((w) => w.length >= 3 && !COMMON.has(w) && !/^\d+$/.test(w));

/** A name's words as a phrase (`net_income` → "net income"), matched whole in the question. */
function phraseIn(question: string, name: string): boolean {
  const q = ` ${words(question).join(' ')} `;
  const n = words(name).join(' ');
  return n.length >= 3 && q.includes(` ${n} `);
}

export interface Relevance {
  /** How strongly the question names the dataset: 0 when it does not. */
  score: number;
  /** Its columns the question names, which a compact listing still describes in full. */
  columns: string[];
}

export function relevance(question: string, datasets: readonly DatasetContext[], dictionaries: ReadonlyMap<string, DataDictionary>): Map<string, Relevance> {
  const asked = new Set(meaningful(question));
  const out = new Map<string, Relevance>();
  for (const ds of datasets) {
    let score = 0;
    if (question.trim() === '') {
      out.set(ds.name, { score: 0, columns: [] });
      continue;
    }
    if (phraseIn(question, ds.name) || asked.has(ds.name.toLowerCase())) score += 10;
    const columns = ds.columns.filter((c) => phraseIn(question, c.name)).map((c) => c.name);
    score += 3 * columns.length;
    const dict = dictionaries.get(ds.name);
    if (dict) {
      const terms = new Set<string>();
      for (const e of dict.columns) {
        for (const w of meaningful(e.description)) terms.add(w);
        for (const w of meaningful(e.unit)) terms.add(w);
        for (const c of e.codes) for (const w of meaningful(c.meaning)) terms.add(w);
      }
      for (const w of meaningful(dict.row_meaning)) terms.add(w);
      for (const w of asked) if (terms.has(w)) score += 1;
    }
    out.set(ds.name, { score, columns });
  }
  return out;
}
