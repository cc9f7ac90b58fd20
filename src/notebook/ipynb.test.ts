import { readFileSync } from 'node:fs';
import Ajv from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { ipynbToCells, notebookToIpynb, sqlOfCode } from './ipynb';
import { emptyNotebook, newCell, type NotebookDoc } from './model';

const schema = JSON.parse(readFileSync(new URL('../export/nbformat.v4.5.schema.json', import.meta.url), 'utf8')) as object;
const validate = new Ajv({ strict: false }).compile(schema);

function doc(): NotebookDoc {
  const sql = newCell('sql', 'SELECT species, count(*) AS n\nFROM penguins\nGROUP BY species');
  sql.output = { kind: 'table', columns: ['species', 'n'], types: ['VARCHAR', 'BIGINT'], rows: [['Adelie', 152]], rowCount: 1, truncated: false, elapsedMs: 3 };
  sql.runCount = 1;
  const py = newCell('python', 'import statistics\nresult = statistics.mean([1, 2, 3])');
  py.output = { kind: 'python', stdout: 'hi\n', stderr: '', result: { kind: 'scalar', value: 2, repr: '2' }, warnings: [], elapsedMs: 4 };
  py.runCount = 2;
  const broken = newCell('python', 'x = 1 / 0');
  broken.output = { kind: 'python', stdout: '', stderr: '', warnings: [], error: { type: 'ZeroDivisionError', message: 'division by zero', traceback: 'Traceback…\nZeroDivisionError: division by zero' }, elapsedMs: 1 };
  return { ...emptyNotebook(), cells: [newCell('markdown', '# Penguins\nA look.'), sql, py, broken, newCell('sql', "SELECT 'it''s' AS q")] };
}

describe('notebook ⇄ .ipynb', () => {
  it('exports valid nbformat 4.5 with a setup cell, SQL through DuckDB and the outputs shown', () => {
    const text = notebookToIpynb(doc(), [{ name: 'penguins', fileName: 'penguins.json', format: 'json', rowCount: 344, columnCount: 7 }], new Date('2026-01-01T00:00:00Z'));
    const nb = JSON.parse(text) as { cells: { cell_type: string; source: string[]; outputs?: { output_type: string }[] }[] };
    expect(validate(nb), JSON.stringify(validate.errors)).toBe(true);
    expect(nb.cells.map((c) => c.cell_type)).toEqual(['code', 'markdown', 'code', 'code', 'code', 'code']);
    expect(nb.cells[0]?.source.join('')).toContain("read_json_auto('penguins.json')");
    expect(nb.cells[2]?.source.join('')).toContain('duckdb.sql(r"""');
    expect(nb.cells[2]?.outputs?.[0]?.output_type).toBe('execute_result');
    expect(nb.cells[3]?.source.join('')).toMatch(/# Shown by Dataseer:\nresult$/);
    expect(nb.cells[4]?.outputs?.map((o) => o.output_type)).toEqual(['error']);
  });

  it('imports its own export back to the same cells', () => {
    const original = doc();
    const back = ipynbToCells(notebookToIpynb(original, []));
    expect(back.ok && back.cells.map((c) => [c.kind, c.source])).toEqual(original.cells.map((c) => [c.kind, c.source]));
  });

  it('reads SQL-in-Python cells as SQL and other code as Python', () => {
    expect(sqlOfCode('duckdb.sql("SELECT 1").df()')).toBe('SELECT 1');
    expect(sqlOfCode("# count\nsql('''\nSELECT count(*) FROM t\n''')")).toBe('SELECT count(*) FROM t');
    expect(sqlOfCode('df = duckdb.sql("SELECT 1").df()')).toBeNull();
    expect(sqlOfCode('print(1)')).toBeNull();
    const nb = { cells: [{ cell_type: 'code', source: ['import math\n', 'result = math.pi'] }, { cell_type: 'raw', source: 'x' }, { cell_type: 'markdown', source: 'Hi' }] };
    const out = ipynbToCells(JSON.stringify(nb));
    expect(out.ok && out.cells.map((c) => [c.kind, c.source])).toEqual([['python', 'import math\nresult = math.pi'], ['markdown', 'Hi']]);
  });

  it('refuses what is not a notebook, clearly', () => {
    expect(ipynbToCells('not json')).toEqual({ ok: false, message: expect.stringContaining('not JSON') });
    expect(ipynbToCells('{"a": 1}')).toEqual({ ok: false, message: expect.stringContaining('no cells') });
    expect(ipynbToCells('{"cells": []}')).toEqual({ ok: false, message: expect.stringContaining('no cells Dataseer can use') });
  });
});
