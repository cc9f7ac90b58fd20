import { describe, expect, it } from 'vitest';
import { chartCellCode, pyString, pythonCellCode, setupCode, sqlString } from './notebookCode';
import type { ExportDataset } from './thread';

const ds = (over: Partial<ExportDataset>): ExportDataset => ({ name: 't', fileName: 't.csv', format: 'csv', rowCount: 1, columnCount: 1, ...over });

describe('notebook code', () => {
  it('writes Python string literals that keep the text exactly', () => {
    expect(pyString('a\\nb', true)).toBe('r"""\na\\nb\n"""');
    expect(pyString('has """ inside', true)).toBe("r'''\nhas \"\"\" inside\n'''");
    expect(pyString(`both """ and '''`, true)).toBe(JSON.stringify(`both """ and '''`));
    expect(pyString('x"y')).toBe('"x\\"y"');
  });

  it('loads each file format into DuckDB under its table name', () => {
    const code = setupCode(
      [
        ds({ name: 'a', fileName: "it's.csv" }),
        ds({ name: 'b', fileName: 'b.tsv', format: 'tsv' }),
        ds({ name: 'c', fileName: 'c.parquet', format: 'parquet' }),
        ds({ name: 'd', fileName: 'd.ndjson', format: 'ndjson' }),
        ds({ name: 'e', fileName: 'e.arrow', format: 'arrow' }),
        ds({ name: 'f', fileName: 'f.xlsx', format: 'xlsx', sheet: 'Sheet 2' }),
      ],
      false,
    );
    expect(code).toContain(`FROM read_csv('it''s.csv')`);
    expect(code).toContain(`FROM read_csv('b.tsv', delim = '\\\\t')`);
    expect(code).toContain(`FROM read_parquet('c.parquet')`);
    expect(code).toContain(`FROM read_json_auto('d.ndjson', format = 'newline_delimited')`);
    expect(code).toContain('_frame = _read_arrow("e.arrow")');
    expect(code).toContain('_frame = pd.read_excel("f.xlsx", sheet_name="Sheet 2")');
    expect(code).toContain('import pandas as pd');
    expect(code).not.toContain('def sql(');
    expect(sqlString("o'k")).toBe("'o''k'");
  });

  it('draws charts with plotly.express to match the app', () => {
    expect(chartCellCode('SELECT 1', { type: 'pie', x: 'k', y: 'v' })).toContain('px.pie(chart_data, names="k", values="v", title="v by k")');
    expect(chartCellCode('SELECT 1', { type: 'heatmap', x: 'a', y: 'z', color: 'b', title: 'H' })).toContain('px.density_heatmap(chart_data, x="a", y="b", z="z", histfunc="sum", title="H")');
    expect(chartCellCode('SELECT 1', null)).toContain('not recorded');
  });

  it('shows result and fig after the agent\'s code', () => {
    expect(pythonCellCode('x = 1\n', { result: false, figure: false })).toBe('x = 1');
    expect(pythonCellCode('result = 1', { result: true, figure: true })).toBe('result = 1\n\n# Shown by Dataseer:\ndisplay(result)\nfig');
  });
});
