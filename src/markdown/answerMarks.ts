import { escapeRegExp } from '../../shared/text';
/**
 * Splits an answer into plain text and the numbers grounding could not find in any tool
 * output, so the view can flag exactly those (as text, never HTML).
 */
export interface AnswerSegment {
  text: string;
  ungrounded: boolean;
}

/**
 * The pattern for a list of numbers, kept for the last list asked: markNumbers calls this once per
 * text node of an answer, and an answer can flag hundreds of numbers.
 */
let lastPattern: { key: string; re: RegExp | null } = { key: '', re: null };

function patternFor(numbers: readonly string[]): RegExp | null {
  const key = numbers.join('\u0000');
  if (key === lastPattern.key) return lastPattern.re;
  const wanted = [...new Set(numbers.map((n) => n.trim()).filter((n) => n !== ''))].sort((a, b) => b.length - a.length);
  // A number must not be part of a longer one: 12 is not flagged inside 3.12 or 120.
  const re = wanted.length === 0 ? null : new RegExp(`(?<![\\d.])(?:${wanted.map(escapeRegExp).join('|')})(?![\\d]|\\.\\d)`, 'g');
  lastPattern = { key, re };
  return re;
}

export function markUngrounded(answer: string, numbers: readonly string[]): AnswerSegment[] {
  const re = patternFor(numbers);
  if (re === null) return answer ? [{ text: answer, ungrounded: false }] : [];
  const out: AnswerSegment[] = [];
  let last = 0;
  for (const m of answer.matchAll(re)) {
    const at = m.index;
    if (at > last) out.push({ text: answer.slice(last, at), ungrounded: false });
    out.push({ text: m[0], ungrounded: true });
    last = at + m[0].length;
  }
  if (last < answer.length) out.push({ text: answer.slice(last), ungrounded: false });
  return out;
}
