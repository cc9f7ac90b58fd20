/**
 * Pipeline mode (seed 000): a fixed path instead of the agent's free loop.
 * ingress → plan (`execution_plan`) → code (one run_sql / run_python / create_chart call; on
 * failure it is retried with the error, at most 3 attempts) → evaluate (the critic, when the plan
 * asks) → explain (streamed answer) → finalize; or → error (every failed attempt) → finalize.
 * Same tools, events, state and checkpointer as the agent graph, so a thread can mix both.
 */
import { AIMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { tool as defineTool } from '@langchain/core/tools';
import { END, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph/web';
import { ExecutionPlanSchema, type ExecutionPlan } from '../../../protocol/agent/structured';
import { TOOL_ARG_SCHEMAS } from '../../../protocol/agent/tools';
import { structuredOutput } from '../llm/structured';
import { retryBrokenStreamOnce } from '../llm/transientRetry';
import { emit, emitNode, emitRestart, internalNote } from './nodeKit';
import { createShared, type AgentGraphDeps } from './nodes';
import { AgentState, type AgentStateType, type Update } from '../core/state';
import { CODE_TOOLS, MAX_CODE_RETRIES, failedAttempts, latestValidation } from '../core/guard';
import { TOOL_DESCRIPTIONS, buildCodePrompt, buildPlanPrompt } from '../core/prompts';
import { withSummary } from './summarize';
import { INVALID_ARGS_KEY } from '../tools/execute';
import { toJsonText } from '../core/toolOutput';

const CODE_TOOL_NAMES = ['run_sql', 'run_python', 'create_chart'] as const;
const codeTools = CODE_TOOL_NAMES.map((name) =>
  defineTool(async () => '', { name, description: TOOL_DESCRIPTIONS[name], schema: TOOL_ARG_SCHEMAS[name] }),
);

function codeAttempts(state: AgentStateType): number {
  return state.outcomes.filter((o) => CODE_TOOLS.has(o.tool)).length;
}

function codeSucceeded(state: AgentStateType): boolean {
  const last = [...state.outcomes].reverse().find((o) => CODE_TOOLS.has(o.tool));
  return last?.ok === true;
}

export function createPipelineGraph(deps: AgentGraphDeps) {
  const { ladder, ingress, summarize, modelView, runToolCalls, forcedValidation, finalize } = createShared(deps);
  const planner = structuredOutput(deps.model, ExecutionPlanSchema, 'execution_plan', ladder, deps.onAdapt);
  const coder = deps.model.bindTools(codeTools, { tool_choice: 'required' });

  /** The system context only (identity, date, datasets): the agent's tool rules do not apply. */
  const context = (state: AgentStateType) => new SystemMessage(withSummary(state.systemPrompt, state.summary));

  async function plan(state: AgentStateType, config: LangGraphRunnableConfig): Promise<Update> {
    emitNode(config, 'plan');
    const p: ExecutionPlan = await planner.invoke([context(state), new HumanMessage(buildPlanPrompt(state.question, state.datasetsText))], { signal: config.signal });
    return { executionPlan: p };
  }

  async function code(state: AgentStateType, config: LangGraphRunnableConfig): Promise<Update> {
    emitNode(config, 'code');
    const previous = failedAttempts(state.outcomes);
    if (previous.length > 0) emit(config, { type: 'status', kind: 'retrying', detail: `Attempt ${previous.length + 1} of ${MAX_CODE_RETRIES}, fixing: ${previous.at(-1)?.error.slice(0, 120) ?? ''}` });
    const prompt = buildCodePrompt({
      question: state.question,
      datasets: state.datasetsText,
      python: state.pythonText,
      previous,
    });
    const note = internalNote(prompt);
    const reply = await retryBrokenStreamOnce(() => coder.invoke([...modelView(state), note], config), (detail) => emitRestart(config, detail), config.signal);
    const calls = [
      ...(reply.tool_calls ?? []).slice(0, 1),
      ...(reply.tool_calls?.length ? [] : (reply.invalid_tool_calls ?? []).slice(0, 1).map((c, i) => ({ id: c.id ?? `invalid_${i}`, name: c.name ?? 'run_sql', args: { [INVALID_ARGS_KEY]: c.args ?? '' }, type: 'tool_call' as const }))),
    ];
    if (calls.length === 0) {
      // No code came back: count it as a failed attempt so the retry limit still applies.
      const outcome = { callId: `no_code_${state.outcomes.length}`, tool: 'run_python', args: { code: reply.text }, ok: false, error: 'Error: the model returned no code (a tool call was required).' };
      return { messages: [note], outcomes: [outcome] };
    }
    const message = new AIMessage({ content: reply.content, id: reply.id, tool_calls: calls });
    const ran = await runToolCalls(calls, state, config);
    const ranMessages = (ran.messages ?? []) as never[];
    return { ...ran, messages: [note, message, ...ranMessages] };
  }

  async function evaluate(state: AgentStateType, config: LangGraphRunnableConfig): Promise<Update> {
    emitNode(config, 'evaluate');
    const outcome = await forcedValidation(state, config);
    return { outcomes: [outcome] };
  }

  async function explain(state: AgentStateType, config: LangGraphRunnableConfig): Promise<Update> {
    emitNode(config, 'explain');
    const report = latestValidation(state.outcomes);
    const ask = [
      'Answer the question for the user in plain language, using only figures from the tool outputs above (rounded sensibly): the direct answer first, then how it was computed, then caveats.',
      report && !report.is_valid ? `A reviewer found these problems; state them as caveats: ${report.issues.join('; ')}` : '',
      state.executionPlan && !state.executionPlan.needs_code ? 'No code was needed: explain from general knowledge and the dataset descriptions.' : '',
    ]
      .filter(Boolean)
      .join('\n');
    const reply = await retryBrokenStreamOnce(() => deps.model.invoke([...modelView(state), internalNote(ask)], config), (detail) => emitRestart(config, detail), config.signal);
    const caveats = report && !report.is_valid ? ['The results did not pass validation:', ...report.issues] : [];
    return { messages: [reply], caveats };
  }

  async function error(state: AgentStateType, config: LangGraphRunnableConfig): Promise<Update> {
    emitNode(config, 'error');
    const attempts = failedAttempts(state.outcomes);
    const lines = attempts.map((a, i) => `${i + 1}. ${a.error.split('\n')[0] ?? a.error}`);
    const text = `I could not compute an answer: ${attempts.length} attempts failed.\n${lines.join('\n')}\nTry rephrasing the question or checking the column names.`;
    return { messages: [new AIMessage(text)], failed: true, caveats: [`Code failed ${attempts.length} times; last error: ${toJsonText(attempts.at(-1)?.error ?? '')}`] };
  }

  return new StateGraph(AgentState)
    .addNode('ingress', ingress)
    .addNode('summarize', summarize)
    .addNode('plan', plan)
    .addNode('code', code)
    .addNode('evaluate', evaluate)
    .addNode('explain', explain)
    .addNode('error', error)
    .addNode('finalize', finalize)
    .addEdge(START, 'ingress')
    .addEdge('ingress', 'summarize')
    .addEdge('summarize', 'plan')
    .addConditionalEdges('plan', (s: AgentStateType) => (s.executionPlan?.needs_code === false ? 'explain' : 'code'), ['code', 'explain'])
    .addConditionalEdges(
      'code',
      (s: AgentStateType) => {
        if (codeSucceeded(s)) return s.executionPlan?.needs_evaluation === false ? 'explain' : 'evaluate';
        return codeAttempts(s) >= MAX_CODE_RETRIES ? 'error' : 'code';
      },
      ['code', 'evaluate', 'explain', 'error'],
    )
    .addEdge('evaluate', 'explain')
    .addEdge('explain', 'finalize')
    .addEdge('error', 'finalize')
    .addEdge('finalize', END)
    .compile({ checkpointer: deps.checkpointer });
}

export type PipelineGraph = ReturnType<typeof createPipelineGraph>;
