/**
 * The nodes both modes share for one graph: `ingress` (the run's global context, once),
 * `summarize`, running a turn's tool calls with their events, the forced validation and
 * `finalize`, plus the tool dependencies (with the critic) and what the model is sent.
 *
 * Every model call passes the node's `config`: without it there is no streaming in browsers.
 */
import { HumanMessage, SystemMessage, ToolMessage, type BaseMessage, type ToolCall } from '@langchain/core/messages';
import type { ChatOpenAICompletions } from '@langchain/openai';
import type { LangGraphRunnableConfig } from '@langchain/langgraph/web';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { ValidateResultsArgs } from '../../../protocol/agent/tools';
import { ValidationReportSchema, type ValidationReport } from '../../../protocol/agent/structured';
import { conversationSession } from '../../../protocol/python';
import { buildFinalOutput, reasoningTrace } from './finalOutput';
import { CODE_TOOLS, iterationBudget, type ToolOutcome } from '../core/guard';
import { structuredOutput, transientLadder, type LadderMemory } from '../llm/structured';
import { emit, emitNode, lastAi } from './nodeKit';
import { buildAgentSystemPrompt, buildDatasetsContext, buildExamplesContext, buildPythonContext, buildSystemContext, buildValidationPrompt } from '../core/prompts';
import type { AgentStateType, Reset, RunContext, Update } from '../core/state';
import { createSummarizer, defaultContextBudget, visibleMessages, withSummary } from './summarize';
import { INTERNAL_FLAG } from '../core/threadView';
import { toJsonText, toolErrorText } from '../core/toolOutput';
import { executeTool, resultForModel, type ToolDeps, type ToolRun } from '../tools/execute';
import { ASSUMED_CAVEAT, clarificationRefused, clarifiedNote } from '../knowledge/clarifyCap';
import { citations } from '../knowledge/trusted';

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
    // Knowledge shown in less detail to fit is said where the user reads the run (issue 32).
    if (ctx.knowledgeLeftOut?.length) emit(config, { type: 'status', kind: 'context_fitted', detail: `Shown in less detail to fit the context: ${ctx.knowledgeLeftOut.map((l) => `${l.what} (${l.detail})`).join('; ')}.` });
    const pythonText = buildPythonContext(ctx.pythonPackages);
    const systemPrompt = buildAgentSystemPrompt({
      systemContext: buildSystemContext((deps.now ?? (() => new Date()))(), ctx.timeZone),
      datasets: datasetsText,
      python: pythonText,
      examples: buildExamplesContext(ctx.examples),
      iterationBudget: iterationBudget(question, ctx.datasets.length),
    });
    const reset: Reset = { reset: true };
    // The previous run asked; this message is the user's answer, so this question has had its one.
    const clarifiedBy = state.clarification ? { question: state.clarification.question, answer: question } : undefined;
    return {
      question,
      clarifiedBy,
      rulesGiven: ctx.rulesGiven,
      trustedGiven: ctx.trustedGiven,
      metricsGiven: ctx.metricsGiven,
      systemPrompt: clarifiedBy ? `${systemPrompt}\n\n${clarifiedNote(clarifiedBy)}` : systemPrompt,
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
    // At most one clarifying question per question: one already answered, or a first one in this
    // same turn, and the call is refused so the model goes on with an assumption.
    let mayAsk = !state.clarifiedBy && !state.outcomes.some((o) => o.tool === 'ask_clarification' && o.ok);
    const refuseAsking = calls.map((c) => {
      if (c.name !== 'ask_clarification') return false;
      if (mayAsk) {
        mayAsk = false;
        return false;
      }
      return true;
    });
    const runs = await Promise.all(
      calls.map(async (c, i) => {
        const id = c.id ?? `call_${state.iterations}_${i}`;
        emit(config, { type: 'tool_start', call_id: id, tool: c.name, args: c.args });
        if (refuseAsking[i]) {
          const error = toolErrorText(clarificationRefused(state.clarifiedBy));
          emit(config, { type: 'tool_error', call_id: id, tool: c.name, error });
          return { id, name: c.name, run: { outcome: { callId: id, tool: c.name, args: c.args, ok: false, error }, modelText: error, elapsedMs: 0 } as ToolRun };
        }
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
    const refused = refuseAsking.some(Boolean);
    const update: Update = {
      ...(refused && state.clarifiedBy ? { caveats: [ASSUMED_CAVEAT] } : {}),
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
    if (state.rulesGiven?.length) output.rules_given = state.rulesGiven;
    if (state.trustedGiven?.length || state.metricsGiven?.length) {
      const sqls = state.outcomes.flatMap((o) => (o.ok && (o.tool === 'run_sql' || o.tool === 'create_chart') && typeof (o.args as { sql?: unknown } | null)?.sql === 'string' ? [(o.args as { sql: string }).sql] : []));
      const cited = citations(sqls, output.answer, state.trustedGiven ?? [], state.metricsGiven ?? []);
      if (cited.length) output.knowledge_cited = cited;
    }
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

export type SharedNodes = ReturnType<typeof createShared>;
