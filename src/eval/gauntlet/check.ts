/**
 * The gauntlet's checker: whether one run answered its question, why, and if not, which
 * failure pattern it shows. Pure: it reads what a run left (its final output, error and the
 * statuses and tool outcomes it streamed), never the model.
 */
import type { ErrorKind, StatusKind } from '../../../protocol/agent/wire';
import type { FinalOutput } from '../../../protocol/agent/final';
import type { ExpectedAnswer } from './expected';
import { DEFAULT_TOLERANCE, type GauntletQuestion, type Tolerance } from './questions';
import { judgeChart } from './chartCheck';
import { within } from './tolerance';

/** What the checker reads of a question: its tolerance and whether it needs a caveat. */
export type CheckedQuestion = Pick<GauntletQuestion, 'tolerance' | 'needsCaveat'>;

export const FAILURE_CLASSES = [
  'wrong_figure',
  'no_figure',
  'tool_error_loop',
  'budget_exhausted',
  'validation_disagreed',
  'refused',
  'provider_error',
  'missing_caveat',
] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

/** What a finished run left behind, as the checker needs it. */
export interface RunRecord {
  final: FinalOutput | null;
  error: { message: string; kind?: ErrorKind } | null;
  statuses: StatusKind[];
  toolErrors: number;
  /** `is_valid` of the last validation report, null when none ran. */
  validation: boolean | null;
  /** The chart calls' arguments and the figures' JSON, for chart questions. */
  chartText: string;
}

export interface Verdict {
  correct: boolean;
  reason: string;
  failure: FailureClass | null;
}

// ---------------------------------------------------------------------------------- numbers

/**
 * Numbers as people write them: `4,201.75`, `−0.54`, `1.2e3`, `75.9%` (also read as 0.759). A
 * hyphen after a word or digit is a range or a date (`2012-2015`), not a sign.
 */
export function numbersIn(text: string): number[] {
  const out: number[] = [];
  const re = /(?<![\w.])([-−–]?)(\d{1,3}(?:[,\u00a0\u202f]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:e[-+]?\d+)?|\.\d+)(\s?%)?/gi;
  for (const m of text.matchAll(re)) {
    const sign = m[1] ? -1 : 1;
    const n = sign * Number((m[2] ?? '').replace(/[,\u00a0\u202f]/g, ''));
    if (!Number.isFinite(n)) continue;
    out.push(n);
    if (m[3]) out.push(n / 100);
  }
  return out;
}

/** The tolerance a question allows: counts must be exact unless it says otherwise. */
export function toleranceFor(q: CheckedQuestion, values: readonly number[]): Tolerance {
  if (q.tolerance) return q.tolerance;
  return values.every((v) => Number.isInteger(v)) ? { abs: 0 } : DEFAULT_TOLERANCE;
}

export { within };

// ------------------------------------------------------------------------------------ words

const norm = (s: string): string =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** `needle` appears in `hay` as whole words, ignoring case, accents and punctuation. */
export function mentions(hay: string, needle: string): boolean {
  const n = norm(needle);
  if (!n) return false;
  return ` ${norm(hay)} `.includes(` ${n} `);
}

/**
 * The decision a text states: an explicit yes/no first, else the wording. Questions of this
 * kind ask for "yes or no", so the explicit word is the normal case.
 */
export function decisionIn(text: string): boolean | null {
  const explicit = /\b(yes|no)\b/i.exec(text);
  if (explicit) return explicit[1]?.toLowerCase() === 'yes';
  if (/\bnot\b|n't\b|\bnon-?significant\b|\binsignificant\b/i.test(text)) return false;
  if (/\b(significant(ly)?|higher|positive|warmer|greater|larger)\b/i.test(text)) return true;
  return null;
}

const REFUSAL = /\b(I can(?:no|')t (?:help|assist|answer|do)|I(?: am|'m) (?:unable|not able) to|I won't|cannot (?:help|assist) with)\b/i;
const CAVEAT_WORDS = /\b(assum\w*|ambigu\w*|depends|interpret\w*|definition|defined as|could mean|taken (?:to mean|as)|read as|by (?:mass|weight|size|length))\b/i;

// ---------------------------------------------------------------------------------- content

interface Table {
  columns: unknown[];
  rows: unknown[][];
}

function tableOf(value: unknown): Table | null {
  if (!value || typeof value !== 'object') return null;
  const t = value as { columns?: unknown; rows?: unknown };
  if (!Array.isArray(t.columns) || !Array.isArray(t.rows) || !t.rows.every(Array.isArray)) return null;
  return { columns: t.columns, rows: t.rows as unknown[][] };
}

const cellText = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v as string | number));
const cellNumber = (v: unknown): number | null => {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};

