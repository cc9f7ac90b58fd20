/**
 * A turn as the exports lay it out: the question, one item per step (SQL, Python, chart, or a
 * short note for the other tools and status changes), the answer and any figures the steps
 * did not claim. The notebook, HTML and Markdown builders all read this one shape.
 */
import type { CreateChartArgs } from '../../protocol/agent/tools';
import type { FinalOutput } from '../../protocol/agent/final';
import type { PlotlyFigure } from '../../protocol/figure';
import { editedChart, editKey } from '../conversation/chartEdit';
import { statusLabel } from '../conversation/format';
import type { ChatTurn, Step, TurnError, TurnState } from '../conversation/turns';
import { safeMarkdown } from './markdownText';
import { plotlyPlainText } from '../../shared/plotlyText';

export interface TableData {
  columns: string[];
  rows: unknown[][];
  /** Rows the query produced (may exceed `rows.length` when the tool cut them). */
  rowCount: number;
  truncated: boolean;
}

export type ChartSpec = CreateChartArgs['chart'];

export type OutlineItem =
  | { kind: 'sql'; sql: string; table: TableData | null; error: string | null }
  | { kind: 'python'; code: string; stdout: string; result: unknown; table: TableData | null; figure: PlotlyFigure | null; error: string | null }
  | { kind: 'chart'; sql: string; chart: ChartSpec | null; figure: PlotlyFigure | null; error: string | null }
  /** Other tools and status changes, as one line (or a few) of Markdown. */
  | { kind: 'note'; markdown: string };

export interface OutlineTurn {
  question: string;
  imageCount: number;
  items: OutlineItem[];
  final: FinalOutput | null;
  /** The streamed text when the run ended without a final output. */
  text: string;
  error: TurnError | null;
  state: TurnState;
  /** Figures of the final output no step accounts for. */
  extraFigures: PlotlyFigure[];
}

function record(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** A `run_sql` output (`columns: [{name,type}]`) or a Python table (`columns: string[]`). */
export function tableOf(output: unknown): TableData | null {
  const o = record(output);
  if (!o || !Array.isArray(o.columns) || !Array.isArray(o.rows)) return null;
  const columns = o.columns.map((c: unknown) => {
    const r = record(c);
    return r && typeof r.name === 'string' ? r.name : String(c);
  });
  const rows = o.rows.filter((r): r is unknown[] => Array.isArray(r));
  const rowCount = typeof o.row_count === 'number' ? o.row_count : rows.length;
  return { columns, rows, rowCount, truncated: o.truncated === true || rowCount > rows.length };
}

export function figureOf(v: unknown): PlotlyFigure | null {
  const o = record(v);
  if (!o || !Array.isArray(o.data)) return null;
  const fig: PlotlyFigure = { data: o.data };
  const layout = record(o.layout);
  if (layout) fig.layout = layout;
  const config = record(o.config);
  if (config) fig.config = config;
  return fig;
}

function chartSpec(v: unknown): ChartSpec | null {
  const o = record(v);
  if (!o || typeof o.type !== 'string' || typeof o.x !== 'string') return null;
  return o as ChartSpec;
}

const pct = (x: unknown) => (typeof x === 'number' ? `${Math.round(x * 100)}%` : '?');
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))) : []);

/** One Markdown line for a tool that is not code to re-run. */
function toolNote(tool: string, args: unknown, output: unknown, error: string | null): string {
  if (error !== null) return `*${tool} failed:* ${error.replace(/^Error:\s*/, '')}`;
  const a = record(args) ?? {};
  const o = record(output);
  switch (tool) {
    case 'profile_data': {
      if (!o) break;
      const found = list(o.columns_found);
      const missing = list(o.columns_missing);
      const issues = list(o.issues);
      return [
        `*Profiled* \`${str(o.dataset) || str(a.dataset)}\`: ${String(o.row_count)} rows, ${found.length} columns.`,
        missing.length ? `Missing columns: ${missing.join(', ')}.` : '',
        issues.length ? `Issues: ${issues.join('; ')}.` : '',
      ]
        .filter(Boolean)
        .join(' ');
    }
    case 'validate_results': {
      if (!o) break;
      const issues = list(o.issues);
      const suggestions = list(o.suggestions);
      return [
        `*Validation:* ${o.is_valid === true ? 'valid' : 'not valid'} (confidence ${pct(o.confidence)}).`,
        issues.length ? `Issues: ${issues.join('; ')}.` : '',
        suggestions.length ? `Suggestions: ${suggestions.join('; ')}.` : '',
      ]
        .filter(Boolean)
        .join(' ');
    }
    case 'search_examples': {
      const found = Array.isArray(output) ? output.map((e) => str(record(e)?.question)).filter(Boolean) : [];
      return `*Looked up examples* for “${str(a.query)}”${found.length ? `: ${found.join('; ')}` : ': none found'}.`;
    }
  }
  return `*${tool}* ran.`;
}

