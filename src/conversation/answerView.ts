/**
 * What the answer card shows once, derived from the final output: one confidence (validation's,
 * lowered when figures in the answer were not found in any tool output), whether the run failed
 * or stopped part-way, the follow-up questions the answer ends with (asked by a button instead of
 * read as text), and which of the repeated notes to leave out.
 */
import type { FinalOutput } from '../../protocol/agent/final';
import { plural } from '../../shared/text';

export type Outcome = 'answered' | 'failed';

/** A failed run has no answer (an error output, or an empty one). */
export function outcomeOf(final: FinalOutput): Outcome {
  if (final.output_type === 'error' || final.answer.trim() === '') return 'failed';
  return 'answered';
}

export interface Confidence {
  /** 0–1. */
  value: number;
  level: 'high' | 'medium' | 'low';
  /** Why it is what it is, in words. */
  reason: string;
}

/** Ungrounded figures cap confidence here: the answer states something no tool output showed. */
const UNGROUNDED_CAP = 0.4;

export function confidenceOf(final: FinalOutput): Confidence {
  const ungrounded = final.ungrounded_numbers.length;
  const value = ungrounded > 0 ? Math.min(final.confidence, UNGROUNDED_CAP) : final.confidence;
  const level = value >= 0.75 ? 'high' : value >= 0.5 ? 'medium' : 'low';
  const reason =
    ungrounded > 0
      ? `${plural(ungrounded, 'figure')} in the answer not found in any tool output`
      : final.code && final.code.length > 0
        ? 'from the check of its result'
        : 'no code ran to check it against';
  return { value, level, reason };
}

/** A line that introduces follow-up questions ("Next you could ask:", "Follow-up questions"). */
const LEAD_IN = /^\s{0,3}(?:#{1,6}\s*)?(?:\*\*|__)?\s*(?:next,?\s+you\s+(?:could|might|can)\s+ask|you\s+(?:could|might|can)\s+(?:also\s+)?ask|follow[- ]up(?:\s+questions)?|questions\s+to\s+ask\s+next|further\s+questions)\b[^\n]*$/i;
const ITEM = /^\s{0,3}(?:[-*+]|\d+[.)])\s+(.+?)\s*$/;

/**
 * Splits the follow-up questions off the end of an answer: a lead-in line, then list items that
 * are questions. Only a trailing block counts, so a question list inside the analysis stays.
 */
export function splitFollowUps(answer: string): { body: string; followUps: string[] } {
  const lines = answer.replace(/\s+$/, '').split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!LEAD_IN.test(lines[i] ?? '')) continue;
    const rest = lines.slice(i + 1).filter((l) => l.trim() !== '');
    const items = rest.map((l) => ITEM.exec(l)?.[1]);
    if (items.length === 0 || items.some((q) => q === undefined)) return { body: answer, followUps: [] };
    const followUps = (items as string[]).map((q) => q.replace(/^(\*\*|__|["“])|(\*\*|__|["”])$/g, '').trim()).filter((q) => q.endsWith('?'));
    if (followUps.length !== items.length) return { body: answer, followUps: [] };
    return { body: lines.slice(0, i).join('\n').replace(/\s+$/, ''), followUps };
  }
  return { body: answer, followUps: [] };
}

/**
 * The caveats without repeats: the card flags ungrounded figures in a note of its own, so a
 * caveat naming every one of them says it twice; and each caveat once.
 */
export function distinctCaveats(final: FinalOutput): string[] {
  const nums = final.ungrounded_numbers;
  const repeatsNote = (c: string) => nums.length > 0 && nums.every((n) => c.includes(n));
  return [...new Set(final.caveats.map((c) => c.trim()))].filter((c) => c !== '' && !repeatsNote(c));
}

/** Key findings sum up a long answer; on a short one they only repeat it. */
export const FINDINGS_MIN_ANSWER = 700;