/** The text the checker reads: the answer, plus the result table written out. */
function answerText(final: FinalOutput): string {
  const table = tableOf(final.result);
  if (!table) return final.answer;
  return `${final.answer}\n${table.rows.map((r) => r.map(cellText).join(' | ')).join('\n')}`;
}

function anyWithin(found: readonly number[], expected: readonly number[], tol: Tolerance): boolean {
  return found.some((a) => expected.some((e) => within(a, e, tol)));
}

/** A table row reported with its value: in the result table, else on a line of the answer naming the key. */
function rowReported(final: FinalOutput, key: string, value: number, tol: Tolerance): boolean {
  const table = tableOf(final.result);
  if (table?.rows.some((r) => r.some((c) => norm(cellText(c)) === norm(key)) && r.some((c) => { const n = cellNumber(c); return n !== null && within(n, value, tol); }))) {
    return true;
  }
  const lines = final.answer.split(/\n|(?<=[.;])\s+/).filter((l) => mentions(l, key));
  return lines.some((l) => numbersIn(l).some((n) => within(n, value, tol)));
}

/** Whether the final output has what the question asks for, and if not, why. */
function judgeContent(q: CheckedQuestion, expected: ExpectedAnswer, final: FinalOutput, chartText: string): { ok: boolean; reason: string; hadFigure: boolean } {
  // What the answer states: its words, and for a table question the table it reports. A number
  // that only appears in a tool's output or a result the answer never mentions does not count.
  const text = expected.kind === 'table' ? answerText(final) : final.answer;
  const found = numbersIn(text);
  switch (expected.kind) {
    case 'number': {
      const tol = toleranceFor(q, expected.values);
      const ok = anyWithin(found, expected.values, tol);
      const want = expected.values.join(' or ');
      return ok
        ? { ok, reason: `reports ${want}`, hadFigure: true }
        : { ok, reason: found.length ? `expected ${want}; the answer's numbers are ${found.slice(0, 6).join(', ')}` : `expected ${want}; the answer has no number`, hadFigure: found.length > 0 };
    }
    case 'set': {
      const missing = expected.items.filter((alts) => !alts.some((a) => mentions(text, a)));
      const want = expected.items.map((a) => a.join('/')).join(', ');
      return missing.length === 0
        ? { ok: true, reason: `names ${want}`, hadFigure: true }
        : { ok: false, reason: `expected ${want}; missing ${missing.map((a) => a.join('/')).join(', ')}`, hadFigure: text.trim().length > 0 };
    }
    case 'yesno': {
      const said = decisionIn(final.answer);
      const tol = q.tolerance ?? DEFAULT_TOLERANCE;
      // The decision carries the direction; a statistic reported as its magnitude is the same test.
      const stat = expected.statistic;
      const statOk = stat === undefined || found.some((n) => within(Math.abs(n), Math.abs(stat), tol));
      const want = `${expected.answer ? 'yes' : 'no'}${stat === undefined ? '' : ` with ${stat}`}`;
      if (said === null) return { ok: false, reason: `expected ${want}; the answer says neither yes nor no`, hadFigure: found.length > 0 };
      if (said !== expected.answer) return { ok: false, reason: `expected ${want}; the answer says ${said ? 'yes' : 'no'}`, hadFigure: true };
      if (!statOk) return { ok: false, reason: `expected ${want}; the statistic is missing or off (${found.slice(0, 6).join(', ') || 'no number'})`, hadFigure: found.length > 0 };
      return { ok: true, reason: `says ${want}`, hadFigure: true };
    }
    case 'table': {
      const tol = toleranceFor(q, expected.rows.map((r) => r.value));
      const missing = expected.rows.filter((r) => !rowReported(final, r.key, r.value, tol));
      return missing.length === 0
        ? { ok: true, reason: `reports all ${expected.rows.length} rows`, hadFigure: true }
        : { ok: false, reason: `${missing.length} of ${expected.rows.length} rows missing or off (${missing.slice(0, 3).map((r) => `${r.key}: ${r.value}`).join('; ')})`, hadFigure: found.length > 0 };
    }
    case 'chart': {
      const figures = final.figures?.length ?? 0;
      if (figures === 0) return { ok: false, reason: 'expected a chart; the answer has none', hadFigure: false };
      if (expected.chart) {
        const shown = judgeChart(final.figures ?? [], expected.chart, q.tolerance ?? (expected.chart.y?.every(Number.isInteger) ? { abs: 0 } : DEFAULT_TOLERANCE));
        if (!shown.ok) return { ok: false, reason: shown.reason, hadFigure: true };
        // The values are checked: the names they were plotted under do not matter.
        if (expected.chart.y) return { ok: true, reason: shown.reason, hadFigure: true };
      }
      const plotted = `${chartText}\n${JSON.stringify(final.figures)}`;
      const missing = expected.columns.filter((c) => !mentions(plotted, c.replace(/\([^)]*\)/g, ' ')));
      return missing.length === 0
        ? { ok: true, reason: `a chart of ${expected.columns.join(', ')}`, hadFigure: true }
        : { ok: false, reason: `the chart does not plot ${missing.join(', ')}`, hadFigure: true };
    }
  }
}

