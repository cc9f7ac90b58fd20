/**
 * The curated example library: how typical questions are answered in THIS app. Each code
 * pattern is DuckDB SQL (for `run_sql` / `create_chart`) or Python for `run_python`, where
 * `sql(query)` returns a table with `.columns` (names) and `.rows` (lists), or a pandas
 * DataFrame when pandas is importable; patterns marked "stdlib" need nothing beyond the
 * standard library.
 *
 * Placeholders in angle brackets are to be replaced with the user's names:
 * <table>, <other_table>, <group_col> (a category with few levels), <group_a>, <group_b>
 * (two of its values), <value_col>, <x_col>, <y_col> (numbers), <date_col> (a DATE/TIMESTAMP),
 * <flag_col> (a 0/1 or boolean outcome), <key_col> (a join key present in both tables).
 * examples.test.ts substitutes them and runs every SQL pattern on native DuckDB and parses
 * every Python pattern, so a pattern that stops working fails a test.
 *
 * Long on purpose: it is data (one record per example), read and tested as one list.
 */
import type { ExampleRecord } from '../../../protocol/agent/tools';
import type { ExampleCategory } from '../../../shared/exampleCategories';

export { EXAMPLE_CATEGORIES, type ExampleCategory } from '../../../shared/exampleCategories';

export interface CuratedExample extends ExampleRecord {
  category: ExampleCategory;
  /** Which tool runs `code_pattern`. */
  language: 'sql' | 'python' | 'chart';
}

