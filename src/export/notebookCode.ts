/**
 * The Python a notebook runs to redo the conversation in a plain Jupyter kernel: a setup cell
 * that loads each dataset into DuckDB from its original file (the user puts the files next to
 * the notebook), `duckdb.sql("""…""").df()` for each SQL step, plotly.express for each chart,
 * and the agent's own Python with the helpers it had in Dataseer (`sql`, `datasets`, `df`).
 * Needs `pip install duckdb pandas plotly` (plus pyarrow / openpyxl for Arrow / Excel files).
 */
import type { ExportDataset } from './thread';
import type { ChartSpec } from './outline';

/** A Python string literal: a raw triple-quoted block when the text allows it, else JSON's. */
export function pyString(text: string, multiline = false): string {
  // JSON string syntax is valid Python (\uXXXX escapes included).
  const json = JSON.stringify(text);
  if (!multiline) return json;
  for (const q of ['"""', "'''"]) {
    // The newlines around the text keep a trailing backslash or quote from touching the delimiter.
    if (!text.includes(q)) return `r${q}\n${text}\n${q}`;
  }
  return json;
}

/** A DuckDB SQL string literal. */
export function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

export function sqlIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** How one dataset's file becomes a DuckDB table; Arrow and Excel go through Python readers. */
function loadLines(d: ExportDataset): string[] {
  const file = sqlString(d.fileName);
  const create = (from: string) => `duckdb.sql(${pyString(`CREATE OR REPLACE TABLE ${sqlIdent(d.name)} AS SELECT * FROM ${from}`)})`;
  switch (d.format) {
    case 'csv':
      return [create(`read_csv(${file})`)];
    case 'tsv':
      return [create(`read_csv(${file}, delim = '\\t')`)];
    case 'parquet':
      return [create(`read_parquet(${file})`)];
    case 'json':
      return [create(`read_json_auto(${file})`)];
    case 'ndjson':
      return [create(`read_json_auto(${file}, format = 'newline_delimited')`)];
    case 'arrow':
      return [`_frame = _read_arrow(${pyString(d.fileName)})`, create('_frame')];
    case 'xlsx':
      return [`_frame = pd.read_excel(${pyString(d.fileName)}${d.sheet !== undefined ? `, sheet_name=${pyString(d.sheet)}` : ''})`, create('_frame')];
  }
}

const ARROW_READER = [
  'def _read_arrow(path):',
  '    import pyarrow as pa',
  '    try:',
  '        return pa.ipc.open_file(path).read_all()',
  '    except pa.ArrowInvalid:',
  '        return pa.ipc.open_stream(path).read_all()',
];

export function setupCode(datasets: ExportDataset[], withPythonHelpers: boolean): string {
  const lines = ['# Setup: the datasets this conversation used, loaded into DuckDB from their files.', '# Put the files next to this notebook (or change the paths below).'];
  lines.push('import duckdb');
  if (datasets.some((d) => d.format === 'xlsx') || withPythonHelpers) lines.push('import pandas as pd');
  if (datasets.some((d) => d.format === 'arrow')) lines.push('', ...ARROW_READER);
  if (datasets.length > 0) lines.push('');
  for (const d of datasets) lines.push(`# ${d.name}: ${d.rowCount} rows × ${d.columnCount} columns in Dataseer`, ...loadLines(d));
  if (withPythonHelpers) {
    lines.push(
      '',
      '',
      '# What Dataseer predefines for Python code: sql(query) -> DataFrame, datasets, df.',
      'def sql(query):',
      '    return duckdb.sql(query).df()',
      '',
      '',
      `datasets = {name: sql(f'SELECT * FROM "{name}"') for name in [${datasets.map((d) => pyString(d.name)).join(', ')}]}`,
    );
    const only = datasets.length === 1 ? datasets[0] : undefined;
    if (only) lines.push(`df = datasets[${pyString(only.name)}]`);
  }
  return lines.join('\n');
}

/** The app notebook's Python: `sql()` is predefined there (a DataFrame when pandas is available). */
export function appSqlCode(sql: string): string {
  return `sql(${pyString(sql.trim(), true)})`;
}

export function sqlCellCode(sql: string): string {
  return `duckdb.sql(${pyString(sql.trim(), true)}).df()`;
}

const PX: Record<ChartSpec['type'], string> = {
  bar: 'bar',
  line: 'line',
  scatter: 'scatter',
  histogram: 'histogram',
  box: 'box',
  pie: 'pie',
  heatmap: 'density_heatmap',
};

/** plotly.express arguments matching the app's own figure for this chart type. */
function pxArgs(c: ChartSpec): string[] {
  const a = (k: string, v: string | undefined) => (v === undefined ? [] : [`${k}=${pyString(v)}`]);
  switch (c.type) {
    case 'pie':
      return [...a('names', c.x), ...a('values', c.y)];
    case 'heatmap':
      return [...a('x', c.x), ...a('y', c.color), ...a('z', c.y), 'histfunc="sum"'];
    case 'histogram':
      return [...a('x', c.x), ...a('color', c.color), 'barmode="overlay"'];
    case 'box':
      return c.y === undefined ? [...a('y', c.x), ...a('color', c.color)] : [...a('x', c.x), ...a('y', c.y), ...a('color', c.color)];
    case 'line':
      return [...a('x', c.x), ...a('y', c.y), ...a('color', c.color), 'markers=True'];
    default:
      return [...a('x', c.x), ...a('y', c.y), ...a('color', c.color)];
  }
}

/** `query` writes the line that fetches the chart's data (an exported notebook's `duckdb`, or the app's `sql()`). */
export function chartCellCode(sql: string, chart: ChartSpec | null, query: (sql: string) => string = sqlCellCode): string {
  const data = query(sql);
  if (!chart) return `# The chart's settings were not recorded; its data:\n${data}`;
  const title = chart.title ?? (chart.y ? `${chart.y} by ${chart.x}` : chart.x);
  const args = [...pxArgs(chart), `title=${pyString(title)}`].join(', ');
  return ['import plotly.express as px', '', `chart_data = ${data}`, `fig = px.${PX[chart.type]}(chart_data, ${args})`, 'fig'].join('\n');
}

/**
 * The agent's code, plus lines that show what Dataseer showed (`result`, `fig`): the code only
 * sets them, and a notebook displays just the last expression.
 */
export function pythonCellCode(code: string, shows: { result: boolean; figure: boolean }): string {
  const body = code.replace(/\s+$/, '');
  const tail: string[] = [];
  if (shows.result && shows.figure) tail.push('display(result)', 'fig');
  else if (shows.result) tail.push('result');
  else if (shows.figure) tail.push('fig');
  if (tail.length === 0) return body;
  return `${body}\n\n# Shown by Dataseer:\n${tail.join('\n')}`;
}
