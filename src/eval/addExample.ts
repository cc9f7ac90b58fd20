/**
 * A gauntlet item's fix, written by the user, saved as an example the agent retrieves for
 * similar questions. The fix is the user's own worked answer, so it is stored as a final output
 * with full confidence and no caveats: the shape the example library keeps for rated answers.
 */
import type { FinalOutput } from '../../protocol/agent/final';
import { messageOf } from '../../shared/errors';

export interface ExampleFix {
  threadId: string;
  question: string;
  approach: string;
  code: string;
  answer: string;
}

/** The user's fix as the final output an example is made from. */
export function fixAsFinal(fix: Pick<ExampleFix, 'approach' | 'code' | 'answer'>): FinalOutput {
  const approach = fix.approach.trim();
  const code = fix.code.trim();
  return {
    answer: fix.answer,
    confidence: 1,
    output_type: 'analysis',
    caveats: [],
    reasoning_trace: approach ? [approach] : [],
    ungrounded_numbers: [],
    failed_attempts: [],
    code: code ? [code] : [],
  };
}

/** Saves the fix; says what happened in a sentence the report shows. */
export async function addExample(saveExample: (threadId: string, question: string, final: FinalOutput) => Promise<{ examples: number }>, fix: ExampleFix): Promise<string> {
  try {
    const { examples } = await saveExample(fix.threadId, fix.question, fixAsFinal(fix));
    return `Added to your examples (${examples} in the library).`;
  } catch (e) {
    return `Could not add it: ${messageOf(e)}`;
  }
}
