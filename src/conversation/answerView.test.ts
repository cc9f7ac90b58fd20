import { describe, expect, it } from 'vitest';
import type { FinalOutput } from '../../protocol/agent/final';
import { distinctCaveats, confidenceOf, outcomeOf, splitFollowUps } from './answerView';

const final = (over: Partial<FinalOutput> = {}): FinalOutput => ({
  answer: 'There are 344 penguins.',
  confidence: 0.9,
  output_type: 'analysis',
  caveats: [],
  reasoning_trace: [],
  ungrounded_numbers: [],
  failed_attempts: [],
  code: ['SELECT count(*) FROM penguins'],
  ...over,
});

describe('the answer card', () => {
  it('shows one confidence, capped when the answer has figures no tool output showed', () => {
    expect(confidenceOf(final()).level).toBe('high');
    const c = confidenceOf(final({ ungrounded_numbers: ['345'] }));
    expect(c.value).toBe(0.4);
    expect(c.level).toBe('low');
    expect(c.reason).toMatch(/1 figure/);
  });

  it('says a run failed when it has no answer or is an error', () => {
    expect(outcomeOf(final())).toBe('answered');
    expect(outcomeOf(final({ answer: '  ' }))).toBe('failed');
    expect(outcomeOf(final({ output_type: 'error', answer: 'The endpoint refused' }))).toBe('failed');
  });

  it('takes the trailing follow-up questions off the answer', () => {
    const { body, followUps } = splitFollowUps('Adelie is the most common.\n\n**Next you could ask:**\n- Which island has most?\n- How heavy are they?\n');
    expect(body).toBe('Adelie is the most common.');
    expect(followUps).toEqual(['Which island has most?', 'How heavy are they?']);
  });

  it('leaves an answer alone when the list after the lead-in is not all questions', () => {
    const text = 'Done.\n\nYou could also ask:\n- about islands\n- How heavy are they?';
    expect(splitFollowUps(text)).toEqual({ body: text, followUps: [] });
    expect(splitFollowUps('No follow-ups here.').followUps).toEqual([]);
  });

  it('drops a caveat that repeats the ungrounded-figures note, and repeated caveats', () => {
    expect(distinctCaveats(final({ ungrounded_numbers: ['345'], caveats: ['These figures … : 345.', 'Sample is small.', 'Sample is small.'] }))).toEqual([
      'Sample is small.',
    ]);
    expect(distinctCaveats(final({ caveats: ['Mentions 345 but nothing is ungrounded.'] }))).toHaveLength(1);
  });
});
