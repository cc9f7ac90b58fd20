/**
 * Ids for the scripted endpoint's responses and tool calls, unique across every server, reset and
 * scenario of a process (and across processes, by a random tag). LangGraph's message reducer
 * merges messages that share an id, so two scripted replies numbered `chatcmpl-mock-1` by two
 * servers (or before and after `/__reset`) became one message in a conversation.
 */
import { randomBytes } from 'node:crypto';

const TAG = randomBytes(4).toString('hex');
let counter = 0;

/** `prefix-<process tag>-<n>`, never repeated in this process. */
export function uniqueId(prefix) {
  counter += 1;
  return `${prefix}-${TAG}-${counter}`;
}