function stepItem(step: Step): OutlineItem | null {
  // The model's thinking stays in the app's trace: a report carries what was done, not musings.
  if (step.kind === 'thinking') return null;
  if (step.kind === 'note') return step.text.trim() ? { kind: 'note', markdown: safeMarkdown(step.text.trim()) } : null;
  if (step.kind === 'status') return { kind: 'note', markdown: `*${statusLabel(step.status)}:* ${safeMarkdown(step.detail)}` };
  const args = record(step.args) ?? {};
  const error = step.state === 'failed' ? (step.error ?? 'Error: the step failed') : null;
  const output = step.state === 'done' ? step.output : undefined;
  switch (step.tool) {
    case 'run_sql':
      return { kind: 'sql', sql: str(args.sql), table: tableOf(output), error };
    case 'run_python': {
      const o = record(output);
      const pyError = record(o?.error);
      return {
        kind: 'python',
        code: str(args.code),
        stdout: str(o?.stdout),
        result: o?.result ?? null,
        table: tableOf(o?.result),
        figure: figureOf(o?.figure),
        error: error ?? (pyError ? `${str(pyError.type)}: ${str(pyError.message)}\n${str(pyError.traceback)}` : null),
      };
    }
    case 'create_chart':
      return { kind: 'chart', sql: str(args.sql), chart: chartSpec(args.chart), figure: null, error };
    default:
      return { kind: 'note', markdown: safeMarkdown(toolNote(step.tool, step.args, output, error)) };
  }
}

/**
 * Figures reach the final output in the order the steps made them, so each successful chart
 * step takes the next figure that is not a Python step's own.
 */
function assignFigures(items: OutlineItem[], figures: PlotlyFigure[]): PlotlyFigure[] {
  const left = [...figures];
  for (const item of items) {
    if (item.kind !== 'python' || !item.figure) continue;
    const key = JSON.stringify(item.figure);
    const i = left.findIndex((f) => JSON.stringify(f) === key);
    if (i >= 0) left.splice(i, 1);
  }
  for (const item of items) {
    if (item.kind === 'chart' && item.error === null) item.figure = left.shift() ?? null;
  }
  return left;
}

export function outlineTurn(turn: ChatTurn): OutlineTurn {
  // The guard sets the draft aside as a note before checking it; when it became the answer
  // unchanged, the answer alone says it.
  const answer = (turn.final?.answer ?? turn.text).trim();
  const steps = turn.steps.filter((s) => !(s.kind === 'note' && answer !== '' && s.text.trim() === answer));
  const pairs = steps.map((step) => ({ step, item: stepItem(step) }));
  const items = pairs.map((p) => p.item).filter((i): i is OutlineItem => i !== null);
  const extraFigures = assignFigures(items, (turn.final?.figures ?? []).map(figureOf).filter((f): f is PlotlyFigure => f !== null));
  // A chart the user changed in the page is exported as they left it (its spec and its figure).
  for (const { step, item } of pairs) {
    if (step.kind !== 'tool' || item?.kind !== 'chart' || !item.chart || !item.figure) continue;
    const edited = editedChart(editKey(turn.id, step.call_id), item.chart, item.figure);
    item.chart = edited.spec;
    item.figure = edited.figure;
  }
  return {
    question: turn.question,
    imageCount: turn.images?.length ?? 0,
    items,
    final: turn.final,
    text: turn.text,
    error: turn.error,
    state: turn.state,
    extraFigures,
  };
}

/** The answer as Markdown: text, confidence, unchecked numbers, caveats, how the run ended. */
export function answerMarkdown(t: OutlineTurn): string {
  return safeMarkdown(answerSource(t));
}

/** The question as a Markdown blockquote. */
export function questionQuote(t: OutlineTurn): string {
  return safeMarkdown(t.question)
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
}

function answerSource(t: OutlineTurn): string {
  const parts: string[] = [];
  const f = t.final;
  const text = (f?.answer ?? t.text).trim();
  parts.push('**Answer**');
  parts.push(text || '*No answer was given.*');
  if (!f && text && t.state !== 'done') parts.push('*(The run ended before the answer was complete.)*');
  if (f) {
    if (f.output_type === 'error') parts.push('*Could not answer.*');
    else parts.push(`*Confidence: ${Math.round(f.confidence * 100)}%*${f.partial ? ' · *Partial answer*' : ''}`);
    if (f.ungrounded_numbers.length > 0) parts.push(`**Not found in any tool output** (check before relying on them): ${f.ungrounded_numbers.join(', ')}`);
    if (f.caveats.length > 0) parts.push(`**Caveats**\n\n${f.caveats.map((c) => `- ${c.replace(/\n+/g, ' ')}`).join('\n')}`);
  }
  if (t.error) parts.push(`> **The run ${t.state === 'stopped' ? 'was stopped' : 'failed'}:** ${t.error.message.replace(/\n+/g, ' ')}`);
  else if (t.state === 'interrupted') parts.push('> This run stopped before it finished.');
  return parts.join('\n\n');
}

/** A short plain-text description of a figure (title and trace types). */
export function figureLabel(fig: PlotlyFigure): string {
  const layout = fig.layout ?? {};
  const t = layout.title;
  // A caption reads the title's words, not the pseudo-HTML Plotly draws it from.
  const title = plotlyPlainText(typeof t === 'string' ? t : str(record(t)?.text));
  const kinds = [...new Set(fig.data.map((d) => str(record(d)?.type) || 'scatter'))];
  return `${title ? `${title}: ` : ''}${kinds.join(', ')} chart`;
}

/** Every figure the turns show, in order (for drawing them before a report is built). */
export function outlineFigures(turns: OutlineTurn[]): PlotlyFigure[] {
  const out: PlotlyFigure[] = [];
  for (const t of turns) {
    for (const i of t.items) if ((i.kind === 'chart' || i.kind === 'python') && i.figure) out.push(i.figure);
    out.push(...t.extraFigures);
  }
  return out;
}
