/**
 * Finding the examples closest to a question: BM25 over question, tags and approach (MiniSearch)
 * always works offline; when the endpoint offers `/embeddings`, cosine similarity over embedded
 * examples is used instead, falling back to BM25 the moment an embedding call fails.
 */
import MiniSearch from 'minisearch';
import type { ExampleRecord } from '../../../protocol/agent/tools';
import { EXAMPLES } from './library';
import { messageOf } from '../../../shared/errors';

export interface ExampleHit {
  example: ExampleRecord;
  score: number;
}

export interface ExampleSearch {
  hits: ExampleHit[];
  method: 'embeddings' | 'bm25';
  /** Why embeddings were not used, when they were configured but failed. */
  fallbackReason?: string;
}

/** Turns texts into vectors; one vector per text, same order. */
export interface EmbeddingProvider {
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
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

function exampleText(e: ExampleRecord): string {
  return `${e.question}\n${e.tags.join(', ')}\n${e.approach}`;
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export class ExampleLibrary {
  private readonly examples = new Map<string, ExampleRecord>();
  private readonly index: MiniSearch<ExampleRecord>;
  private embeddings: EmbeddingProvider | undefined;
  private readonly vectors = new Map<string, number[]>();
  private embeddingFailure: string | undefined;

  constructor(examples: readonly ExampleRecord[] = EXAMPLES, options: { embeddings?: EmbeddingProvider } = {}) {
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
    this.embeddings = options.embeddings;
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
    this.vectors.delete(id);
    return true;
  }

  /** Switches the embeddings path on (or off with `undefined`), e.g. after settings change. */
  setEmbeddings(provider: EmbeddingProvider | undefined): void {
    this.embeddings = provider;
    this.vectors.clear();
    this.embeddingFailure = undefined;
  }

  searchBm25(query: string, topK = 3): ExampleHit[] {
    const hits: ExampleHit[] = [];
    for (const r of this.index.search(query)) {
      const example = this.examples.get(String(r.id));
      if (example) hits.push({ example, score: r.score });
      if (hits.length >= topK) break;
    }
    return hits;
  }

  /** The `topK` nearest examples, by embeddings when available, else BM25. */
  async search(query: string, topK = 3, signal?: AbortSignal): Promise<ExampleSearch> {
    const provider = this.embeddings;
    if (!provider || this.embeddingFailure !== undefined) {
      return { hits: this.searchBm25(query, topK), method: 'bm25', fallbackReason: this.embeddingFailure };
    }
    try {
      const missing = this.all().filter((e) => !this.vectors.has(e.id));
      const vecs = await provider.embed([query, ...missing.map(exampleText)], signal);
      if (vecs.length !== missing.length + 1) throw new Error(`expected ${missing.length + 1} vectors, got ${vecs.length}`);
      missing.forEach((e, i) => this.vectors.set(e.id, vecs[i + 1] ?? []));
      const q = vecs[0] ?? [];
      const hits = this.all()
        .map((example) => ({ example, score: cosine(q, this.vectors.get(example.id) ?? []) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, topK);
      return { hits, method: 'embeddings' };
    } catch (e) {
      if (signal?.aborted) throw e;
      // An endpoint without /embeddings fails every time: stop asking for this library.
      this.embeddingFailure = messageOf(e);
      return { hits: this.searchBm25(query, topK), method: 'bm25', fallbackReason: this.embeddingFailure };
    }
  }
}

export interface OpenAiEmbeddingsOptions {
  /** Including the version segment, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey: string;
  model: string;
  fetch?: typeof fetch;
}

/** `POST {baseUrl}/embeddings` of an OpenAI-compatible endpoint. The key goes only in the header. */
export function openAiEmbeddings(options: OpenAiEmbeddingsOptions): EmbeddingProvider {
  const doFetch = options.fetch ?? fetch;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
  return {
    async embed(texts, signal) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      const res = await doFetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: options.model, input: texts }),
        signal,
      });
      if (!res.ok) throw new Error(`embeddings request failed with HTTP ${res.status}`);
      const body: unknown = await res.json();
      const data = (body as { data?: unknown }).data;
      if (!Array.isArray(data)) throw new Error('embeddings response has no data array');
      const out: number[][] = new Array<number[]>(texts.length);
      data.forEach((d: unknown, i: number) => {
        const item = d as { embedding?: unknown; index?: unknown };
        const idx = typeof item.index === 'number' ? item.index : i;
        if (!Array.isArray(item.embedding) || !item.embedding.every((x) => typeof x === 'number')) {
          throw new Error('embeddings response item has no numeric embedding');
        }
        out[idx] = item.embedding as number[];
      });
      for (let i = 0; i < texts.length; i++) {
        if (out[i] === undefined) throw new Error(`embeddings response is missing vector ${i}`);
      }
      return out;
    },
  };
}

/** The examples as a prompt block (the agent's top 3). */
export function formatExamples(examples: readonly ExampleRecord[]): string {
  return examples
    .map((e) => `### ${e.id}: ${e.question}\nApproach: ${e.approach}\n\`\`\`\n${e.code_pattern}\n\`\`\``)
    .join('\n\n');
}
