/**
 * Agent mode's nodes (seed 004): `agent` (one chat model with the tools bound; invalid tool-call
 * arguments become calls answered with an error), `tools`, `guard` (the safeguards of guard.ts
 * turned into routes, notes and status events) and `answer` (a last tool-less reply when the
 * budget runs out).
 *
 * Every model call passes the node's `config`: without it there is no streaming in browsers.
 */
import { AIMessage } from '@langchain/core/messages';
import { tool as defineTool } from '@langchain/core/tools';
import type { LangGraphRunnableConfig } from '@langchain/langgraph/web';
import { AskClarificationArgsSchema, TOOL_ARG_SCHEMAS, TOOL_NAMES } from '../../../protocol/agent/tools';
import { reasoningTrace } from './finalOutput';
import { decide, failedAttempts, type GuardDecision, type ToolOutcome } from '../core/guard';
import { retryBrokenStreamOnce } from '../llm/transientRetry';
import { emit, emitNode, emitRestart, internalNote, lastAi } from './nodeKit';
import type { AgentGraphDeps, SharedNodes } from './nodes';
import { TOOL_DESCRIPTIONS, budgetExhaustedMessage, buildFailedAttemptsContext, codeRetriesExhaustedMessage, loopDetectedMessage, validationFailedMessage } from '../core/prompts';
import type { AgentStateType, Update } from '../core/state';
import { INVALID_ARGS_KEY } from '../tools/execute';
import { callsAsked, capToolCalls, tooManyCallsMessage } from '../tools/callCap';

const boundTools = TOOL_NAMES.map((name) =>
  defineTool(async () => '', { name, description: TOOL_DESCRIPTIONS[name], schema: TOOL_ARG_SCHEMAS[name] }),
);

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

/** Agent mode's own nodes: the model with the tools bound, the tools, the guard, and a last reply. */
export function createAgentNodes(deps: AgentGraphDeps, shared: Pick<SharedNodes, 'modelView' | 'runToolCalls' | 'forcedValidation'>) {
  const { modelView, runToolCalls, forcedValidation } = shared;
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

  return { agent, tools, guard, answer };
}
