/**
 * Scores one benchmark item from what its run left: DABench by its authors' rules (dabench.ts)
 * on the final answer's text, the generic format by the gauntlet's checker.
 */
import { checkRun, unanswered, wrongBecause, type RunRecord, type Verdict } from '../gauntlet/check';
import { extractFormat, scoreResponse, type SubAnswer } from './dabench';
import type { SuiteItem } from './suite';

export type ItemVerdict = Verdict & { sub?: SubAnswer[] };

export function scoreItem(item: SuiteItem, run: RunRecord): ItemVerdict {
  if (item.format === 'generic') return checkRun(item.question.tolerance ? { tolerance: item.question.tolerance } : {}, item.question.expected, run);
  const none = unanswered(run);
  const final = run.final;
  if (none || !final) {
    const v = none ?? { correct: false, reason: 'the run ended with no answer', failure: 'provider_error' as const };
    return { ...v, sub: item.label.answers.map(([name, expected]) => ({ name, expected, got: null, correct: false })) };
  }
  const sub = scoreResponse(final.answer, item.label);
  const right = sub.filter((s) => s.correct).length;
  if (right === sub.length) return { correct: true, reason: `all ${sub.length} sub-answers right`, failure: null, sub };
  const wrong = sub.filter((s) => !s.correct).slice(0, 3).map((s) => `@${s.name}: expected ${s.expected}, got ${s.got ?? 'nothing'}`);
  const formatted = extractFormat(final.answer).size > 0;
  const reason = formatted ? `${right} of ${sub.length} sub-answers right (${wrong.join('; ')})` : 'no @name[value] answer in the response';
  return { ...wrongBecause(run, final, reason, formatted), sub };
}
