import { describe, expect, it } from 'vitest';
import { FinalOutputSchema } from '../../protocol/agent/final';
import { addExample, fixAsFinal } from './addExample';

describe('a gauntlet fix saved as an example', () => {
  it('is a valid final output carrying the approach and the code', () => {
    const final = fixAsFinal({ approach: ' group by species ', code: 'SELECT 1', answer: '42' });
    expect(FinalOutputSchema.parse(final)).toEqual(final);
    expect(final.reasoning_trace).toEqual(['group by species']);
    expect(final.code).toEqual(['SELECT 1']);
  });

  it('leaves out an empty approach and empty code', () => {
    const final = fixAsFinal({ approach: '  ', code: '', answer: 'x' });
    expect(final.reasoning_trace).toEqual([]);
    expect(final.code).toEqual([]);
  });

  it('says how many examples there are, or why it could not save', async () => {
    const fix = { threadId: 't', question: 'q', approach: '', code: '', answer: 'a' };
    expect(await addExample(async () => ({ examples: 3 }), fix)).toBe('Added to your examples (3 in the library).');
    expect(await addExample(async () => Promise.reject(new Error('quota')), fix)).toBe('Could not add it: quota');
  });
});
