/**
 * Curated examples of the `visualization` category (charts).
 * Data, one record per example; the placeholders and how they are tested are in ../library.ts.
 */
import type { CuratedExample } from './curatedExample';

export const VISUALIZATIONS: readonly CuratedExample[] = [
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
];
