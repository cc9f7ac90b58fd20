/**
 * `finalize`: the contract's FinalOutput from the model's answer and the facts of the run. The
 * answer's numbers are checked against the run's tool outputs (grounding), and everything the
 * user should weigh — failed validation, ungrounded figures, an exhausted budget — lands in
 * `caveats` rather than being silently dropped.
 */
import type { FinalOutput } from '../../../protocol/agent/final';
import type { PlotlyFigure } from '../../../protocol/figure';
import type { ValidationReport } from '../../../protocol/agent/structured';
import { CODE_TOOLS, failedAttempts, latestValidation, type ToolOutcome } from '../core/guard';
import { checkGrounding } from './grounding';

export interface FinalizeInput {
  answer: string;
  question: string;
  outcomes: readonly ToolOutcome[];
  /** Full outputs of the run's successful tool calls (not the truncated model view). */
  toolOutputs: readonly unknown[];
  figures?: PlotlyFigure[];
  /** The data result to show beside the answer (last run_sql / run_python result). */
  result?: unknown;
  /** Caveats decided earlier (guard, budget). */
  caveats?: readonly string[];
  /** The run ended in failure: the answer explains what went wrong. */
  failed?: boolean;
  /** The run stopped before the analysis was complete (budget exhausted): the answer is partial. */
  partial?: boolean;
  /** How the model's last reply ended (`finish_reason`), to say why it had no text. */
  finishReason?: string;
  /** The last reply carried reasoning but no text. */
  onlyReasoning?: boolean;
}

/** Why a reply came back without text, in words a person can act on. */
export function emptyAnswerReason(finishReason: string | undefined, onlyReasoning: boolean): string {
  if (finishReason === 'length') return 'The model ran out of output tokens before it wrote an answer. Retry, or choose a model with a larger output limit in Settings.';
  if (finishReason === 'content_filter') return 'The provider’s content filter stopped the reply before it had any text. Rephrase the question or choose another model.';
  if (onlyReasoning) return 'The model thought about the question (see Thinking in the steps) but wrote no answer. Retry, or choose another model in Settings.';
  return 'The model ended its reply without writing an answer. Retry, or choose another model in Settings.';
}

/** Default confidence when nothing validated the result (seed 004). */
export const UNVALIDATED_CONFIDENCE = 0.5;

function codeOf(o: ToolOutcome): string | undefined {
  const a = o.args as Record<string, unknown> | null | undefined;
  if (!a || typeof a !== 'object') return undefined;
  if (typeof a.code === 'string') return a.code;
  if (typeof a.sql === 'string') return a.sql;
  return undefined;
}

function shorten(s: string, n = 80): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

/** One line per tool call, for `reasoning_trace`. */
export function reasoningTrace(outcomes: readonly ToolOutcome[]): string[] {
  return outcomes.map((o) => {
    const code = codeOf(o);
    const what = code ? `${o.tool}: ${shorten(code)}` : o.tool;
    if (o.tool === 'validate_results' && o.report) {
      return `validate_results: ${o.report.is_valid ? 'passed' : `failed (${o.report.issues.length} issues)`}, confidence ${o.report.confidence}`;
    }
    return o.ok ? what : `${what} → ${shorten(o.error ?? 'failed', 120)}`;
  });
}

function outputType(input: FinalizeInput, codeRan: boolean): FinalOutput['output_type'] {
  if (input.failed) return 'error';
  if (input.figures && input.figures.length > 0) return 'visualization';
  return codeRan ? 'analysis' : 'explanation';
}

function confidenceOf(validation: ValidationReport | undefined, codeRan: boolean, ungrounded: number): number {
  let c = validation ? validation.confidence : codeRan ? UNVALIDATED_CONFIDENCE : 0.7;
  if (validation && !validation.is_valid) c = Math.min(c, 0.4);
  // Figures nobody computed undercut the answer, however confident the critic was.
  if (ungrounded > 0) c = Math.min(c, 0.5);
  return Math.max(0, Math.min(1, c));
}

export function buildFinalOutput(input: FinalizeInput): FinalOutput {
  if (!input.failed && input.answer.trim() === '') {
    // No answer is a failed run, said as one: never an empty card with a confidence figure.
    const reason = emptyAnswerReason(input.finishReason, input.onlyReasoning === true);
    return buildFinalOutput({ ...input, answer: `No answer was produced. ${reason}`, failed: true, caveats: [...(input.caveats ?? []), reason] });
  }
  const codeRuns = input.outcomes.filter((o) => o.ok && CODE_TOOLS.has(o.tool));
  const codeRan = codeRuns.length > 0;
  const validation = latestValidation(input.outcomes);
  const grounding = checkGrounding(input.answer, input.toolOutputs, [input.question]);
  const caveats = [...(input.caveats ?? [])];
  if (validation && !validation.is_valid) {
    for (const issue of validation.issues) if (!caveats.includes(issue)) caveats.push(issue);
  }
  if (grounding.ungrounded.length > 0) {
    caveats.push(`These figures in the answer do not appear in any tool output of this run: ${grounding.ungrounded.join(', ')}.`);
  }
  const code = [...new Set(codeRuns.map(codeOf).filter((c): c is string => c !== undefined))];
  const out: FinalOutput = {
    answer: input.answer,
    // A failed run has no confidence to state (the card shows none); 0 keeps the schema's number.
    confidence: input.failed ? 0 : confidenceOf(validation, codeRan, grounding.ungrounded.length),
    output_type: outputType(input, codeRan),
    caveats,
    reasoning_trace: reasoningTrace(input.outcomes),
    ungrounded_numbers: grounding.ungrounded,
    failed_attempts: failedAttempts(input.outcomes),
  };
  if (input.result !== undefined) out.result = input.result;
  if (input.figures && input.figures.length > 0) out.figures = input.figures;
  if (code.length > 0) out.code = code;
  if (input.partial && !input.failed) out.partial = true;
  return out;
}
