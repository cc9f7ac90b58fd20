import { describe, expect, it } from 'vitest';
import { EXAMPLES } from './library';
import { ExampleLibrary, formatExamples, openAiEmbeddings, stem, type EmbeddingProvider } from './retrieval';

const lib = new ExampleLibrary();
const top = (q: string, k = 3) => lib.searchBm25(q, k).map((h) => h.example.id);

describe('BM25 retrieval', () => {
  it.each([
    ['Is there a significant difference in body mass between male and female penguins?', 'cmp_two_means_welch'],
    ['Is the conversion rate different between treatment and control?', 'cmp_proportions_chi2'],
    ['Do the average prices differ across the four regions? ANOVA', 'cmp_anova_groups'],
    ['Is flipper length correlated with body mass?', 'rel_pearson_sql'],
    ['How much does weight increase per additional cylinder? regression slope', 'rel_linear_regression_sql'],
    ['Are species and island associated?', 'rel_cramers_v'],
    ['How many missing values are in each column?', 'desc_missing_values_sql'],
    ['Give me summary statistics for the dataset', 'desc_summarize_sql'],
    ['Which rows are outliers in price?', 'pat_outliers_iqr_sql'],
    ['Cluster the customers into segments', 'pat_kmeans_python'],
    ['Is there seasonality by month in the temperatures?', 'pat_seasonality_sql'],
    ['Plot a histogram of the distribution of horsepower', 'viz_histogram'],
    ['Draw a scatter plot of mpg against weight colored by origin', 'viz_scatter_colored'],
    ['Show a line chart of the monthly trend over time', 'viz_line_over_time'],
    ['Join the orders table with customers on customer_id', 'ops_join_sql'],
    ['Find duplicate records', 'ops_deduplicate_sql'],
    ['Make a pivot table of sales by year and region', 'ops_pivot_sql'],
    ['What are the top 3 cars within each origin?', 'pat_top_n_per_group_sql'],
  ])('%s → %s in the top 3', (query, id) => {
    expect(top(query)).toContain(id);
  });

  it('ranks the best match first for a clear question', () => {
    expect(top('box plot of the spread by group')[0]).toBe('viz_box_by_group');
    expect(top('correlation matrix heatmap')[0]).toMatch(/rel_correlation_matrix|viz_heatmap_python/);
  });

  it('honours top_k and returns nothing for an empty query', () => {
    expect(lib.searchBm25('mean by group', 7)).toHaveLength(7);
    expect(lib.searchBm25('', 3)).toEqual([]);
  });

  it('adds a user example (thumbs-up) that becomes findable, and removes it', () => {
    const own = new ExampleLibrary();
    own.add({ id: 'user_1', question: 'Which penguin island has the heaviest Gentoo?', tags: ['user', 'penguins'], approach: 'max by island', code_pattern: 'SELECT 1' });
    expect(own.size).toBe(EXAMPLES.length + 1);
    expect(own.searchBm25('heaviest gentoo penguin island', 1)[0]?.example.id).toBe('user_1');
    expect(own.remove('user_1')).toBe(true);
    expect(own.searchBm25('heaviest gentoo penguin island', 3).map((h) => h.example.id)).not.toContain('user_1');
  });

  it('stems related word forms together', () => {
    expect(stem('correlated')).toBe(stem('correlation'));
    expect(stem('difference')).toBe(stem('different'));
    expect(stem('averages')).toBe(stem('average'));
    expect(stem('categories')).toBe(stem('category'));
  });

  it('formats examples for the prompt with their code', () => {
    const text = formatExamples(lib.searchBm25('histogram', 1).map((h) => h.example));
    expect(text).toContain('### viz_histogram');
    expect(text).toContain('create_chart(');
  });
});

/** A deterministic embedding: bag of stems hashed into 64 dims. */
function hashEmbedding(text: string): number[] {
  const v = new Array<number>(64).fill(0);
  for (const w of text.toLowerCase().split(/[^a-z]+/).filter(Boolean)) {
    let h = 0;
    for (const c of stem(w)) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    v[h % 64] = (v[h % 64] ?? 0) + 1;
  }
  return v;
}

describe('embeddings retrieval', () => {
  it('uses the provider, embeds each example once, and ranks by cosine', async () => {
    const calls: number[] = [];
    const provider: EmbeddingProvider = {
      embed: async (texts) => {
        calls.push(texts.length);
        return texts.map(hashEmbedding);
      },
    };
    const l = new ExampleLibrary(EXAMPLES, { embeddings: provider });
    const first = await l.search('histogram distribution plot', 3);
    expect(first.method).toBe('embeddings');
    expect(first.hits.map((h) => h.example.id)).toContain('viz_histogram');
    expect(first.hits[0]?.score).toBeGreaterThanOrEqual(first.hits[1]?.score ?? Infinity);
    await l.search('correlation', 3);
    expect(calls).toEqual([EXAMPLES.length + 1, 1]);
  });

  it('falls back to BM25 when the endpoint has no /embeddings, and stops asking', async () => {
    let calls = 0;
    const l = new ExampleLibrary(EXAMPLES, {
      embeddings: {
        embed: async () => {
          calls += 1;
          throw new Error('embeddings request failed with HTTP 404');
        },
      },
    });
    const r = await l.search('find duplicate records', 3);
    expect(r.method).toBe('bm25');
    expect(r.fallbackReason).toMatch(/404/);
    expect(r.hits.map((h) => h.example.id)).toContain('ops_deduplicate_sql');
    await l.search('outliers', 3);
    expect(calls).toBe(1);
  });

  it('openAiEmbeddings posts to {baseUrl}/embeddings with the key only in the header', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      seen.push({ url, init });
      const body = JSON.parse(String(init.body)) as { input: string[] };
      // out of order on purpose: the index field decides
      const data = body.input.map((t, index) => ({ index, embedding: hashEmbedding(t) })).reverse();
      return new Response(JSON.stringify({ data }), { status: 200 });
    }) as typeof fetch;
    const p = openAiEmbeddings({ baseUrl: 'http://h/v1/', apiKey: 'sk-test', model: 'emb', fetch: fakeFetch });
    const out = await p.embed(['a b', 'c']);
    expect(out).toEqual([hashEmbedding('a b'), hashEmbedding('c')]);
    expect(seen[0]?.url).toBe('http://h/v1/embeddings');
    expect((seen[0]?.init.headers as Record<string, string>).authorization).toBe('Bearer sk-test');
    expect(String(seen[0]?.init.body)).not.toContain('sk-test');
  });

  it('openAiEmbeddings reports HTTP errors and malformed bodies', async () => {
    const status = openAiEmbeddings({ baseUrl: 'http://h/v1', apiKey: '', model: 'm', fetch: (async () => new Response('no', { status: 404 })) as typeof fetch });
    await expect(status.embed(['x'])).rejects.toThrow(/404/);
    const bad = openAiEmbeddings({ baseUrl: 'http://h/v1', apiKey: '', model: 'm', fetch: (async () => new Response('{"data":[{"embedding":"x"}]}')) as typeof fetch });
    await expect(bad.embed(['x'])).rejects.toThrow(/numeric/);
  });
});
