import Ajv from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import schema from './nbformat.v4.5.schema.json';
import { buildNotebook, errorOutput, notebookJson, PLOTLY_MIME, toLines, type Notebook, type NotebookCell } from './notebook';
import { FIGURE, HOSTILE, SQL, threads, type ThreadName } from './testing/threads';
import { buildExportThread } from './thread';

// nbformat's schema has annotations ajv's strict mode calls unknown keywords.
const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);

function notebookOf(name: ThreadName): Notebook {
  const text = notebookJson(buildExportThread(threads()[name]));
  return JSON.parse(text) as Notebook;
}

const src = (c: NotebookCell) => c.source.join('');

describe('notebook export', () => {
  it.each(Object.keys(threads()) as (ThreadName)[])('%s validates against the nbformat 4.5 schema', (name) => {
    const nb = notebookOf(name);
    const ok = validate(nb);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
    expect(nb.nbformat).toBe(4);
    expect(nb.nbformat_minor).toBe(5);
    const ids = nb.cells.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('the schema check itself rejects a cell without an id', () => {
    const nb = notebookOf('sqlOnly');
    const broken = { ...nb, cells: nb.cells.map(({ id: _id, ...rest }) => rest) };
    expect(validate(broken)).toBe(false);
  });

  it('puts the title, datasets and model (no key, no URL) in the first cell, then a setup cell', () => {
    const nb = notebookOf('sqlOnly');
    const [title, setup] = nb.cells;
    expect(title?.cell_type).toBe('markdown');
    expect(src(title as NotebookCell)).toContain('# Penguin masses');
    expect(src(title as NotebookCell)).toMatch(/\| penguins \| penguins\.json \| 344 \| 2 \|/);
    expect(src(title as NotebookCell)).toContain('gpt-test-mini');
    expect(src(title as NotebookCell)).toContain('2026-11-22 18:30');
    expect(setup?.cell_type).toBe('code');
    expect(src(setup as NotebookCell)).toContain(`CREATE OR REPLACE TABLE \\"penguins\\" AS SELECT * FROM read_json_auto('penguins.json')`);
    expect(JSON.stringify(nb)).not.toContain('llm.example.com');
  });

  it('writes a SQL step as duckdb code with its table as text/plain and text/html', () => {
    const nb = notebookOf('sqlOnly');
    const cell = nb.cells.find((c) => c.cell_type === 'code' && src(c).includes(SQL));
    expect(cell).toBeDefined();
    if (cell?.cell_type !== 'code') throw new Error('no SQL cell');
    expect(src(cell)).toBe(`duckdb.sql(r"""\n${SQL}\n""").df()`);
    const out = cell.outputs[0];
    expect(out?.output_type).toBe('execute_result');
    if (out?.output_type !== 'execute_result') throw new Error('no result');
    expect((out.data['text/plain'] as string[]).join('')).toMatch(/Species\s+mean_mass\n0\s+Adelie\s+3700\.66/);
    expect((out.data['text/html'] as string[]).join('')).toContain('<td>Gentoo</td><td>5076.02</td>');
  });

  it('keeps the question and answer (with confidence and caveats) as markdown', () => {
    const nb = notebookOf('sqlOnly');
    const md = nb.cells.filter((c) => c.cell_type === 'markdown').map(src);
    expect(md).toContainEqual(expect.stringContaining('> Mean mass by species?'));
    const answer = md.at(-1) ?? '';
    expect(answer).toContain('Gentoo are heaviest at **5076.02 g**.');
    expect(answer).toContain('Confidence: 90%');
    expect(answer).toContain('- Some masses are missing.');
  });

  it('gives Python steps stdout streams, results and error outputs, with the helpers defined in setup', () => {
    const nb = notebookOf('python');
    const code = nb.cells.filter((c): c is Extract<NotebookCell, { cell_type: 'code' }> => c.cell_type === 'code');
    expect(src(code[0] as NotebookCell)).toContain('def sql(query):');
    expect(src(code[0] as NotebookCell)).toContain('df = datasets["penguins"]');
    const [count, failed, table] = code.slice(1);
    expect(src(count as NotebookCell)).toMatch(/result = n\n\n# Shown by Dataseer:\nresult$/);
    expect(count?.outputs).toEqual([
      { output_type: 'stream', name: 'stdout', text: ['rows: 344\n'] },
      { output_type: 'execute_result', data: { 'text/plain': ['344'] }, metadata: {}, execution_count: null },
    ]);
    expect(failed?.outputs[0]).toMatchObject({ output_type: 'error', ename: 'ZeroDivisionError', evalue: 'division by zero' });
    expect(src(failed as NotebookCell)).toBe('result = 1/0');
    expect(table?.outputs[0]?.output_type).toBe('execute_result');
  });

  it('writes a chart step as plotly.express code with the figure as a Plotly output', () => {
    const nb = notebookOf('charts');
    const cell = nb.cells.find((c) => c.cell_type === 'code' && src(c).includes('px.bar'));
    if (cell?.cell_type !== 'code') throw new Error('no chart cell');
    expect(src(cell)).toContain('fig = px.bar(chart_data, x="Species", y="mean_mass", title="mean_mass by Species")');
    const out = cell.outputs[0];
    if (out?.output_type !== 'execute_result') throw new Error('no figure output');
    expect(out.data[PLOTLY_MIME]).toEqual(FIGURE);
    expect(out.data['text/plain']).toEqual(['<Figure: mean_mass by Species: bar chart>']);
    expect(nb.cells.some((c) => c.cell_type === 'markdown' && src(c).includes('*Validating:* checking'))).toBe(true);
  });

  it('says when there was no answer, or the run was stopped', () => {
    const nb = notebookOf('emptyAnswer');
    const md = nb.cells.filter((c) => c.cell_type === 'markdown').map(src);
    expect(md.some((m) => m.includes('*No answer was given.*'))).toBe(true);
    expect(md.some((m) => m.includes('**The run was stopped:** Stopped by you.'))).toBe(true);
    // No code ran, so no setup cell.
    expect(nb.cells.every((c) => c.cell_type === 'markdown')).toBe(true);
  });

  it('carries hostile text as data: valid JSON, schema-valid, SQL kept exactly in a Python literal', () => {
    const thread = buildExportThread(threads().hostile);
    const nb = buildNotebook(thread);
    expect(validate(JSON.parse(notebookJson(thread)))).toBe(true);
    const sqlCell = nb.cells.find((c) => c.cell_type === 'code' && src(c).startsWith('duckdb.sql(') && src(c).includes('alert(1)'));
    // The SQL holds both """ and ''', so it is written as a JSON-escaped literal (valid Python).
    const literal = /^duckdb\.sql\((.*)\)\.df\(\)$/s.exec(src(sqlCell as NotebookCell))?.[1] ?? '';
    expect(JSON.parse(literal)).toContain(HOSTILE.replace(/'/g, "''"));
    const html = nb.cells.flatMap((c) => (c.cell_type === 'code' ? c.outputs : [])).map((o) => (o.output_type === 'execute_result' ? (o.data['text/html'] as string[]).join('') : ''));
    expect(html.join('')).not.toContain('<script>');
    expect(html.join('')).toContain('&lt;script&gt;');
  });
});

describe('notebook pieces', () => {
  it('splits text into nbformat lines', () => {
    expect(toLines('')).toEqual([]);
    expect(toLines('a\nb\n')).toEqual(['a\n', 'b\n']);
    expect(toLines('a\n\nb')).toEqual(['a\n', '\n', 'b']);
  });
  it('reads the error name and message from a tool error', () => {
    expect(errorOutput('Error: Catalog Error: Table x does not exist')).toMatchObject({ ename: 'Error', evalue: 'Catalog Error: Table x does not exist' });
    expect(errorOutput('Error: KeyError: \'x\'\nline 2')).toEqual({ output_type: 'error', ename: 'KeyError', evalue: "'x'", traceback: ["KeyError: 'x'", 'line 2'] });
  });
});
