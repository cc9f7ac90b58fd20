/**
 * What every node uses to talk to the page and read the thread: contract events through
 * `config.writer` (the "custom" stream run.ts forwards), internal notes to the model, and the
 * last model reply.
 */
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { LangGraphRunnableConfig } from '@langchain/langgraph/web';
import type { RunEvent } from '../../../protocol/agent/wire';
import { INTERNAL_FLAG } from '../core/threadView';

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
