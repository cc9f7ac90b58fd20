/**
 * At most `MAX_TOOL_CALLS_PER_MESSAGE` tool calls of one model message run. A model (or a prompt
 * hidden in a data file) asking for a thousand calls at once would otherwise run them all in
 * parallel and flood the page with steps. The excess is dropped from the message before it is
 * stored — every call kept gets its answer, as the API requires — and the model is told plainly
 * what ran and what to do next.
 */
import { AIMessage } from '@langchain/core/messages';

export const MAX_TOOL_CALLS_PER_MESSAGE = 10;

/** Where a capped message records how many calls it asked for (never sent to the endpoint). */
export const ASKED_CALLS_KEY = '__dataseer_tool_calls_asked';

/** The message with at most the cap's calls; the same message when it is within the cap. */
export function capToolCalls(message: AIMessage, max = MAX_TOOL_CALLS_PER_MESSAGE): AIMessage {
  const calls = message.tool_calls ?? [];
  if (calls.length <= max) return message;
  // A fresh message: the endpoint's raw `additional_kwargs.tool_calls` would still list them all.
  return new AIMessage({
    content: message.content,
    ...(message.id !== undefined ? { id: message.id } : {}),
    tool_calls: calls.slice(0, max),
    response_metadata: message.response_metadata,
    additional_kwargs: { [ASKED_CALLS_KEY]: calls.length },
  });
}

/** How many calls a capped message asked for, or undefined when none were dropped. */
export function callsAsked(message: AIMessage | undefined): number | undefined {
  const n: unknown = message?.additional_kwargs?.[ASKED_CALLS_KEY];
  return typeof n === 'number' && n > (message?.tool_calls?.length ?? 0) ? n : undefined;
}

/** What the model reads after the calls that ran: what was refused, and how to go on. */
export function tooManyCallsMessage(asked: number, ran: number): string {
  return (
    `TOO MANY TOOL CALLS: your last message asked for ${asked} tool calls; only the first ${ran} ran (their results are above). ` +
    `The other ${asked - ran} were NOT run. At most ${ran} tool calls run per message: send only the calls you still need, ` +
    `at most ${ran} at a time, or combine them (one SQL query can compute many figures).`
  );
}
