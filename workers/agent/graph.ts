/**
 * The agent graph of ARCHITECTURE.md: ingress → agent ⇄ tools → guard → finalize, with the
 * guard enforcing seed 004's safeguards (guard.ts) and `answer` giving a last tool-less reply
 * when the budget runs out. Nodes talk to the UI through `config.writer` (the "custom" stream)
 * with contract events; tokens come from the "messages" stream (see run.ts).
 *
 * Every model call passes the node's `config`: without it there is no streaming in browsers.
 */
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage, type ToolCall } from '@langchain/core/messages';
import { tool as defineTool } from '@langchain/core/tools';
import type { ChatOpenAICompletions } from '@langchain/openai';
import { Annotation, END, MessagesAnnotation, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph/web';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { AskClarificationArgsSchema, TOOL_ARG_SCHEMAS, TOOL_NAMES, type ExampleRecord, type ValidateResultsArgs } from '../../protocol/agent/tools';
import { ValidationReportSchema, type ExecutionPlan, type ValidationReport } from '../../protocol/agent/structured';
import type { RunEvent } from '../../protocol/agent/wire';
import type { AgentMode, FinalOutput } from '../../protocol/agent/final';
import type { PlotlyFigure } from '../../protocol/figure';
import { buildFinalOutput, reasoningTrace } from './finalOutput';
import { retryBrokenStreamOnce } from './llm/transientRetry';
import { CODE_TOOLS, decide, failedAttempts, iterationBudget, type GuardDecision, type ToolOutcome } from './guard';
import {
  TOOL_DESCRIPTIONS,
  budgetExhaustedMessage,
  buildAgentSystemPrompt,
  buildDatasetsContext,
  buildExamplesContext,
  buildFailedAttemptsContext,
  buildPythonContext,
  buildSystemContext,
  buildValidationPrompt,
  codeRetriesExhaustedMessage,
  loopDetectedMessage,
  validationFailedMessage,
  type DatasetContext,
} from './prompts';
import { structuredOutput, transientLadder, type LadderMemory } from './llm/structured';
import { createSummarizer, defaultContextBudget, visibleMessages, withSummary } from './summarize';
import { INTERNAL_FLAG } from './threadView';
import { INVALID_ARGS_KEY, executeTool, resultForModel, type ToolDeps } from './tools/execute';
import { callsAsked, capToolCalls, tooManyCallsMessage } from './tools/callCap';
import { toJsonText } from './toolOutput';
import { conversationSession } from '../../protocol/python';

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
}

export interface AgentGraphDeps {
  model: ChatOpenAICompletions;
  tools: Omit<ToolDeps, 'validate'> & { validate?: ToolDeps['validate'] };
  context(question: string, signal: AbortSignal): Promise<RunContext>;
  checkpointer?: BaseCheckpointSaver;
  now?: () => Date;
  /** Estimated tokens the model may be sent before older turns are summarised (default: by model). */
  contextBudget?: number;
  /** Where the structured-output ladder starts and records the rung that worked (default: per graph). */
  ladder?: LadderMemory;
  /** Told when a request had to be adapted to the endpoint (a status step). */
  onAdapt?: (detail: string) => void;
}

type Reset = { reset: true };
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
});
export type AgentStateType = typeof AgentState.State;
export type Update = typeof AgentState.Update;

/**
 * Graph nodes whose model output is the answer being written (agent mode's `agent` and
 * `answer`, the pipeline's `explain` and `error`): their tokens are streamed (run.ts), and their
 * `node` event says `answer: true` so the page sets earlier text aside as a step.
 */
export const ANSWER_NODES: ReadonlySet<string> = new Set(['agent', 'answer', 'explain', 'error']);

export function emit(config: LangGraphRunnableConfig, event: RunEvent): void {
  config.writer?.(event);
}

