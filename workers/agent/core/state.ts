/**
 * The state every run of a thread goes through (both modes): the messages, what `ingress`
 * gathered, the per-run tallies the guard reads, and the thread's answers. Per-run lists are
 * cleared by `ingress` with a `Reset` and appended to by the nodes after it.
 */
import { Annotation, MessagesAnnotation } from '@langchain/langgraph/web';
import type { ExampleRecord } from '../../../protocol/agent/tools';
import type { ExecutionPlan } from '../../../protocol/agent/structured';
import type { AgentMode, FinalOutput } from '../../../protocol/agent/final';
import type { PlotlyFigure } from '../../../protocol/figure';
import type { ToolOutcome } from './guard';
import type { DatasetContext } from './prompts';
import type { Metric, TrustedQuery } from '../../../protocol/agent/knowledge';

/** What the run knows about the workspace, gathered once in `ingress`. */
export interface RunContext {
  datasets: DatasetContext[];
  /** Importable packages beyond the standard library; `null` when Python is not connected. */
  pythonPackages: string[] | null;
  /** The top examples for the question (retrieved by the caller). */
  examples: ExampleRecord[];
  /** The user's time zone, when they chose one. */
  timeZone?: string;
  /** The datasets block with the workspace's knowledge, fitted to the window (knowledge/prompt.ts). */
  datasetsText?: string;
  /** What that block shows in less detail than the workspace has, to fit (said as a step). */
  knowledgeLeftOut?: { what: string; detail: string }[];
  /** Each dataset's detail level in that block. */
  knowledgeLevels?: Record<string, string>;
  /** The user's rules as that block carries them. */
  rulesGiven?: string[];
  /** The trusted queries and metrics that block carries. */
  trustedGiven?: TrustedQuery[];
  metricsGiven?: Metric[];
}

/** Clears a per-run list (an `ingress` update); anything else is appended. */
export type Reset = { reset: true };
const isReset = (v: unknown): v is Reset => typeof v === 'object' && v !== null && (v as Reset).reset === true;
function perRun<T>() {
  return Annotation<T[], T[] | Reset>({
    reducer: (a, b) => (isReset(b) ? [] : [...a, ...b]),
    default: () => [],
  });
}

export const AgentState = Annotation.Root({
  ...MessagesAnnotation.spec,
  question: Annotation<string>,
  systemPrompt: Annotation<string>,
  datasetsText: Annotation<string>,
  /** What run_python can import, as prompt text. */
  pythonText: Annotation<string>,
  budget: Annotation<number>,
  iterations: Annotation<number>,
  loopWarnings: Annotation<number>,
  revisions: Annotation<number>,
  outcomes: perRun<ToolOutcome>(),
  toolOutputs: perRun<unknown>(),
  figures: perRun<PlotlyFigure>(),
  caveats: perRun<string>(),
  lastResult: Annotation<unknown>,
  route: Annotation<'agent' | 'answer' | 'finalize'>,
  final: Annotation<FinalOutput | undefined>,
  /** Pipeline mode: the plan, and whether the run ended in the error node. */
  executionPlan: Annotation<ExecutionPlan | undefined>,
  failed: Annotation<boolean>,
  /** Every run's final output in this thread, oldest first (the conversation view shows them). */
  finals: Annotation<FinalOutput[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
  /** The thread's mode, from the run's `configurable.mode`. */
  mode: Annotation<AgentMode>,
  /** The compacted older turns (see summarize.ts); the messages themselves stay in the thread. */
  summary: Annotation<string | undefined>,
  /** How many leading messages `summary` replaces in what the model is sent. */
  summarizedThrough: Annotation<number | undefined>,
  /** The clarifying question this run ends with, if the model asked one (ask_clarification). */
  clarification: Annotation<{ question: string; choices: string[] } | undefined>,
  /**
   * Set when this run's question answers the previous run's clarifying question (issue 32: at most
   * one per question — the agent then assumes, and says what it assumed).
   */
  clarifiedBy: Annotation<{ question: string; answer: string } | undefined>,
  /** The user's rules this run's prompt carried (recorded in its final output for exports). */
  rulesGiven: Annotation<string[] | undefined>,
  /** The trusted queries and metrics this run's prompt carried (the answer cites those it used). */
  trustedGiven: Annotation<TrustedQuery[] | undefined>,
  metricsGiven: Annotation<Metric[] | undefined>,
});
export type AgentStateType = typeof AgentState.State;
export type Update = typeof AgentState.Update;
