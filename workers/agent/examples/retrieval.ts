/**
 * Finding the examples closest to a question: BM25 over question, tags and approach
 * (MiniSearch), which works offline and needs nothing from the endpoint.
 */
import MiniSearch from 'minisearch';
import type { ExampleRecord } from '../../../protocol/agent/tools';
import { EXAMPLES } from './library';

export interface ExampleHit {
  example: ExampleRecord;
  score: number;
}

const STOPWORDS = new Set(
  'a an and are as at be by can do does for from has have how i in is it its me my of on or show tell that the their there this to was what when where which who why with you your'.split(
    ' ',
  ),
);

// Longest first; a light stemmer so "correlated"/"correlation" and "differ"/"difference" meet.
const SUFFIXES = [
  'ations', 'ation', 'isons', 'ison', 'ating', 'ated', 'ates', 'ances', 'ance', 'ences', 'ence',
  'ants', 'ant', 'ents', 'ent', 'ings', 'ing', 'ions', 'ion', 'ies', 'ied', 'ed', 'ly', 'es', 's',
];

export function stem(word: string): string {
  let w = word.toLowerCase();
  for (const suf of SUFFIXES) {
    if (w.endsWith(suf) && w.length - suf.length >= 3) {
      w = w.slice(0, -suf.length) + (suf === 'ies' || suf === 'ied' ? 'y' : '');
      break;
    }
  }
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

function processTerm(term: string): string | null {
  const t = term.toLowerCase();
  if (t.length < 2 || STOPWORDS.has(t)) return null;
  return stem(t);
}

export class ExampleLibrary {
  private readonly examples = new Map<string, ExampleRecord>();
  private readonly index: MiniSearch<ExampleRecord>;

  constructor(examples: readonly ExampleRecord[] = EXAMPLES) {
    this.index = new MiniSearch<ExampleRecord>({
      fields: ['question', 'tags', 'approach'],
      storeFields: [],
      extractField: (doc, field) => {
        const v = (doc as unknown as Record<string, unknown>)[field];
        return Array.isArray(v) ? v.join(' ') : typeof v === 'string' ? v : '';
      },
      processTerm,
      searchOptions: { boost: { question: 2, tags: 2 }, fuzzy: 0.15, prefix: true, combineWith: 'OR' },
    });
    for (const e of examples) this.add(e);
  }

  get size(): number {
    return this.examples.size;
  }

  all(): ExampleRecord[] {
    return [...this.examples.values()];
  }

  get(id: string): ExampleRecord | undefined {
    return this.examples.get(id);
  }

  /** Adds (or replaces) an example, e.g. an answer the user gave a thumbs-up. */
  add(example: ExampleRecord): void {
    if (this.examples.has(example.id)) this.remove(example.id);
    this.examples.set(example.id, example);
    this.index.add(example);
  }

  remove(id: string): boolean {
    const e = this.examples.get(id);
    if (!e) return false;
    this.index.remove(e);
    this.examples.delete(id);
    return true;
  }

  /** The `topK` examples closest to `query`, best first. */
  search(query: string, topK = 3): ExampleHit[] {
    const hits: ExampleHit[] = [];
    for (const r of this.index.search(query)) {
      const example = this.examples.get(String(r.id));
      if (example) hits.push({ example, score: r.score });
      if (hits.length >= topK) break;
    }
    return hits;
  }
}

/** The examples as a prompt block (the agent's top 3). */
export function formatExamples(examples: readonly ExampleRecord[]): string {
  return examples
    .map((e) => `### ${e.id}: ${e.question}\nApproach: ${e.approach}\n\`\`\`\n${e.code_pattern}\n\`\`\``)
    .join('\n\n');
}
