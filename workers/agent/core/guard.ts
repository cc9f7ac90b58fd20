/**
 * The hard safeguards of seed 004, as pure functions over what happened in a run, so the guard
 * node only gathers facts and applies a decision:
 * - validation is mandatory once code has produced results (forced if the model skipped it),
 *   a failed validation loops back at most twice, then the answer carries caveats;
 * - the same tool failing the same way twice is a loop: force a different approach;
 * - an iteration budget by question complexity (5 / 8 / 10) ends in graceful degradation;
 * - failed attempts are collected for the prompt; 3 failed code attempts in a row end an approach.
 */
import type { ValidationReport } from '../../../protocol/agent/structured';

export type Complexity = 'simple' | 'standard' | 'complex';

export const ITERATION_BUDGET: Record<Complexity, number> = { simple: 5, standard: 8, complex: 10 };
export const MAX_CODE_RETRIES = 3;
export const MAX_VALIDATION_FAILURES = 2;

/** Tools whose success means "code produced results" (and so needs validating). */
export const CODE_TOOLS: ReadonlySet<string> = new Set(['run_sql', 'run_python', 'create_chart']);

const COMPLEX = /\b(predict|prediction|forecast|model|regression model|machine learning|cluster|clustering|segment|classif|multivariate|time series model)/i;
const STANDARD = /\b(test|significan|correlat|compare|comparison|differ|relationship|associat|trend|distribution|regress|versus|vs\.?|effect|impact|anova|chi|p-value|outlier|anomal)/i;

/** Seed 004's heuristic: several datasets or modelling → complex; tests and comparisons → standard. */
export function estimateComplexity(question: string, datasetCount: number): Complexity {
  if (datasetCount > 1 && /\b(join|merge|combine|across|both|match)/i.test(question)) return 'complex';
  if (COMPLEX.test(question)) return 'complex';
  if (datasetCount > 1) return 'standard';
  if (STANDARD.test(question)) return 'standard';
  return 'simple';
}

export function iterationBudget(question: string, datasetCount: number): number {
  return ITERATION_BUDGET[estimateComplexity(question, datasetCount)];
}

/** One executed tool call, as the guard sees it. */
export interface ToolOutcome {
  callId: string;
  tool: string;
  args: unknown;
  ok: boolean;
  /** The error text when `ok` is false. */
  error?: string;
  /** For validate_results: the report. */
  report?: ValidationReport;
}

/**
 * A failure's signature: lower-cased, numbers and quoted fragments blanked, whitespace collapsed,
 * so "line 3" and "line 4" of the same error count as the same way of failing.
 */
export function errorSignature(error: string): string {
  return error
    .toLowerCase()
    .replace(/^error:\s*/, '')
    .replace(/\d+(\.\d+)?/g, '#')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
}

export interface LoopVerdict {
  tool: string;
  error: string;
}

/**
 * The same tool failing the same way twice, with no success of that tool in between (and among
 * the recent `window` outcomes).
 */
export function detectLoop(outcomes: readonly ToolOutcome[], window = 6): LoopVerdict | null {
  const recent = outcomes.slice(-window);
  const last = recent[recent.length - 1];
  if (!last || last.ok || last.error === undefined) return null;
  const sig = errorSignature(last.error);
  for (let i = recent.length - 2; i >= 0; i--) {
    const o = recent[i];
    if (!o || o.tool !== last.tool) continue;
    if (o.ok) return null;
    if (o.error !== undefined && errorSignature(o.error) === sig) return { tool: last.tool, error: last.error };
  }
  return null;
}

function lastIndex(outcomes: readonly ToolOutcome[], pred: (o: ToolOutcome) => boolean): number {
  for (let i = outcomes.length - 1; i >= 0; i--) {
    const o = outcomes[i];
    if (o && pred(o)) return i;
  }
  return -1;
}

/** Code produced results after the last completed validation. */
export function validationRequired(outcomes: readonly ToolOutcome[]): boolean {
  const lastCode = lastIndex(outcomes, (o) => o.ok && CODE_TOOLS.has(o.tool));
  if (lastCode < 0) return false;
  const lastValidation = lastIndex(outcomes, (o) => o.ok && o.tool === 'validate_results' && o.report !== undefined);
  return lastValidation < lastCode;
}

