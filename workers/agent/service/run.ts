/**
 * One run of the agent graph as the contract's event stream: run_start, the nodes' own events
 * ("custom" stream), tokens of the answering nodes ("messages" stream), and always run_end —
 * an endpoint failure becomes an `error` event, never a lost question (the question is already
 * in the checkpoint when the model is called, so the thread can be resumed).
 */
import type { BaseMessage } from '@langchain/core/messages';
import type { AgentEvent, ImageAttachment, RunEvent } from '../../../protocol/agent/wire';
import { ANSWER_NODES } from '../graph/nodeKit';
import type { AgentMode, FinalOutput } from '../../../protocol/agent/final';
import { buildHumanMessage } from '../core/humanMessage';
import type { AgentGraph } from '../graph/graph';
import type { PipelineGraph } from '../graph/pipeline';
import { classifyLlmError, type LlmFailure } from '../llm/chatModel';
import type { RunUsage } from '../../../protocol/agent/usage';

export interface TurnRequest {
  thread_id: string;
  run_id: string;
  mode: AgentMode;
  /** The new question; omit to resume the thread from its last checkpoint. */
  question?: string;
  /** Images sent with the question (multimodal content of the human message). */
  attachments?: ImageAttachment[];
  /** The question as a ready message (takes precedence over `question`; e.g. with its stored id). */
  message?: BaseMessage;
}

export interface TurnOptions {
  signal?: AbortSignal;
  onEvent(event: AgentEvent): void;
  /** Graph steps before LangGraph stops the run (each node is one step). */
  recursionLimit?: number;
  /** Added to a network failure's message: what to do for this provider (e.g. CORS). */
  networkAdvice?: string;
  /** The run's token usage, asked for once the run is over and carried on `run_end`. */
  usage?: () => Promise<RunUsage | undefined>;
}

export interface TurnResult {
  final?: FinalOutput;
  failure?: LlmFailure;
}

/**
 * `graph` may still be being built (the model, the ladder, the context): a failure there is this
 * run's failure too, so it ends like any other — an `error` event and `run_end`, never silence.
 */
export async function runTurn(graph: AgentGraph | PipelineGraph | Promise<AgentGraph | PipelineGraph>, req: TurnRequest, options: TurnOptions): Promise<TurnResult> {
  const result: TurnResult = {};
  // Every event of this run names it, so a late event of a stopped run is never taken for the next one's.
  const stamp = (e: RunEvent): AgentEvent => ({ ...e, run_id: req.run_id }) as AgentEvent;
  const opts = { ...options, onEvent: (e: RunEvent) => options.onEvent(stamp(e)) };
  options.onEvent({ type: 'run_start', thread_id: req.thread_id, run_id: req.run_id, mode: req.mode });
  try {
    const input = req.message ? { messages: [req.message] } : req.question === undefined ? null : { messages: [buildHumanMessage(req.question, req.attachments)] };
    const stream = await ((await graph) as AgentGraph).stream(input, {
      configurable: { thread_id: req.thread_id, mode: req.mode },
      signal: opts.signal,
      streamMode: ['messages', 'custom'],
      recursionLimit: opts.recursionLimit ?? 80,
    });
    for await (const item of stream as AsyncIterable<[string, unknown]>) {
      const [mode, chunk] = item;
      if (mode === 'custom') {
        // Only the nodes write here, with typed contract events (nodeKit.ts): the page validates
        // each event once, where it enters (src/agent/AgentClient), so it is not parsed here too.
        const event = chunk as RunEvent;
        if (event.type === 'final') result.final = event.output;
        opts.onEvent(event);
      } else if (mode === 'messages') {
        const [message, meta] = chunk as [BaseMessage, Record<string, unknown>];
        if (!ANSWER_NODES.has(String(meta.langgraph_node)) || message.getType() !== 'ai') continue;
        // Reasoning arrives as `reasoning_content` whatever the provider's shape (llm/wire).
        const reasoning = message.additional_kwargs?.reasoning_content;
        if (typeof reasoning === 'string' && reasoning) opts.onEvent({ type: 'reasoning', text: reasoning });
        const text = message.text;
        if (text) opts.onEvent({ type: 'token', text });
      }
    }
  } catch (e) {
    // Whatever threw — the endpoint, a node, a tool, a checkpoint write, the stream — ends the run
    // with a classified failure; a run that cannot end is worse than any message.
    const classified = classifyLlmError(e);
    const failure = classified.kind === 'network' && opts.networkAdvice ? { ...classified, message: `${classified.message} ${opts.networkAdvice}` } : classified;
    result.failure = failure;
    opts.onEvent({
      type: 'error',
      message: failure.message,
      retryable: failure.retryable,
      kind: failure.kind,
      ...(failure.status !== undefined ? { status: failure.status } : {}),
    });
  } finally {
    const usage = options.usage ? await options.usage().catch(() => undefined) : undefined;
    try {
      options.onEvent({ type: 'run_end', thread_id: req.thread_id, run_id: req.run_id, ...(usage ? { usage } : {}) });
    } catch {
      // Sending run_end failed (the page went away): nothing is left to tell.
    }
  }
  return result;
}
