/**
 * The notebook to and from Jupyter's `.ipynb` (nbformat 4.5), by the conversation export's rules
 * (src/export/notebook.ts): a setup cell that loads the datasets into DuckDB from their files,
 * SQL cells as `duckdb.sql("""…""").df()`, Python cells with Dataseer's helpers predefined, and
 * the outputs Dataseer showed. Importing reads those shapes back: a code cell that is only
 * `duckdb.sql(…)` / `sql(…)` of a string literal becomes a SQL cell, any other code a Python
 * cell, markdown stays markdown; the setup cell is left out (Dataseer loads data itself).
 */
import { errorOutput, PLOTLY_MIME, toLines, type Notebook, type NotebookCell, type NotebookOutput } from '../export/notebook';
import { pythonCellCode, setupCode, sqlCellCode } from '../export/notebookCode';
import { htmlTable, textTable } from '../export/tables';
import { sanitiseFigure } from '../../shared/figureSafety';
import { safeMarkdown } from '../export/markdownText';
import type { ExportDataset } from '../export/thread';
import { newCell, type Cell, type CellOutput, type NotebookDoc } from './model';
import { readIpynbCells, type RawCellsOutcome } from '../../shared/notebook/ipynbCells';

/** Marks the setup cell in the export, so an import can leave it out. */
const SETUP_ROLE = 'setup';

function outputsOf(output: CellOutput | null, count: number | null): NotebookOutput[] {
  if (!output) return [];
  const result = (data: Record<string, unknown>): NotebookOutput => ({ output_type: 'execute_result', data, metadata: {}, execution_count: count });
  switch (output.kind) {
    case 'error':
      return [errorOutput(output.message)];
    case 'table': {
      const t = { columns: output.columns, rows: output.rows, rowCount: output.rowCount, truncated: output.truncated };
      return [result({ 'text/plain': toLines(textTable(t)), 'text/html': toLines(htmlTable(t)) })];
    }
    case 'python': {
      const out: NotebookOutput[] = [];
      if (output.stdout) out.push({ output_type: 'stream', name: 'stdout', text: toLines(output.stdout) });
      if (output.stderr) out.push({ output_type: 'stream', name: 'stderr', text: toLines(output.stderr) });
      if (output.error) {
        out.push({ output_type: 'error', ename: output.error.type, evalue: output.error.message, traceback: output.error.traceback.split('\n') });
        return out;
      }
      const r = output.result;
      if (r) {
        const text =
          r.kind === 'table' ? textTable({ columns: r.columns, rows: r.rows, rowCount: r.rowCount, truncated: r.truncated })
          : r.kind === 'scalar' ? r.repr
          : r.kind === 'json' ? JSON.stringify(r.value, null, 1)
          : r.text;
        out.push(output.figure ? { output_type: 'display_data', data: { 'text/plain': toLines(text) }, metadata: {} } : result({ 'text/plain': toLines(text) }));
      }
      if (output.figure) out.push(result({ [PLOTLY_MIME]: sanitiseFigure(output.figure), 'text/plain': ['<Figure>'] }));
      return out;
    }
  }
}

/** The notebook as nbformat 4.5 JSON text. */
export function notebookToIpynb(doc: NotebookDoc, datasets: ExportDataset[], exportedAt = new Date()): string {
  const cells: NotebookCell[] = [];
  const id = () => `cell-${cells.length + 1}`;
  const hasCode = doc.cells.some((c) => c.kind !== 'markdown');
  if (hasCode) {
    const withPython = doc.cells.some((c) => c.kind === 'python');
    cells.push({ id: id(), cell_type: 'code', metadata: { dataseer: { role: SETUP_ROLE } }, source: toLines(setupCode(datasets, withPython)), outputs: [], execution_count: null });
  }
  for (const c of doc.cells) {
    if (c.kind === 'markdown') {
      // An imported or pasted cell may name a remote image: the exported file must not fetch it.
      cells.push({ id: id(), cell_type: 'markdown', metadata: {}, source: toLines(safeMarkdown(c.source)) });
      continue;
    }
    const shows = c.output?.kind === 'python' && !c.output.error ? { result: c.output.result !== undefined, figure: c.output.figure !== undefined } : { result: false, figure: false };
    const source = c.kind === 'sql' ? sqlCellCode(c.source) : pythonCellCode(c.source, shows);
    cells.push({ id: id(), cell_type: 'code', metadata: { dataseer: { kind: c.kind } }, source: toLines(source), outputs: outputsOf(c.output, c.runCount), execution_count: c.runCount });
  }
  const nb: Notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
      language_info: { name: 'python' },
      dataseer: { title: doc.title, exported_at: exportedAt.toISOString() },
    },
    cells,
  };
  return `${JSON.stringify(nb, null, 1)}\n`;
}

/** A Python string literal's text: r"""…""", """…""", '…' or "…" (JSON escapes); null otherwise. */
function literalText(src: string): string | null {
  const s = src.trim();
  const triple = /^(r?)("""|''')([\s\S]*)\2$/.exec(s);
  if (triple) {
    const body = triple[3] ?? '';
    return triple[1] ? body : body.replace(/\\(["'\\])/g, '$1');
  }
  const single = /^(r?)(["'])((?:\\.|(?!\2).)*)\2$/.exec(s);
  if (!single) return null;
  const body = single[3] ?? '';
  if (single[1]) return body;
  try {
    return JSON.parse(`"${body.replace(/\\'/g, "'").replace(/"/g, '\\"').replace(/\\\\"/g, '\\"')}"`) as string;
  } catch {
    return body;
  }
}

/** The SQL of a cell that is only `duckdb.sql(<literal>)` or `sql(<literal>)` (with `.df()`). */
export function sqlOfCode(code: string): string | null {
  const body = code
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .trim();
  const call = body.replace(/\.(?:df|fetchdf|pl|arrow)\(\)$/, '');
  const m = /^(?:duckdb\.)?sql\(([\s\S]*)\)$/.exec(call);
  if (!m?.[1]) return null;
  const text = literalText(m[1]);
  return text === null ? null : text.trim();
}

/** Drops the lines the export adds to show `result`/`fig` (Jupyter shows the last expression). */
function withoutShownTail(code: string): string {
  return code.replace(/\n*# Shown by Dataseer:\n(?:display\(result\)\n)?(?:result|fig)\s*$/, '').replace(/\s+$/, '');
}

export type ImportOutcome = { ok: true; cells: Cell[] } | { ok: false; message: string };

/** Reads an .ipynb's text into cells (outputs are not imported: run the cells to get them). */
export function ipynbToCells(text: string): ImportOutcome {
  return cellsOfRaw(readIpynbCells(text));
}

/** The page's cells from the cells the parse worker read (shared/notebook/ipynbCells.ts). */
export function cellsOfRaw(read: RawCellsOutcome): ImportOutcome {
  if (!read.ok) return read;
  const out: Cell[] = [];
  for (const c of read.cells) {
    if (c.kind === 'markdown') {
      out.push(newCell('markdown', c.source));
    } else {
      if (c.role === SETUP_ROLE || !c.source.trim()) continue;
      const sql = sqlOfCode(c.source);
      out.push(sql !== null ? newCell('sql', sql) : newCell('python', withoutShownTail(c.source)));
    }
  }
  if (out.length === 0) return { ok: false, message: 'The notebook has no cells Dataseer can use (markdown, SQL or Python).' };
  return { ok: true, cells: out };
}