/** The latest validation report, if any. */
export function latestValidation(outcomes: readonly ToolOutcome[]): ValidationReport | undefined {
  const i = lastIndex(outcomes, (o) => o.tool === 'validate_results' && o.report !== undefined);
  return i >= 0 ? outcomes[i]?.report : undefined;
}

export function validationFailures(outcomes: readonly ToolOutcome[]): number {
  return outcomes.filter((o) => o.tool === 'validate_results' && o.report?.is_valid === false).length;
}

function codeOf(args: unknown): string {
  if (args && typeof args === 'object') {
    const a = args as Record<string, unknown>;
    if (typeof a.code === 'string') return a.code;
    if (typeof a.sql === 'string') return a.sql;
  }
  return JSON.stringify(args ?? null);
}

/** Every failed code attempt of the run, for the prompt and FinalOutput.failed_attempts. */
export function failedAttempts(outcomes: readonly ToolOutcome[]): { code: string; error: string }[] {
  return outcomes
    .filter((o) => !o.ok && CODE_TOOLS.has(o.tool))
    .map((o) => ({ code: codeOf(o.args), error: o.error ?? 'failed' }));
}

/** Code-tool failures since the last code-tool success: the retries of the current approach. */
export function consecutiveCodeFailures(outcomes: readonly ToolOutcome[]): number {
  let n = 0;
  for (let i = outcomes.length - 1; i >= 0; i--) {
    const o = outcomes[i];
    if (!o || !CODE_TOOLS.has(o.tool)) continue;
    if (o.ok) break;
    n += 1;
  }
  return n;
}

export interface GuardInput {
  outcomes: readonly ToolOutcome[];
  /** Agent turns so far in this run (each model call that asked for tools counts one). */
  iterations: number;
  budget: number;
  /** The model's latest message has no tool calls: it wants to answer. */
  wantsToAnswer: boolean;
  /** Divergence messages already injected in this run. */
  loopWarnings: number;
  /** `revise` decisions already taken in this run (one per failed report at most). */
  revisions: number;
}

export type GuardDecision =
  /** Tools ran; give their outputs back to the model. */
  | { kind: 'continue' }
  /** Inject a divergence message (status `loop_detected`) and continue. */
  | { kind: 'diverge'; loop: LoopVerdict }
  /** Too many failed attempts at one approach: tell the model to change approach. */
  | { kind: 'change_approach'; failures: number }
  /** Call the critic (`validation_report`) before answering (status `validating`). */
  | { kind: 'validate' }
  /** Validation failed and a retry is allowed: loop back with the issues (status `retrying`). */
  | { kind: 'revise'; report: ValidationReport }
  /** Finish; caveats to attach (e.g. validation still failing after the allowed retries). */
  | { kind: 'finalize'; caveats: string[] }
  /** Budget used up: one last model call without tools, then finish (status `budget_exhausted`). */
  | { kind: 'degrade'; caveats: string[] };

/** The guard's verdict after an agent turn (and the tools it triggered). */
export function decide(input: GuardInput): GuardDecision {
  const { outcomes } = input;
  const failures = validationFailures(outcomes);
  const report = latestValidation(outcomes);

  if (input.wantsToAnswer) {
    if (validationRequired(outcomes)) {
      // Validation is owed. Past the budget it still runs once: an unchecked answer is worse.
      return { kind: 'validate' };
    }
    if (report && !report.is_valid) {
      const unanswered = input.revisions < failures;
      if (unanswered && failures <= MAX_VALIDATION_FAILURES && input.iterations < input.budget) return { kind: 'revise', report };
      return {
        kind: 'finalize',
        caveats: ['The results did not pass validation:', ...report.issues],
      };
    }
    return { kind: 'finalize', caveats: [] };
  }

  if (input.iterations >= input.budget) {
    return { kind: 'degrade', caveats: [`The step budget (${input.budget}) ran out before the analysis was complete.`] };
  }
  const loop = detectLoop(outcomes);
  if (loop && input.loopWarnings < 2) return { kind: 'diverge', loop };
  const streak = consecutiveCodeFailures(outcomes);
  if (streak >= MAX_CODE_RETRIES && streak % MAX_CODE_RETRIES === 0) return { kind: 'change_approach', failures: streak };
  return { kind: 'continue' };
}
