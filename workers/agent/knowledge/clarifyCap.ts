/**
 * At most one clarifying question per question (issue 32). Six in a row wore the user out: once a
 * question has had its clarification answered, a further `ask_clarification` is refused with a
 * tool error that tells the model to assume and say what it assumed, and the answer carries a
 * caveat saying so.
 */

export interface Clarified {
  question: string;
  answer: string;
}

const quote = (s: string, n = 300) => JSON.stringify(s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The system prompt's note when this run's message answers the previous run's question. */
export function clarifiedNote(c: Clarified): string {
  return `## Your clarifying question was answered
You asked ${quote(c.question)}; the user's message ${quote(c.answer)} is their answer: go on with the original request under it. Do not ask another clarifying question for this request. Where something is still ambiguous, choose the most reasonable reading and say in your answer what you assumed.`;
}

/** The tool error a second clarifying question gets. */
export function clarificationRefused(c: Clarified | undefined): string {
  return c
    ? `the user already answered a clarifying question for this request (${quote(c.question, 160)} → ${quote(c.answer, 160)}); only one is asked per question. Do not ask again: choose the most reasonable reading, go on, and say in your answer what you assumed.`
    : 'only one clarifying question is asked per question, and this turn already asks one. Ask that one alone.';
}

export const ASSUMED_CAVEAT = 'No further clarifying question was asked (one per question): where the request was still ambiguous, the answer says what it assumed.';
