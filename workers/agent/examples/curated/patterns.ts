/**
 * Curated examples of the `pattern` category (outliers, segments, trends, seasonality).
 * Data, one record per example; the placeholders and how they are tested are in ../library.ts.
 */
import type { CuratedExample } from './curatedExample';

export const PATTERNS: readonly CuratedExample[] = [
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
];
