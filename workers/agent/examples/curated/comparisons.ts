/**
 * Curated examples of the `comparison` category (comparing groups).
 * Data, one record per example; the placeholders and how they are tested are in ../library.ts.
 */
import type { CuratedExample } from './curatedExample';

export const COMPARISONS: readonly CuratedExample[] = [
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
];
