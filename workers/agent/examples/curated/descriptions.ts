/**
 * Curated examples of the `description` category (describing a table or column).
 * Data, one record per example; the placeholders and how they are tested are in ../library.ts.
 */
import type { CuratedExample } from './curatedExample';

export const DESCRIPTIONS: readonly CuratedExample[] = [
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
];
