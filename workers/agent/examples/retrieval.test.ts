import { describe, expect, it } from 'vitest';
import { EXAMPLES } from './library';
import { ExampleLibrary, formatExamples, stem } from './retrieval';

const lib = new ExampleLibrary();
const top = (q: string, k = 3) => lib.search(q, k).map((h) => h.example.id);

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
    expect(lib.search('mean by group', 7)).toHaveLength(7);
    expect(lib.search('', 3)).toEqual([]);
  });

  it('adds a user example (thumbs-up) that becomes findable, and removes it', () => {
    const own = new ExampleLibrary();
    own.add({ id: 'user_1', question: 'Which penguin island has the heaviest Gentoo?', tags: ['user', 'penguins'], approach: 'max by island', code_pattern: 'SELECT 1' });
    expect(own.size).toBe(EXAMPLES.length + 1);
    expect(own.search('heaviest gentoo penguin island', 1)[0]?.example.id).toBe('user_1');
    expect(own.remove('user_1')).toBe(true);
    expect(own.search('heaviest gentoo penguin island', 3).map((h) => h.example.id)).not.toContain('user_1');
  });

  it('stems related word forms together', () => {
    expect(stem('correlated')).toBe(stem('correlation'));
    expect(stem('difference')).toBe(stem('different'));
    expect(stem('averages')).toBe(stem('average'));
    expect(stem('categories')).toBe(stem('category'));
  });

  it('formats examples for the prompt with their code', () => {
    const text = formatExamples(lib.search('histogram', 1).map((h) => h.example));
    expect(text).toContain('### viz_histogram');
    expect(text).toContain('create_chart(');
  });
});
