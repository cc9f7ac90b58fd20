/**
 * Curated examples of the `relationship` category (relationships between columns).
 * Data, one record per example; the placeholders and how they are tested are in ../library.ts.
 */
import type { CuratedExample } from './curatedExample';

export const RELATIONSHIPS: readonly CuratedExample[] = [
  {
    id: 'rel_pearson_sql',
    category: 'relationship',
    language: 'sql',
    question: 'Is there a correlation between X and Y?',
    tags: ['relationship', 'correlation', 'pearson', 'association', 'linear', 'two numeric columns'],
    approach:
      'Pearson correlation with DuckDB corr() over complete pairs, with n; a strong |r| (> 0.7) or weak (< 0.3) is stated with the caveat that correlation is not causation. Follow with a scatter chart if asked to show it.',
    code_pattern: `SELECT round(corr(<y_col>, <x_col>), 4) AS pearson_r,
       count(*) AS n
FROM <table>
WHERE <x_col> IS NOT NULL AND <y_col> IS NOT NULL`,
  },
  {
    id: 'rel_spearman_sql',
    category: 'relationship',
    language: 'sql',
    question: 'Is there a monotonic (rank) relationship between two variables with outliers?',
    tags: ['relationship', 'spearman', 'rank correlation', 'monotonic', 'non-parametric', 'outliers'],
    approach: 'Spearman correlation = Pearson correlation of the ranks; rank with average ranks for ties in SQL.',
    code_pattern: `WITH ranked AS (
  SELECT rank() OVER (ORDER BY <x_col>) + (count(*) OVER (PARTITION BY <x_col>) - 1) / 2.0 AS rx,
         rank() OVER (ORDER BY <y_col>) + (count(*) OVER (PARTITION BY <y_col>) - 1) / 2.0 AS ry
  FROM <table>
  WHERE <x_col> IS NOT NULL AND <y_col> IS NOT NULL
)
SELECT round(corr(ry, rx), 4) AS spearman_rho, count(*) AS n FROM ranked`,
  },
  {
    id: 'rel_linear_regression_sql',
    category: 'relationship',
    language: 'sql',
    question: 'How much does Y increase for each unit of X (linear regression)?',
    tags: ['relationship', 'regression', 'linear regression', 'slope', 'trend', 'r squared', 'predict'],
    approach:
      'Simple least-squares fit with DuckDB regr_slope, regr_intercept and regr_r2; report the slope in the units of Y per unit of X and R².',
    code_pattern: `SELECT round(regr_slope(<y_col>, <x_col>), 4) AS slope,
       round(regr_intercept(<y_col>, <x_col>), 4) AS intercept,
       round(regr_r2(<y_col>, <x_col>), 4) AS r_squared,
       regr_count(<y_col>, <x_col>) AS n
FROM <table>`,
  },
  {
    id: 'rel_correlation_matrix',
    category: 'relationship',
    language: 'python',
    question: 'Which numeric variables are most strongly correlated with each other?',
    tags: ['relationship', 'correlation matrix', 'pairwise', 'all numeric columns', 'strongest', 'stdlib', 'pandas'],
    approach:
      'Pairwise Pearson correlations over every numeric column; with pandas use df.corr(numeric_only=True), otherwise statistics.correlation per pair. Return the pairs sorted by |r|.',
    code_pattern: `import statistics, itertools
t = sql("SELECT * FROM <table>")
numeric = [c for i, c in enumerate(t.columns) if all(isinstance(r[i], (int, float)) or r[i] is None for r in t.rows)]
pairs = []
for a, b in itertools.combinations(numeric, 2):
    ia, ib = t.columns.index(a), t.columns.index(b)
    xs = [(r[ia], r[ib]) for r in t.rows if r[ia] is not None and r[ib] is not None]
    if len(xs) > 2:
        pairs.append({'a': a, 'b': b, 'r': statistics.correlation([x for x, _ in xs], [y for _, y in xs]), 'n': len(xs)})
result = sorted(pairs, key=lambda p: -abs(p['r']))`,
  },
  {
    id: 'rel_cramers_v',
    category: 'relationship',
    language: 'python',
    question: 'Are two categorical variables associated?',
    tags: ['relationship', 'association', 'categorical', "cramer's v", 'chi-square', 'contingency', 'stdlib'],
    approach:
      "Cross-tabulate with SQL, compute chi-square and Cramér's V = sqrt(chi2 / (n·(min(r,c)−1))); V near 0 means no association, above 0.3 a moderate one.",
    code_pattern: `import math
t = sql("SELECT <group_col> AS a, CAST(<flag_col> AS VARCHAR) AS b, count(*) AS n FROM <table> WHERE <group_col> IS NOT NULL AND <flag_col> IS NOT NULL GROUP BY a, b")
counts = {(a, b): n for a, b, n in t.rows}
rows_ = sorted({a for a, _ in counts}); cols_ = sorted({b for _, b in counts})
n = sum(counts.values())
row_tot = {a: sum(counts.get((a, b), 0) for b in cols_) for a in rows_}
col_tot = {b: sum(counts.get((a, b), 0) for a in rows_) for b in cols_}
chi2 = sum((counts.get((a, b), 0) - row_tot[a] * col_tot[b] / n) ** 2 / (row_tot[a] * col_tot[b] / n) for a in rows_ for b in cols_)
v = math.sqrt(chi2 / (n * (min(len(rows_), len(cols_)) - 1)))
result = {'chi2': chi2, 'cramers_v': v, 'n': n}`,
  },
  {
    id: 'rel_group_slopes_sql',
    category: 'relationship',
    language: 'sql',
    question: 'Does the relationship between X and Y differ by group?',
    tags: ['relationship', 'interaction', 'regression by group', 'slope', 'correlation by group', "simpson's paradox"],
    approach:
      "Fit the slope and correlation separately per group; compare to the pooled fit to spot Simpson's paradox.",
    code_pattern: `SELECT coalesce(<group_col>, '(all)') AS grp,
       round(regr_slope(<y_col>, <x_col>), 4) AS slope,
       round(corr(<y_col>, <x_col>), 4) AS r,
       regr_count(<y_col>, <x_col>) AS n
FROM <table>
GROUP BY ROLLUP (<group_col>)
ORDER BY grp`,
  },
];