/** A graph node started. */
export function emitNode(config: LangGraphRunnableConfig, name: string): void {
  emit(config, { type: 'node', name, answer: ANSWER_NODES.has(name) });
}

/** The reply being streamed broke off and is requested again: the page drops what it showed of it. */
export function emitRestart(config: LangGraphRunnableConfig, detail: string): void {
  emit(config, { type: 'status', kind: 'retrying', detail, discard_partial: true });
}

export function internalNote(text: string): HumanMessage {
  return new HumanMessage({ content: text, additional_kwargs: { [INTERNAL_FLAG]: true } });
}

export function lastAi(messages: readonly BaseMessage[]): AIMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m && AIMessage.isInstance(m)) return m;
  }
  return undefined;
}

const boundTools = TOOL_NAMES.map((name) =>
  defineTool(async () => '', { name, description: TOOL_DESCRIPTIONS[name], schema: TOOL_ARG_SCHEMAS[name] }),
);

/**
 * What both modes share for one graph: the tool dependencies (with the critic), `ingress`,
 * running a turn's tool calls with their events, the forced validation and `finalize`.
 */
export function createShared(deps: AgentGraphDeps) {
  const ladder = deps.ladder ?? transientLadder();
  const critic = structuredOutput(deps.model, ValidationReportSchema, 'validation_report', ladder, deps.onAdapt);
  let datasetsText = '';
  const validate =
    deps.tools.validate ??
    (async (args: ValidateResultsArgs, signal: AbortSignal): Promise<ValidationReport> =>
      critic.invoke([new HumanMessage(buildValidationPrompt({ ...args, datasets: datasetsText }))], { signal }));
  const toolDeps: ToolDeps = { ...deps.tools, validate };

  async function ingress(state: AgentStateType, config: LangGraphRunnableConfig): Promise<Update> {
    emitNode(config, 'ingress');
    const human = [...state.messages].reverse().find((m) => m.getType() === 'human' && m.additional_kwargs?.[INTERNAL_FLAG] !== true);
    const question = human?.text ?? '';
    const ctx = await deps.context(question, config.signal ?? new AbortController().signal);
    datasetsText = ctx.datasetsText ?? buildDatasetsContext(ctx.datasets);
    const pythonText = buildPythonContext(ctx.pythonPackages);
    const systemPrompt = buildAgentSystemPrompt({
      systemContext: buildSystemContext((deps.now ?? (() => new Date()))(), ctx.timeZone),
      datasets: datasetsText,
      python: pythonText,
      examples: buildExamplesContext(ctx.examples),
      iterationBudget: iterationBudget(question, ctx.datasets.length),
    });
    const reset: Reset = { reset: true };
    return {
      question,
      systemPrompt,
      datasetsText,
      pythonText,
      budget: iterationBudget(question, ctx.datasets.length),
      iterations: 0,
      loopWarnings: 0,
      revisions: 0,
      outcomes: reset,
      toolOutputs: reset,
      figures: reset,
      caveats: reset,
      lastResult: undefined,
      final: undefined,
      executionPlan: undefined,
      clarification: undefined,
      failed: false,
      mode: config.configurable?.mode === 'pipeline' ? 'pipeline' : 'agent',
    };
  }

  /** Runs tool calls in parallel, with tool_start / tool_end / tool_error events. */
  /** `after`: messages that follow the calls' own answers (the API wants every call answered first). */
  async function runToolCalls(calls: readonly ToolCall[], state: AgentStateType, config: LangGraphRunnableConfig, after: BaseMessage[] = []): Promise<Update> {
    datasetsText = state.datasetsText;
    const signal = config.signal ?? new AbortController().signal;
    // One Python namespace per conversation: a variable one run_python call defines, the next can use.
    const threadId: unknown = config.configurable?.thread_id;
    const session = typeof threadId === 'string' && threadId ? conversationSession(threadId) : undefined;
    const runs = await Promise.all(
      calls.map(async (c, i) => {
        const id = c.id ?? `call_${state.iterations}_${i}`;
        emit(config, { type: 'tool_start', call_id: id, tool: c.name, args: c.args });
        const run = await executeTool({ id, name: c.name, args: c.args, ...(session ? { session } : {}) }, toolDeps, signal);
        if (run.outcome.ok && run.result) {
          emit(config, { type: 'tool_end', call_id: id, ...run.result, elapsed_ms: run.elapsedMs });
        } else {
          emit(config, { type: 'tool_error', call_id: id, tool: c.name, error: run.outcome.error ?? 'Error' });
        }
        return { id, name: c.name, run };
      }),
    );
    const okCode = runs.filter((r) => r.run.outcome.ok && CODE_TOOLS.has(r.name));
    const update: Update = {
      messages: [...runs.map((r) => new ToolMessage({ content: r.run.modelText, tool_call_id: r.id, name: r.name, status: r.run.outcome.ok ? 'success' : 'error' })), ...after],
      outcomes: runs.map((r) => r.run.outcome),
      toolOutputs: runs.flatMap((r) => (r.run.result ? [r.run.result.output] : [])),
      figures: runs.flatMap((r) => (r.run.figure ? [r.run.figure] : [])),
    };
    const last = okCode[okCode.length - 1];
    if (last) update.lastResult = last.run.result?.output;
    return update;
  }

  /** The critic on the run so far: used when the model answered without validating. */
  async function forcedValidation(state: AgentStateType, config: LangGraphRunnableConfig): Promise<ToolOutcome> {
    datasetsText = state.datasetsText;
    emit(config, { type: 'status', kind: 'validating', detail: 'Checking the results before answering.' });
    const code = state.outcomes.filter((o) => o.ok && CODE_TOOLS.has(o.tool)).map((o) => toJsonText(o.args));
    const args: ValidateResultsArgs = {
      question: state.question,
      approach: reasoningTrace(state.outcomes).join('\n'),
      results: `${lastAi(state.messages)?.text ?? ''}\n\nLast result:\n${resultForModel(toolDeps, state.lastResult).slice(0, 3000)}`,
      code: code.join('\n\n'),
    };
    const id = `forced_validation_${state.outcomes.length}`;
    emit(config, { type: 'tool_start', call_id: id, tool: 'validate_results', args });
    const run = await executeTool({ id, name: 'validate_results', args }, toolDeps, config.signal ?? new AbortController().signal);
    if (run.outcome.ok && run.result) emit(config, { type: 'tool_end', call_id: id, ...run.result, elapsed_ms: run.elapsedMs });
    else emit(config, { type: 'tool_error', call_id: id, tool: 'validate_results', error: run.outcome.error ?? 'Error' });
    return run.outcome;
  }

  async function finalize(state: AgentStateType, config: LangGraphRunnableConfig): Promise<Update> {
    emitNode(config, 'finalize');
    const last = lastAi(state.messages);
    const finish = last?.response_metadata?.finish_reason;
    const output = buildFinalOutput({
      answer: state.clarification?.question ?? last?.text ?? '',
      // The guard routed through `answer` because the step budget ran out: what was found so far.
      partial: state.route === 'answer',
      ...(typeof finish === 'string' ? { finishReason: finish } : {}),
      onlyReasoning: typeof last?.additional_kwargs?.reasoning_content === 'string' && last.additional_kwargs.reasoning_content.trim() !== '',
      question: state.question,
      outcomes: state.outcomes,
      toolOutputs: state.toolOutputs,
      figures: state.figures,
      result: state.lastResult,
      caveats: state.caveats,
      failed: state.failed,
    });
    if (state.clarification) {
      output.clarification = state.clarification;
      output.output_type = 'explanation';
    }
    emit(config, { type: 'final', output });
    return { final: output, finals: [output] };
  }

  const summarizer = createSummarizer(deps.model, deps.contextBudget ?? defaultContextBudget(deps.model.model), ladder, deps.onAdapt);
  /** Compacts older turns when the model's view is over budget (after `ingress`, before the model). */
  async function summarize(state: AgentStateType, config: LangGraphRunnableConfig): Promise<Update> {
    // Silent unless it compacts: most runs pass straight through.
    const out = await summarizer(state, config, (detail) => {
      emitNode(config, 'summarize');
      emit(config, { type: 'status', kind: 'summarizing', detail });
    });
    return out ?? {};
  }

  /** What the model is sent: the system prompt (with the summary) and the uncompacted messages. */
  function modelView(state: AgentStateType, systemText = state.systemPrompt): BaseMessage[] {
    return [new SystemMessage(withSummary(systemText, state.summary)), ...visibleMessages(state)];
  }

  return { ladder, toolDeps, ingress, summarize, modelView, runToolCalls, forcedValidation, finalize };
}