export const EXAMPLES: readonly CuratedExample[] = [
  // ----------------------------------------------------------------------------- comparisons
  {
    id: 'cmp_group_means_sql',
    category: 'comparison',
    language: 'sql',
    question: 'How does the average value differ between groups?',
    tags: ['comparison', 'group by', 'mean', 'average', 'difference', 'groups', 'categories'],
    approach:
      'Aggregate per group with count, mean, standard deviation and median so the reader sees size and spread next to the averages; order by the mean.',
    code_pattern: `SELECT <group_col>,
       count(<value_col>) AS n,
       round(avg(<value_col>), 3) AS mean,
       round(stddev_samp(<value_col>), 3) AS sd,
       median(<value_col>) AS median
FROM <table>
WHERE <value_col> IS NOT NULL
GROUP BY <group_col>
ORDER BY mean DESC`,
  },
  {
    id: 'cmp_two_means_welch',
    category: 'comparison',
    language: 'python',
    question: 'Is there a significant difference in the mean value between group A and group B?',
    tags: ['comparison', 'hypothesis test', 't-test', 'welch', 'significant', 'difference', 'two groups', 'p-value', 'stdlib'],
    approach:
      "Welch's t-test (unequal variances). Pull both samples with SQL, compute means, t and degrees of freedom; use scipy for the p-value when importable, otherwise the normal approximation (fine for n > 30). Report means, difference, t, p and n per group.",
    code_pattern: `import math, statistics
t = sql("SELECT <group_col> AS g, <value_col> AS v FROM <table> WHERE <value_col> IS NOT NULL AND <group_col> IN ('<group_a>', '<group_b>')")
g_i, v_i = t.columns.index('g'), t.columns.index('v')
a = [r[v_i] for r in t.rows if r[g_i] == '<group_a>']
b = [r[v_i] for r in t.rows if r[g_i] == '<group_b>']
ma, mb = statistics.fmean(a), statistics.fmean(b)
va, vb = statistics.variance(a), statistics.variance(b)
se = math.sqrt(va / len(a) + vb / len(b))
t_stat = (ma - mb) / se
df_w = (va / len(a) + vb / len(b)) ** 2 / ((va / len(a)) ** 2 / (len(a) - 1) + (vb / len(b)) ** 2 / (len(b) - 1))
try:
    from scipy import stats
    p = 2 * stats.t.sf(abs(t_stat), df_w)
except ImportError:
    p = 2 * (1 - statistics.NormalDist().cdf(abs(t_stat)))
result = {'mean_a': ma, 'mean_b': mb, 'difference': ma - mb, 't': t_stat, 'df': df_w, 'p_value': p, 'n_a': len(a), 'n_b': len(b)}`,
  },
  {
    id: 'cmp_proportions_chi2',
    category: 'comparison',
    language: 'python',
    question: 'Is the conversion rate significantly different between treatment and control?',
    tags: ['comparison', 'hypothesis test', 'chi-square', 'proportions', 'rates', 'conversion', 'significant', 'contingency table', 'stdlib'],
    approach:
      'Build the 2×k contingency table with SQL (successes and failures per group), compute the chi-square statistic; p-value from scipy when available, else from the chi-square survival function for the degrees of freedom via the regularised gamma series. Report rates per group too.',
    code_pattern: `import math
t = sql("SELECT <group_col> AS g, sum(CASE WHEN <flag_col>::INT = 1 THEN 1 ELSE 0 END) AS yes, sum(CASE WHEN <flag_col>::INT = 1 THEN 0 ELSE 1 END) AS no FROM <table> WHERE <flag_col> IS NOT NULL GROUP BY g ORDER BY g")
rows = [dict(zip(t.columns, r)) for r in t.rows]
total = sum(r['yes'] + r['no'] for r in rows)
col_yes = sum(r['yes'] for r in rows)
chi2 = 0.0
for r in rows:
    n = r['yes'] + r['no']
    for observed, col_total in ((r['yes'], col_yes), (r['no'], total - col_yes)):
        expected = n * col_total / total
        chi2 += (observed - expected) ** 2 / expected
dof = len(rows) - 1
def chi2_sf(x, k):
    # upper tail of chi-square = 1 - regularised lower gamma P(k/2, x/2)
    if x <= 0:
        return 1.0
    s, term, a, z = 0.0, 1.0 / (k / 2), k / 2, x / 2
    for i in range(1, 500):
        s += term
        term *= z / (a + i)
    return max(0.0, 1 - math.exp(-z + a * math.log(z) - math.lgamma(a)) * s)
try:
    from scipy import stats
    p = stats.chi2.sf(chi2, dof)
except ImportError:
    p = chi2_sf(chi2, dof)
result = {'rates': {r['g']: r['yes'] / (r['yes'] + r['no']) for r in rows}, 'chi2': chi2, 'dof': dof, 'p_value': p}`,
  },
  {
    id: 'cmp_anova_groups',
    category: 'comparison',
    language: 'python',
    question: 'Do the means differ across the three or more groups (ANOVA)?',
    tags: ['comparison', 'anova', 'f-test', 'multiple groups', 'means', 'significant', 'variance', 'stdlib'],
    approach:
      'One-way ANOVA: between-group and within-group sums of squares, F statistic; p-value from scipy.stats.f when importable, otherwise report F with its degrees of freedom and say the p-value needs scipy. Show group means and sizes.',
    code_pattern: `import statistics
t = sql("SELECT <group_col> AS g, <value_col> AS v FROM <table> WHERE <value_col> IS NOT NULL AND <group_col> IS NOT NULL")
groups = {}
for g, v in t.rows:
    groups.setdefault(g, []).append(v)
all_values = [v for vs in groups.values() for v in vs]
grand = statistics.fmean(all_values)
ss_between = sum(len(vs) * (statistics.fmean(vs) - grand) ** 2 for vs in groups.values())
ss_within = sum((v - statistics.fmean(vs)) ** 2 for vs in groups.values() for v in vs)
df_b, df_w = len(groups) - 1, len(all_values) - len(groups)
f_stat = (ss_between / df_b) / (ss_within / df_w)
try:
    from scipy import stats
    p = stats.f.sf(f_stat, df_b, df_w)
except ImportError:
    p = None
result = {'means': {g: statistics.fmean(vs) for g, vs in groups.items()}, 'n': {g: len(vs) for g, vs in groups.items()}, 'F': f_stat, 'df_between': df_b, 'df_within': df_w, 'p_value': p}`,
  },
  {
    id: 'cmp_mann_whitney',
    category: 'comparison',
    language: 'python',
    question: 'Are the values of two groups different when the data is skewed (non-parametric test)?',
    tags: ['comparison', 'mann-whitney', 'wilcoxon rank-sum', 'non-parametric', 'median', 'skewed', 'two groups', 'significant', 'stdlib'],
    approach:
      'Mann-Whitney U with average ranks for ties and the normal approximation for the p-value (scipy.stats.mannwhitneyu when importable). Report medians, U and p.',
    code_pattern: `import math, statistics
t = sql("SELECT <group_col> AS g, <value_col> AS v FROM <table> WHERE <value_col> IS NOT NULL AND <group_col> IN ('<group_a>', '<group_b>')")
a = [v for g, v in t.rows if g == '<group_a>']
b = [v for g, v in t.rows if g == '<group_b>']
try:
    from scipy import stats
    u, p = stats.mannwhitneyu(a, b, alternative='two-sided')
except ImportError:
    pooled = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    ranks, i = [0.0] * len(pooled), 0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        i = j + 1
    r_a = sum(r for r, (_, src) in zip(ranks, pooled) if src == 0)
    u = r_a - len(a) * (len(a) + 1) / 2
    mu, sigma = len(a) * len(b) / 2, math.sqrt(len(a) * len(b) * (len(a) + len(b) + 1) / 12)
    p = 2 * (1 - statistics.NormalDist().cdf(abs(u - mu) / sigma))
result = {'median_a': statistics.median(a), 'median_b': statistics.median(b), 'U': float(u), 'p_value': float(p)}`,
  },
  {
    id: 'cmp_periods_sql',
    category: 'comparison',
    language: 'sql',
    question: 'How did the metric change between this year and last year / before and after a date?',
    tags: ['comparison', 'before after', 'period over period', 'year over year', 'change', 'percent change', 'time'],
    approach:
      'Label each row with its period in SQL, aggregate per period, then compute the absolute and relative change with a window function so the numbers come from one query.',
    code_pattern: `WITH per AS (
  SELECT year(<date_col>) AS period, avg(<value_col>) AS mean_value, count(*) AS n
  FROM <table>
  GROUP BY period
)
SELECT period, n, round(mean_value, 3) AS mean_value,
       round(mean_value - lag(mean_value) OVER (ORDER BY period), 3) AS change,
       round(100 * (mean_value / lag(mean_value) OVER (ORDER BY period) - 1), 2) AS pct_change
FROM per
ORDER BY period`,
  },
  {
    id: 'cmp_share_by_group_sql',
    category: 'comparison',
    language: 'sql',
    question: 'Which group has the highest share of positive outcomes?',
    tags: ['comparison', 'rate', 'share', 'percentage', 'proportion', 'ranking', 'group by', 'highest'],
    approach:
      'Compute the rate of the outcome per group with a FILTER aggregate, keep the group size beside it so small groups are visible, and rank.',
    code_pattern: `SELECT <group_col>,
       count(*) AS n,
       count(*) FILTER (WHERE <flag_col>::INT = 1) AS positives,
       round(100.0 * count(*) FILTER (WHERE <flag_col>::INT = 1) / count(*), 2) AS pct_positive
FROM <table>
GROUP BY <group_col>
ORDER BY pct_positive DESC`,
  },
  // --------------------------------------------------------------------------- relationships
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
  // ---------------------------------------------------------------------------- descriptions
  {
    id: 'desc_summarize_sql',
    category: 'description',
    language: 'sql',
    question: 'Give me an overview / summary statistics of the dataset.',
    tags: ['description', 'summary statistics', 'overview', 'describe', 'min max mean', 'every column'],
    approach:
      "DuckDB's SUMMARIZE gives per-column type, min, max, unique count, mean, std, quartiles and null percentage in one statement.",
    code_pattern: `SUMMARIZE <table>`,
  },
  {
    id: 'desc_missing_values_sql',
    category: 'description',
    language: 'sql',
    question: 'How many missing values does each column have?',
    tags: ['description', 'missing values', 'nulls', 'data quality', 'completeness'],
    approach: 'Count NULLs per column with count(*) - count(col); UNPIVOT makes it one row per column.',
    code_pattern: `UNPIVOT (
  SELECT count(*) - count(COLUMNS(*)) FROM <table>
) ON COLUMNS(*) INTO NAME column_name VALUE missing
ORDER BY missing DESC`,
  },
  {
    id: 'desc_quantiles_sql',
    category: 'description',
    language: 'sql',
    question: 'What does the distribution of the values look like (median, quartiles, percentiles)?',
    tags: ['description', 'distribution', 'quantiles', 'percentiles', 'median', 'spread', 'skewness'],
    approach:
      'Quantiles with quantile_cont, plus mean, standard deviation and skewness so the shape can be described in words.',
    code_pattern: `SELECT count(<value_col>) AS n,
       round(avg(<value_col>), 3) AS mean,
       round(stddev_samp(<value_col>), 3) AS sd,
       min(<value_col>) AS min,
       quantile_cont(<value_col>, 0.25) AS q1,
       quantile_cont(<value_col>, 0.5) AS median,
       quantile_cont(<value_col>, 0.75) AS q3,
       quantile_cont(<value_col>, 0.95) AS p95,
       max(<value_col>) AS max,
       round(skewness(<value_col>), 3) AS skewness
FROM <table>`,
  },
  {
    id: 'desc_value_counts_sql',
    category: 'description',
    language: 'sql',
    question: 'What are the most common values of a category and how often do they occur?',
    tags: ['description', 'frequency', 'value counts', 'most common', 'top categories', 'mode', 'count'],
    approach: 'Count per value with the percentage of all rows, most frequent first.',
    code_pattern: `SELECT <group_col>,
       count(*) AS n,
       round(100.0 * count(*) / sum(count(*)) OVER (), 2) AS pct
FROM <table>
GROUP BY <group_col>
ORDER BY n DESC
LIMIT 20`,
  },
  {
    id: 'desc_group_totals_sql',
    category: 'description',
    language: 'sql',
    question: 'What is the total and average per category and per month?',
    tags: ['description', 'aggregation', 'totals', 'sum', 'group by', 'monthly', 'breakdown'],
    approach: 'Group by the category and the month (date_trunc) and aggregate sums and means; ORDER BY both keys.',
    code_pattern: `SELECT date_trunc('month', <date_col>) AS month,
       <group_col>,
       count(*) AS n,
       round(sum(<value_col>), 2) AS total,
       round(avg(<value_col>), 2) AS mean
FROM <table>
GROUP BY ALL
ORDER BY month, <group_col>`,
  },
  {
    id: 'desc_describe_python',
    category: 'description',
    language: 'python',
    question: 'Describe a numeric column in Python (mean, median, standard deviation).',
    tags: ['description', 'summary statistics', 'describe', 'python', 'pandas', 'stdlib', 'statistics module'],
    approach:
      'With pandas: df[col].describe(). Without pandas: the statistics module on the column pulled with sql().',
    code_pattern: `import statistics
try:
    import pandas as pd
    frame = sql("SELECT <value_col> FROM <table> WHERE <value_col> IS NOT NULL")
    result = frame['<value_col>'].describe().to_dict() if isinstance(frame, pd.DataFrame) else None
except ImportError:
    result = None
if result is None:
    t = sql("SELECT <value_col> FROM <table> WHERE <value_col> IS NOT NULL")
    xs = [r[0] for r in t.rows]
    q = statistics.quantiles(xs, n=4)
    result = {'count': len(xs), 'mean': statistics.fmean(xs), 'std': statistics.stdev(xs), 'min': min(xs), '25%': q[0], '50%': q[1], '75%': q[2], 'max': max(xs)}`,
  },
  // -------------------------------------------------------------------------------- patterns
  {
    id: 'pat_outliers_iqr_sql',
    category: 'pattern',
    language: 'sql',
    question: 'Are there outliers in the values?',
    tags: ['pattern', 'outliers', 'anomalies', 'iqr', 'tukey fences', 'extreme values', 'unusual'],
    approach: "Tukey's fences: values beyond 1.5·IQR from the quartiles; report the fences, how many rows fall outside, and the most extreme ones.",
    code_pattern: `WITH q AS (
  SELECT quantile_cont(<value_col>, 0.25) AS q1, quantile_cont(<value_col>, 0.75) AS q3 FROM <table>
)
SELECT t.*, q.q1 - 1.5 * (q.q3 - q.q1) AS lower_fence, q.q3 + 1.5 * (q.q3 - q.q1) AS upper_fence
FROM <table> t, q
WHERE t.<value_col> < q.q1 - 1.5 * (q.q3 - q.q1) OR t.<value_col> > q.q3 + 1.5 * (q.q3 - q.q1)
ORDER BY abs(t.<value_col> - (q.q1 + q.q3) / 2) DESC
LIMIT 50`,
  },
  {
    id: 'pat_zscore_sql',
    category: 'pattern',
    language: 'sql',
    question: 'Which records are unusually high or low compared to their group (z-score anomalies)?',
    tags: ['pattern', 'anomaly detection', 'z-score', 'standard deviations', 'unusual within group', 'outliers'],
    approach: 'z-score within each group using window functions; flag |z| > 3.',
    code_pattern: `SELECT *
FROM (
  SELECT *, (<value_col> - avg(<value_col>) OVER w) / nullif(stddev_samp(<value_col>) OVER w, 0) AS z
  FROM <table>
  WINDOW w AS (PARTITION BY <group_col>)
)
WHERE abs(z) > 3
ORDER BY abs(z) DESC`,
  },
  {
    id: 'pat_segments_ntile_sql',
    category: 'pattern',
    language: 'sql',
    question: 'Segment the records into tiers (quartiles / deciles) and compare the segments.',
    tags: ['pattern', 'segmentation', 'tiers', 'quartiles', 'deciles', 'ntile', 'buckets', 'groups'],
    approach: 'Assign ntile buckets on the value, then profile each bucket (size, range, mean of another metric).',
    code_pattern: `WITH b AS (
  SELECT *, ntile(4) OVER (ORDER BY <value_col>) AS segment
  FROM <table>
  WHERE <value_col> IS NOT NULL
)
SELECT segment, count(*) AS n, min(<value_col>) AS from_value, max(<value_col>) AS to_value,
       round(avg(<x_col>), 3) AS mean_x
FROM b
GROUP BY segment
ORDER BY segment`,
  },
  {
    id: 'pat_kmeans_python',
    category: 'pattern',
    language: 'python',
    question: 'Cluster the records into groups with similar characteristics.',
    tags: ['pattern', 'clustering', 'k-means', 'segments', 'similar groups', 'unsupervised', 'stdlib', 'scikit-learn'],
    approach:
      'k-means on standardised numeric columns: sklearn.cluster.KMeans when importable, otherwise a short Lloyd iteration in pure Python with a fixed seed. Describe each cluster by its size and mean of each feature.',
    code_pattern: `import random, statistics
t = sql("SELECT <x_col>, <y_col> FROM <table> WHERE <x_col> IS NOT NULL AND <y_col> IS NOT NULL")
pts = [list(r) for r in t.rows]
means = [statistics.fmean(c) for c in zip(*pts)]
sds = [statistics.stdev(c) or 1.0 for c in zip(*pts)]
z = [[(v - m) / s for v, m, s in zip(p, means, sds)] for p in pts]
k = 3
random.seed(0)
centers = random.sample(z, k)
for _ in range(50):
    labels = [min(range(k), key=lambda c: sum((a - b) ** 2 for a, b in zip(p, centers[c]))) for p in z]
    new = [[statistics.fmean(col) for col in zip(*[p for p, l in zip(z, labels) if l == c])] if c in labels else centers[c] for c in range(k)]
    if new == centers:
        break
    centers = new
result = [{'cluster': c, 'size': labels.count(c), **{name: statistics.fmean([p[i] for p, l in zip(pts, labels) if l == c]) for i, name in enumerate(t.columns)}} for c in range(k) if c in labels]`,
  },
  {
    id: 'pat_trend_moving_average_sql',
    category: 'pattern',
    language: 'sql',
    question: 'What is the trend over time (smoothed with a moving average)?',
    tags: ['pattern', 'trend', 'time series', 'moving average', 'rolling', 'smoothing', 'over time'],
    approach: 'Aggregate to a regular period, then a rolling mean with a window frame; the slope of value on time tells the direction.',
    code_pattern: `WITH m AS (
  SELECT date_trunc('month', <date_col>) AS month, avg(<value_col>) AS value
  FROM <table>
  GROUP BY month
)
SELECT month, round(value, 3) AS value,
       round(avg(value) OVER (ORDER BY month ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), 3) AS moving_avg_3
FROM m
ORDER BY month`,
  },
  {
    id: 'pat_seasonality_sql',
    category: 'pattern',
    language: 'sql',
    question: 'Is there a seasonal pattern by month or weekday?',
    tags: ['pattern', 'seasonality', 'monthly pattern', 'day of week', 'cyclical', 'time series'],
    approach: 'Average by calendar month (or weekday) across years so seasonal peaks stand out; include n.',
    code_pattern: `SELECT month(<date_col>) AS month_number,
       monthname(<date_col>) AS month_name,
       count(*) AS n,
       round(avg(<value_col>), 3) AS mean_value
FROM <table>
GROUP BY ALL
ORDER BY month_number`,
  },
  {
    id: 'pat_top_n_per_group_sql',
    category: 'pattern',
    language: 'sql',
    question: 'What are the top 3 records within each group?',
    tags: ['pattern', 'top n per group', 'ranking', 'best', 'largest', 'qualify', 'row_number'],
    approach: 'Rank inside each group with row_number() and keep the first N with QUALIFY.',
    code_pattern: `SELECT *
FROM <table>
WHERE <value_col> IS NOT NULL
QUALIFY row_number() OVER (PARTITION BY <group_col> ORDER BY <value_col> DESC) <= 3
ORDER BY <group_col>, <value_col> DESC`,
  },
  // -------------------------------------------------------------------------- visualizations
  {
    id: 'viz_bar_totals',
    category: 'visualization',
    language: 'chart',
    question: 'Show a bar chart of the average value per category.',
    tags: ['visualization', 'bar chart', 'categories', 'compare groups', 'plot', 'show'],
    approach: 'create_chart with a grouped SQL query: one row per category, sorted, bar type.',
    code_pattern: `create_chart({
  "sql": "SELECT <group_col>, round(avg(<value_col>), 2) AS mean_value FROM <table> GROUP BY <group_col> ORDER BY mean_value DESC",
  "chart": {"type": "bar", "x": "<group_col>", "y": "mean_value", "title": "Average <value_col> by <group_col>"}
})`,
  },
  {
    id: 'viz_histogram',
    category: 'visualization',
    language: 'chart',
    question: 'Plot the distribution of a numeric column as a histogram.',
    tags: ['visualization', 'histogram', 'distribution', 'frequency', 'plot', 'show spread'],
    approach: 'create_chart histogram over the raw column (binning is done by the chart).',
    code_pattern: `create_chart({
  "sql": "SELECT <value_col> FROM <table> WHERE <value_col> IS NOT NULL",
  "chart": {"type": "histogram", "x": "<value_col>", "title": "Distribution of <value_col>"}
})`,
  },
  {
    id: 'viz_scatter_colored',
    category: 'visualization',
    language: 'chart',
    question: 'Show the relationship between X and Y as a scatter plot coloured by group.',
    tags: ['visualization', 'scatter plot', 'relationship', 'correlation', 'color by group', 'plot'],
    approach: 'create_chart scatter with x, y and color; report the correlation alongside from run_sql.',
    code_pattern: `create_chart({
  "sql": "SELECT <x_col>, <y_col>, <group_col> FROM <table> WHERE <x_col> IS NOT NULL AND <y_col> IS NOT NULL",
  "chart": {"type": "scatter", "x": "<x_col>", "y": "<y_col>", "color": "<group_col>", "title": "<y_col> vs <x_col>"}
})`,
  },
  {
    id: 'viz_line_over_time',
    category: 'visualization',
    language: 'chart',
    question: 'Plot how the value changes over time as a line chart.',
    tags: ['visualization', 'line chart', 'time series', 'over time', 'trend', 'plot', 'monthly'],
    approach: 'Aggregate to a period in SQL (date_trunc) and draw a line, one series per group when color is given.',
    code_pattern: `create_chart({
  "sql": "SELECT date_trunc('month', <date_col>) AS month, avg(<value_col>) AS mean_value FROM <table> GROUP BY month ORDER BY month",
  "chart": {"type": "line", "x": "month", "y": "mean_value", "title": "Monthly average <value_col>"}
})`,
  },
  {
    id: 'viz_box_by_group',
    category: 'visualization',
    language: 'chart',
    question: 'Compare the spread of values between groups with a box plot.',
    tags: ['visualization', 'box plot', 'spread', 'compare distributions', 'groups', 'outliers', 'plot'],
    approach: 'create_chart box: x is the group, y the raw values (not aggregated).',
    code_pattern: `create_chart({
  "sql": "SELECT <group_col>, <value_col> FROM <table> WHERE <value_col> IS NOT NULL",
  "chart": {"type": "box", "x": "<group_col>", "y": "<value_col>", "title": "<value_col> by <group_col>"}
})`,
  },
  {
    id: 'viz_pie_shares',
    category: 'visualization',
    language: 'chart',
    question: 'Show the share of each category as a pie chart.',
    tags: ['visualization', 'pie chart', 'share', 'composition', 'proportion', 'parts of whole'],
    approach: 'Counts per category in SQL; pie with x = labels and y = counts. Prefer bars when there are more than 6 categories.',
    code_pattern: `create_chart({
  "sql": "SELECT <group_col>, count(*) AS n FROM <table> GROUP BY <group_col> ORDER BY n DESC",
  "chart": {"type": "pie", "x": "<group_col>", "y": "n", "title": "Share of rows by <group_col>"}
})`,
  },
  {
    id: 'viz_heatmap_python',
    category: 'visualization',
    language: 'python',
    question: 'Draw a heatmap of the correlation matrix in Python with Plotly.',
    tags: ['visualization', 'heatmap', 'correlation matrix', 'plotly', 'python', 'fig'],
    approach:
      'Compute the matrix (statistics.correlation), then build a Plotly heatmap; set `fig` so the app renders it and `result` with the numbers.',
    code_pattern: `import statistics
t = sql("SELECT <x_col>, <y_col>, <value_col> FROM <table> WHERE <x_col> IS NOT NULL AND <y_col> IS NOT NULL AND <value_col> IS NOT NULL")
cols = list(t.columns)
series = {c: [r[i] for r in t.rows] for i, c in enumerate(cols)}
matrix = [[statistics.correlation(series[a], series[b]) for b in cols] for a in cols]
result = {'columns': cols, 'matrix': matrix}
try:
    import plotly.graph_objects as go
    fig = go.Figure(go.Heatmap(z=matrix, x=cols, y=cols, zmin=-1, zmax=1, colorscale='RdBu'))
except ImportError:
    fig = {'data': [{'type': 'heatmap', 'z': matrix, 'x': cols, 'y': cols, 'zmin': -1, 'zmax': 1}], 'layout': {'title': {'text': 'Correlation matrix'}}}`,
  },
  // ------------------------------------------------------------------------- data operations
  {
    id: 'ops_join_sql',
    category: 'data_operation',
    language: 'sql',
    question: 'Combine two datasets on a shared key and compare columns from both.',
    tags: ['data operation', 'join', 'merge', 'combine tables', 'lookup', 'two datasets', 'key'],
    approach:
      'LEFT JOIN on the key (USING when the names match); check how many rows found no match before trusting the result.',
    code_pattern: `SELECT count(*) AS rows_total,
       count(o.<key_col>) AS rows_matched,
       count(*) - count(o.<key_col>) AS rows_unmatched
FROM <table> t
LEFT JOIN <other_table> o ON t.<key_col> = o.<key_col>`,
  },
  {
    id: 'ops_filter_sql',
    category: 'data_operation',
    language: 'sql',
    question: 'Show only the rows that meet several conditions.',
    tags: ['data operation', 'filter', 'where', 'subset', 'conditions', 'select rows'],
    approach: 'WHERE with explicit conditions, NULL handling stated, and the count of matches next to a sample.',
    code_pattern: `SELECT *, count(*) OVER () AS matching_rows
FROM <table>
WHERE <value_col> > (SELECT avg(<value_col>) FROM <table>)
  AND <group_col> = '<group_a>'
ORDER BY <value_col> DESC
LIMIT 100`,
  },
  {
    id: 'ops_derived_column_sql',
    category: 'data_operation',
    language: 'sql',
    question: 'Create a new category from a numeric column (bins / CASE WHEN) and count rows per bin.',
    tags: ['data operation', 'transformation', 'derived column', 'binning', 'case when', 'categorize', 'feature'],
    approach: 'CASE WHEN on quantile thresholds (or fixed cut points) in a CTE, then aggregate the new column.',
    code_pattern: `WITH q AS (SELECT quantile_cont(<value_col>, [0.33, 0.66]) AS cuts FROM <table>)
SELECT CASE WHEN <value_col> <= q.cuts[1] THEN 'low'
            WHEN <value_col> <= q.cuts[2] THEN 'medium'
            ELSE 'high' END AS level,
       count(*) AS n,
       round(avg(<value_col>), 3) AS mean_value
FROM <table>, q
WHERE <value_col> IS NOT NULL
GROUP BY level
ORDER BY mean_value`,
  },
  {
    id: 'ops_pivot_sql',
    category: 'data_operation',
    language: 'sql',
    question: 'Make a pivot table with one row per year and one column per category.',
    tags: ['data operation', 'pivot', 'reshape', 'wide format', 'crosstab', 'cross tabulation'],
    approach: "DuckDB's PIVOT statement: ON the category, USING the aggregate, GROUP BY the row key.",
    code_pattern: `PIVOT (SELECT year(<date_col>) AS year, <group_col>, <value_col> FROM <table>)
ON <group_col>
USING round(avg(<value_col>), 2)
GROUP BY year
ORDER BY year`,
  },
  {
    id: 'ops_deduplicate_sql',
    category: 'data_operation',
    language: 'sql',
    question: 'Are there duplicate rows, and how do I keep only the latest record per key?',
    tags: ['data operation', 'duplicates', 'deduplicate', 'distinct', 'latest record', 'data cleaning'],
    approach: 'Count duplicates by key with HAVING count(*) > 1; keep one row per key with QUALIFY row_number().',
    code_pattern: `SELECT <key_col>, count(*) AS copies
FROM <table>
GROUP BY <key_col>
HAVING count(*) > 1
ORDER BY copies DESC
LIMIT 20`,
  },
  {
    id: 'ops_parse_dates_sql',
    category: 'data_operation',
    language: 'sql',
    question: 'The date column is text: convert it and count rows per year.',
    tags: ['data operation', 'dates', 'parse', 'cast', 'strptime', 'text to date', 'data cleaning', 'year'],
    approach:
      'try_cast to DATE (ISO text) or try_strptime with the format; count how many failed to parse before aggregating.',
    code_pattern: `WITH d AS (
  SELECT coalesce(try_cast(CAST(<date_col> AS VARCHAR) AS DATE),
                  CAST(try_strptime(CAST(<date_col> AS VARCHAR), '%d/%m/%Y') AS DATE)) AS parsed
  FROM <table>
)
SELECT year(parsed) AS year, count(*) AS n, count(*) FILTER (WHERE parsed IS NULL) AS unparsed
FROM d
GROUP BY ALL
ORDER BY year`,
  },
  {
    id: 'ops_python_groupby',
    category: 'data_operation',
    language: 'python',
    question: 'Group and aggregate in Python (with or without pandas).',
    tags: ['data operation', 'group by', 'aggregate', 'python', 'pandas', 'stdlib', 'dictionary'],
    approach:
      'Prefer letting SQL aggregate; in Python, pandas groupby when available, else a dict of lists and the statistics module.',
    code_pattern: `import statistics
frame = sql("SELECT <group_col> AS g, <value_col> AS v FROM <table> WHERE <value_col> IS NOT NULL")
if hasattr(frame, 'groupby'):
    result = frame.groupby('g')['v'].agg(['count', 'mean', 'median']).reset_index()
else:
    groups = {}
    for g, v in frame.rows:
        groups.setdefault(g, []).append(v)
    result = [{'group': g, 'count': len(vs), 'mean': statistics.fmean(vs), 'median': statistics.median(vs)} for g, vs in sorted(groups.items())]`,
  },
];
