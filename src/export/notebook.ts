/**
 * A thread as a Jupyter notebook (nbformat 4.5): a title cell, then per turn the question, one
 * code cell per SQL / Python / chart step carrying the outputs Dataseer got (tables as
 * text/plain + text/html, stdout as a stream, errors as error outputs, charts as Plotly JSON),
 * and the answer. Code is written to re-run in a plain Jupyter kernel (see notebookCode.ts).
 */
import { knowledgeMarkdown } from './knowledgeSection';
import { sanitiseFigure } from '../../shared/figureSafety';
import type { PlotlyFigure } from '../../protocol/figure';
import { chartCellCode, pythonCellCode, setupCode, sqlCellCode } from './notebookCode';
import { safeMarkdown } from './markdownText';
import { answerMarkdown, figureLabel, outlineTurn, questionQuote, type OutlineItem, type OutlineTurn, type TableData } from './outline';
import { cellText, escapeMarkdownCell, htmlTable, textTable } from './tables';
import type { ExportThread } from './thread';
import { plural } from '../../shared/text';

type MultilineString = string[];
type MimeBundle = Record<string, unknown>;

export type NotebookOutput =
  | { output_type: 'execute_result'; data: MimeBundle; metadata: Record<string, unknown>; execution_count: number | null }
  | { output_type: 'display_data'; data: MimeBundle; metadata: Record<string, unknown> }
  | { output_type: 'stream'; name: 'stdout' | 'stderr'; text: MultilineString }
  | { output_type: 'error'; ename: string; evalue: string; traceback: string[] };

export type NotebookCell =
  | { id: string; cell_type: 'markdown'; metadata: Record<string, unknown>; source: MultilineString }
  | { id: string; cell_type: 'code'; metadata: Record<string, unknown>; source: MultilineString; outputs: NotebookOutput[]; execution_count: number | null };

export interface Notebook {
  nbformat: 4;
  nbformat_minor: 5;
  metadata: Record<string, unknown>;
  cells: NotebookCell[];
}

export const PLOTLY_MIME = 'application/vnd.plotly.v1+json';

/** nbformat's multiline string: lines keeping their "\n", the last without. */
export function toLines(text: string): string[] {
  if (text === '') return [];
  return text.split(/(?<=\n)/);
}

/** "Error: KeyError: 'x'\n…" → ename KeyError, evalue 'x', the whole text as the traceback. */
export function errorOutput(message: string): NotebookOutput {
  const text = message.replace(/^Error:\s*/, '');
  const first = text.split('\n', 1)[0] ?? '';
  const m = /^([A-Za-z_][\w.]*): ?(.*)$/.exec(first);
  return {
    output_type: 'error',
    ename: m?.[1] ?? 'Error',
    evalue: m ? (m[2] ?? '') : first,
    traceback: text.split('\n'),
  };
}

function tableBundle(t: TableData): MimeBundle {
  return { 'text/plain': toLines(textTable(t)), 'text/html': toLines(htmlTable(t)) };
}

function figureBundle(fig: PlotlyFigure): MimeBundle {
  // Jupyter, VS Code and GitHub draw this with Plotly too: what it would fetch is taken out.
  return { [PLOTLY_MIME]: sanitiseFigure(fig), 'text/plain': [`<Figure: ${figureLabel(fig)}>`] };
}

/** What Python's repr would print for a JSON-like `result`. */
function reprOf(value: unknown): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (value === null || value === undefined) return 'None';
  return cellText(value);
}

const result = (data: MimeBundle): NotebookOutput => ({ output_type: 'execute_result', data, metadata: {}, execution_count: null });
const display = (data: MimeBundle): NotebookOutput => ({ output_type: 'display_data', data, metadata: {} });

function codeOutputs(item: Exclude<OutlineItem, { kind: 'note' }>): NotebookOutput[] {
  switch (item.kind) {
    case 'sql':
      if (item.error !== null) return [errorOutput(item.error)];
      return item.table ? [result(tableBundle(item.table))] : [];
    case 'chart':
      if (item.error !== null) return [errorOutput(item.error)];
      return item.figure ? [result(figureBundle(item.figure))] : [];
    case 'python': {
      const out: NotebookOutput[] = [];
      if (item.stdout) out.push({ output_type: 'stream', name: 'stdout', text: toLines(item.stdout) });
      if (item.error !== null) return [...out, errorOutput(item.error)];
      const hasResult = item.result !== null && item.result !== undefined;
      if (hasResult) {
        const data = item.table ? tableBundle(item.table) : { 'text/plain': toLines(reprOf(item.result)) };
        out.push(item.figure ? display(data) : result(data));
      }
      if (item.figure) out.push(result(figureBundle(item.figure)));
      return out;
    }
  }
}