/**
 * The answer names the assumption it made. The app's own caveats (unvalidated results, numbers
 * no tool produced) are not about the question's meaning, so only such wording counts.
 */
export function hasCaveat(final: FinalOutput): boolean {
  return [final.answer, ...final.caveats].some((t) => CAVEAT_WORDS.test(t));
}

/** The verdict for a run that left no answer to judge, or null when it left one. */
export function unanswered(run: RunRecord): Verdict | null {
  const final = run.final;
  if (final && final.output_type !== 'error') return null;
  if (run.statuses.includes('budget_exhausted')) return { correct: false, reason: 'the run ran out of budget before answering', failure: 'budget_exhausted' };
  if (run.statuses.includes('loop_detected') || run.toolErrors >= 3) return { correct: false, reason: `tool errors repeated (${run.toolErrors}) with no answer`, failure: 'tool_error_loop' };
  const message = run.error?.message ?? final?.answer ?? 'the run ended with no answer';
  return { correct: false, reason: message.slice(0, 300), failure: 'provider_error' };
}

/** Why an answer that was judged wrong is wrong: what the run went through, else the content. */
export function wrongBecause(run: RunRecord, final: FinalOutput, reason: string, hadFigure: boolean): Verdict {
  if (REFUSAL.test(final.answer) && numbersIn(final.answer).length === 0) return { correct: false, reason: `refused: ${final.answer.slice(0, 200)}`, failure: 'refused' };
  if (run.statuses.includes('budget_exhausted')) return { correct: false, reason: `${reason} (budget exhausted)`, failure: 'budget_exhausted' };
  if (run.statuses.includes('loop_detected') || run.toolErrors >= 3) return { correct: false, reason: `${reason} (after ${run.toolErrors} tool errors)`, failure: 'tool_error_loop' };
  if (run.validation === false) return { correct: false, reason: `${reason} (validation disagreed)`, failure: 'validation_disagreed' };
  return { correct: false, reason, failure: hadFigure ? 'wrong_figure' : 'no_figure' };
}

/** Scores one run of `q`. */
export function checkRun(q: CheckedQuestion, expected: ExpectedAnswer, run: RunRecord): Verdict {
  const none = unanswered(run);
  const final = run.final;
  if (none || !final) return none ?? { correct: false, reason: 'the run ended with no answer', failure: 'provider_error' };
  const content = judgeContent(q, expected, final, run.chartText);
  if (content.ok) {
    if (q.needsCaveat && !hasCaveat(final)) return { correct: false, reason: `${content.reason}, but the ambiguous question got no caveat`, failure: 'missing_caveat' };
    return { correct: true, reason: content.reason, failure: null };
  }
  return wrongBecause(run, final, content.reason, content.hadFigure);
}
