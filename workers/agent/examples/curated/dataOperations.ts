/**
 * Curated examples of the `data_operation` category (reshaping, joining and cleaning).
 * Data, one record per example; the placeholders and how they are tested are in ../library.ts.
 */
import type { CuratedExample } from './curatedExample';

export const DATA_OPERATIONS: readonly CuratedExample[] = [
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