function codeSource(item: Exclude<OutlineItem, { kind: 'note' }>): string {
  switch (item.kind) {
    case 'sql':
      return sqlCellCode(item.sql);
    case 'chart':
      return chartCellCode(item.sql, item.chart);
    case 'python': {
      const ok = item.error === null;
      return pythonCellCode(item.code, { result: ok && item.result !== null && item.result !== undefined, figure: ok && item.figure !== null });
    }
  }
}

function titleMarkdown(thread: ExportThread): string {
  const date = thread.exportedAt.toISOString().slice(0, 16).replace('T', ' ');
  const lines = [`# ${escapeMarkdownCell(thread.title)}`, '', `Exported from Dataseer on ${date} UTC · model: ${escapeMarkdownCell(thread.model)}.`];
  if (thread.datasets.length > 0) {
    lines.push('', '| dataset | file | rows | columns |', '| --- | --- | --- | --- |');
    for (const d of thread.datasets) {
      const file = d.sheet !== undefined ? `${d.fileName} (sheet ${d.sheet})` : d.fileName;
      lines.push(`| ${escapeMarkdownCell(d.name)} | ${escapeMarkdownCell(file)} | ${d.rowCount} | ${d.columnCount} |`);
    }
    lines.push('', 'To run the code again, put these files next to this notebook and run the setup cell first (`pip install duckdb pandas plotly`).');
  } else {
    lines.push('', 'No dataset was used.');
  }
  return lines.join('\n');
}

function questionMarkdown(t: OutlineTurn, n: number): string {
  const quoted = questionQuote(t);
  const images = t.imageCount > 0 ? `\n\n*(${plural(t.imageCount, 'image')} attached)*` : '';
  return `## Question ${n}\n\n${quoted}${images}`;
}

export function buildNotebook(thread: ExportThread): Notebook {
  const cells: NotebookCell[] = [];
  const id = () => `cell-${cells.length + 1}`;
  // Each cell is written again from its tokens as a whole, so pieces joined here cannot form an image either.
  const markdown = (text: string) => cells.push({ id: id(), cell_type: 'markdown', metadata: {}, source: toLines(safeMarkdown(text)) });
  const code = (source: string, outputs: NotebookOutput[]) =>
    cells.push({ id: id(), cell_type: 'code', metadata: {}, source: toLines(source), outputs, execution_count: null });

  const turns = thread.turns.map(outlineTurn);
  const hasCode = turns.some((t) => t.items.some((i) => i.kind !== 'note'));
  const hasPython = turns.some((t) => t.items.some((i) => i.kind === 'python'));
  markdown(titleMarkdown(thread));
  const knowledge = knowledgeMarkdown(thread.knowledge);
  if (knowledge) markdown(knowledge);
  if (hasCode) code(setupCode(thread.datasets, hasPython), []);

  turns.forEach((t, i) => {
    markdown(questionMarkdown(t, i + 1));
    let notes: string[] = [];
    const flush = () => {
      if (notes.length > 0) markdown(notes.join('\n\n'));
      notes = [];
    };
    for (const item of t.items) {
      if (item.kind === 'note') {
        notes.push(item.markdown);
        continue;
      }
      flush();
      code(codeSource(item), codeOutputs(item));
    }
    flush();
    for (const fig of t.extraFigures) code(`# A figure from Dataseer's answer: ${figureLabel(fig)}`, [result(figureBundle(fig))]);
    markdown(answerMarkdown(t));
  });

  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
      language_info: { name: 'python' },
      dataseer: {
        title: thread.title,
        exported_at: thread.exportedAt.toISOString(),
        model: thread.model,
        // Machine-readable too: importDictionary reads each entry back.
        ...(thread.knowledge ? { knowledge: thread.knowledge } : {}),
      },
    },
    cells,
  };
}

/** The .ipynb file's text (one-space indent, as Jupyter writes it). */
export function notebookJson(thread: ExportThread): string {
  return `${JSON.stringify(buildNotebook(thread), null, 1)}\n`;
}