/** The question of a successful ask_clarification call in the model's last tool calls. */
function clarificationOf(ai: AIMessage | undefined, outcomes: readonly ToolOutcome[]): { question: string; choices: string[] } | undefined {
  for (const call of ai?.tool_calls ?? []) {
    if (call.name !== 'ask_clarification') continue;
    if (!outcomes.some((o) => o.callId === call.id && o.ok)) continue;
    const p = AskClarificationArgsSchema.safeParse(call.args);
    if (p.success) return p.data;
  }
  return undefined;
}

export function createAgentGraph(deps: AgentGraphDeps) {
  const { ingress, summarize, modelView, runToolCalls, forcedValidation, finalize } = createShared(deps);
  const withTools = deps.model.bindTools(boundTools);

  async function agent(state: AgentStateType, config: LangGraphRunnableConfig): Promise<Update> {
    emitNode(config, 'agent');
    const prompt = [state.systemPrompt, buildFailedAttemptsContext(failedAttempts(state.outcomes))].filter(Boolean).join('\n\n');
    const reply = await retryBrokenStreamOnce(() => withTools.invoke(modelView(state, prompt), config), (detail) => emitRestart(config, detail), config.signal);
    const invalid = reply.invalid_tool_calls ?? [];
    let message: AIMessage = reply;
    if (invalid.length > 0) {
      // Unparseable arguments would otherwise end the run with an empty answer: turn them into
      // calls the tools node answers with an error, so the model can resend them.
      message = new AIMessage({
        content: reply.content,
        id: reply.id,
        // Provider fields (a thought signature per call) must go back with the calls they came on.
        additional_kwargs: reply.additional_kwargs,
        tool_calls: [
          ...(reply.tool_calls ?? []),
          ...invalid.map((c, i) => ({
            id: c.id ?? `invalid_${i}`,
            name: c.name ?? 'unknown',
            args: { [INVALID_ARGS_KEY]: c.args ?? '' },
            type: 'tool_call' as const,
          })),
        ],
      });
    }
    message = capToolCalls(message);
    const calls = message.tool_calls?.length ?? 0;
    return { messages: [message], iterations: state.iterations + (calls > 0 ? 1 : 0) };
  }

  async function tools(state: AgentStateType, config: LangGraphRunnableConfig): Promise<Update> {
    emitNode(config, 'tools');
    const ai = lastAi(state.messages);
    const ran = ai?.tool_calls ?? [];
    const asked = callsAsked(ai);
    return runToolCalls(ran, state, config, asked !== undefined ? [internalNote(tooManyCallsMessage(asked, ran.length))] : []);
  }

  async function guard(state: AgentStateType, config: LangGraphRunnableConfig): Promise<Update> {
    emitNode(config, 'guard');
    const ai = lastAi(state.messages);
    const wantsToAnswer = state.messages[state.messages.length - 1] === ai && (ai?.tool_calls?.length ?? 0) === 0;
    const asked = clarificationOf(ai, state.outcomes);
    // A clarifying question ends the run at once: nothing to validate, the user answers next.
    if (asked && state.messages[state.messages.length - 1] !== ai) return { route: 'finalize', clarification: asked };
    let outcomes = state.outcomes;
    const extra: ToolOutcome[] = [];
    const facts = () => ({ outcomes, iterations: state.iterations, budget: state.budget, wantsToAnswer, loopWarnings: state.loopWarnings, revisions: state.revisions });
    let d: GuardDecision = decide(facts());
    if (d.kind === 'validate') {
      const outcome = await forcedValidation(state, config);
      extra.push(outcome);
      outcomes = [...outcomes, outcome];
      // A critic that cannot be reached must not block the answer: finalize with a caveat.
      d = outcome.ok ? decide(facts()) : { kind: 'finalize', caveats: [`The results could not be validated (${outcome.error ?? 'critic failed'}).`] };
    }
    const base: Update = { outcomes: extra };
    switch (d.kind) {
      case 'continue':
        return { ...base, route: 'agent' };
      case 'diverge':
        emit(config, { type: 'status', kind: 'loop_detected', detail: `${d.loop.tool} failed twice the same way.` });
        return { ...base, route: 'agent', loopWarnings: state.loopWarnings + 1, messages: [internalNote(loopDetectedMessage(d.loop.tool, d.loop.error))] };
      case 'change_approach':
        emit(config, { type: 'status', kind: 'retrying', detail: `${d.failures} failed attempts: changing approach.` });
        return { ...base, route: 'agent', messages: [internalNote(codeRetriesExhaustedMessage(d.failures))] };
      case 'validate':
        // decide() only asks once per answer; a second request means the critic keeps failing.
        return { ...base, route: 'finalize', caveats: ['The results could not be validated.'] };
      case 'revise':
        emit(config, { type: 'status', kind: 'retrying', detail: 'Validation found problems; revising.' });
        return { ...base, route: 'agent', revisions: state.revisions + 1, messages: [internalNote(validationFailedMessage(d.report))] };
      case 'finalize':
        return { ...base, route: 'finalize', caveats: d.caveats };
      case 'degrade':
        emit(config, { type: 'status', kind: 'budget_exhausted', detail: `Step budget of ${state.budget} used up; answering with what was found.` });
        return {
          ...base,
          route: 'answer',
          caveats: d.caveats,
          messages: [internalNote(budgetExhaustedMessage(state.budget, reasoningTrace(outcomes)))],
        };
    }
  }

  /** A last reply without tools (budget exhausted). */
  async function answer(state: AgentStateType, config: LangGraphRunnableConfig): Promise<Update> {
    emitNode(config, 'answer');
    const reply = await retryBrokenStreamOnce(() => deps.model.invoke(modelView(state), config), (detail) => emitRestart(config, detail), config.signal);
    return { messages: [reply] };
  }

  const graph = new StateGraph(AgentState)
    .addNode('ingress', ingress)
    .addNode('summarize', summarize)
    .addNode('agent', agent)
    .addNode('tools', tools)
    .addNode('guard', guard)
    .addNode('answer', answer)
    .addNode('finalize', finalize)
    .addEdge(START, 'ingress')
    .addEdge('ingress', 'summarize')
    .addEdge('summarize', 'agent')
    .addConditionalEdges('agent', (s: AgentStateType) => ((lastAi(s.messages)?.tool_calls?.length ?? 0) > 0 ? 'tools' : 'guard'), ['tools', 'guard'])
    .addEdge('tools', 'guard')
    .addConditionalEdges('guard', (s: AgentStateType) => s.route, ['agent', 'answer', 'finalize'])
    .addEdge('answer', 'finalize')
    .addEdge('finalize', END);
  return graph.compile({ checkpointer: deps.checkpointer });
}

export type AgentGraph = ReturnType<typeof createAgentGraph>;
