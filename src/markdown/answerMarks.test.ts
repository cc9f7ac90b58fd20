import { describe, expect, it } from 'vitest';
import { markUngrounded } from './answerMarks';

describe('markUngrounded', () => {
  it('flags exactly the ungrounded numbers, not digits inside other numbers', () => {
    const segs = markUngrounded('Mean 3700.66 g over 151 birds; 15 of 1510 were 3.151 m.', ['151', '15']);
    expect(segs.filter((s) => s.ungrounded).map((s) => s.text)).toEqual(['151', '15']);
    expect(segs.map((s) => s.text).join('')).toBe('Mean 3700.66 g over 151 birds; 15 of 1510 were 3.151 m.');
  });

  it('returns the answer whole when nothing is ungrounded, and handles regex characters', () => {
    expect(markUngrounded('All fine.', [])).toEqual([{ text: 'All fine.', ungrounded: false }]);
    expect(markUngrounded('', [])).toEqual([]);
    expect(markUngrounded('Up 1.5% (1+1)', ['1.5%']).filter((s) => s.ungrounded).map((s) => s.text)).toEqual(['1.5%']);
  });
});
