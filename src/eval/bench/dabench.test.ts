// The rules replayed here are those of InfiAgent-DABench's eval_closed_form.py
// (github.com/InfiAgent/InfiAgent, examples/DA-Agent/eval_closed_form.py): extract with
// r"@(\w+)\[(.*?)\]", compare with == then float() within 1e-6. The questions, labels and
// responses are written for this test, in the benchmark's format; none is copied from it.
import { describe, expect, it } from 'vitest';
import { dabenchPrompt, extractFormat, isEqual, parseLabels, parseQuestions, pyFloat, scoreResponse, summariseDabench, type DabenchItem, type DabenchLabel, type DabenchQuestion } from './dabench';

const label = (id: string, answers: [string, string][]): DabenchLabel => ({ id, answers });

describe('extractFormat', () => {
  it('reads every @name[value] pair, the last one winning when a name repeats', () => {
    const got = extractFormat('First @rain_days[12], then @mean_temp[14.20] and finally @rain_days[13].');
    expect([...got.entries()]).toEqual([['rain_days', '13'], ['mean_temp', '14.20']]);
  });
  it('keeps the value as written: spaces, commas and an empty value', () => {
    const got = extractFormat('@towns[Leeds, York] @gap[ 3 ] @none[]');
    expect(got.get('towns')).toBe('Leeds, York');
    expect(got.get('gap')).toBe(' 3 ');
    expect(got.get('none')).toBe('');
  });
  it('stops a value at the first ] and never across a line', () => {
    expect(extractFormat('@ids[[1, 2]]').get('ids')).toBe('[1, 2');
    expect(extractFormat('@note[line one\nline two]').has('note')).toBe(false);
  });
  it('takes Unicode word characters in a name, as Python 3 does', () => {
    expect(extractFormat('@température_moy[7.5]').get('température_moy')).toBe('7.5');
    expect(extractFormat('@bad-name[1]').has('bad-name')).toBe(false);
  });
});

describe('pyFloat and isEqual', () => {
  it('reads what Python float() reads and refuses what it refuses', () => {
    expect(pyFloat(' 2.50 ')).toBe(2.5);
    expect(pyFloat('1_000')).toBe(1000);
    expect(pyFloat('1.')).toBe(1);
    expect(pyFloat('-.5e1')).toBe(-5);
    expect(pyFloat('-Infinity')).toBe(-Infinity);
    expect(pyFloat('١٢')).toBe(12);
    expect(pyFloat('\u00a02\u2003')).toBe(2);
    expect(pyFloat('\u00852\u000b')).toBe(2);
    expect(Number.isNaN(pyFloat('nan'))).toBe(true);
    for (const bad of ['1__0', '0x10', '12%', '1,000', '', 'yes', '_1', '\ufeff2', '\u200b2', '\u001c2']) expect(pyFloat(bad)).toBeNull();
  });
  it('matches numbers within 1e-6, so 0.50 equals 0.5 but 0.51 does not', () => {
    expect(isEqual('0.5', '0.50')).toBe(true);
    expect(isEqual(' 0.50', '0.5')).toBe(true);
    expect(isEqual('0.51', '0.50')).toBe(false);
    expect(isEqual('0.5000001', '0.5')).toBe(true);
    expect(isEqual('0.500002', '0.5')).toBe(false);
  });
  it('matches text exactly: no case folding, no stripping', () => {
    expect(isEqual('no', 'no')).toBe(true);
    expect(isEqual('No', 'no')).toBe(false);
    expect(isEqual(' no', 'no')).toBe(false);
    expect(isEqual('', '')).toBe(true);
    expect(isEqual(null, '')).toBe(false);
  });
  it('never matches nan, and inf only as the same text', () => {
    expect(isEqual('nan', 'NaN')).toBe(false);
    expect(isEqual('inf', 'inf')).toBe(true);
    expect(isEqual('inf', 'Infinity')).toBe(false);
  });
});

describe('scoreResponse', () => {
  const l = label('7', [['mean_speed', '41.37'], ['is_skewed', 'yes'], ['outliers', '3']]);
  it('scores a fully right response right on every sub-answer', () => {
    const sub = scoreResponse('The mean is @mean_speed[41.37], @is_skewed[yes], @outliers[3].', l);
    expect(sub.map((s) => s.correct)).toEqual([true, true, true]);
  });
  it('scores each sub-answer on its own: a wrong value, a wrong case and a missing one', () => {
    const sub = scoreResponse('@mean_speed[41.370] @is_skewed[Yes]', l);
    expect(sub).toEqual([
      { name: 'mean_speed', expected: '41.37', got: '41.370', correct: true },
      { name: 'is_skewed', expected: 'yes', got: 'Yes', correct: false },
      { name: 'outliers', expected: '3', got: null, correct: false },
    ]);
  });
  it('reads no answer from prose without the format', () => {
    expect(scoreResponse('The mean speed is 41.37 and it is skewed with 3 outliers.', l).every((s) => !s.correct)).toBe(true);
  });
  it('ignores names the label does not ask for', () => {
    expect(scoreResponse('@extra[1] @mean_speed[41.37] @is_skewed[yes] @outliers[3.0]', l).every((s) => s.correct)).toBe(true);
  });
});

describe('summariseDabench', () => {
  const items: DabenchItem[] = [
    { id: '1', level: 'easy', concepts: ['Summary Statistics'], sub: [{ name: 'a', expected: '1', got: '1', correct: true }] },
    { id: '2', level: 'medium', concepts: ['Summary Statistics', 'Outlier Detection'], sub: [
      { name: 'a', expected: '1', got: '1', correct: true }, { name: 'b', expected: '2', got: '3', correct: false }] },
    { id: '3', level: 'hard', concepts: ['Outlier Detection'], sub: [
      { name: 'a', expected: '1', got: '1', correct: true }, { name: 'b', expected: '2', got: '2', correct: true },
      { name: 'c', expected: 'x', got: null, correct: false }, { name: 'd', expected: 'y', got: 'y', correct: true }] },
  ];
  it('reports by question, by sub-question and proportionally as the authors define them', () => {
    const s = summariseDabench(items);
    expect(s.byQuestion).toBeCloseTo(1 / 3, 10);
    expect(s.bySubQuestion).toBeCloseTo(5 / 7, 10);
    expect(s.proportional).toBeCloseTo((1 + 0.5 + 0.75) / 3, 10);
  });
  it('reports by level and by concept, a question counting under each of its concepts', () => {
    const s = summariseDabench(items);
    expect(s.byLevel).toEqual([
      { key: 'easy', n: 1, correct: 1, accuracy: 1 },
      { key: 'medium', n: 1, correct: 0, accuracy: 0 },
      { key: 'hard', n: 1, correct: 0, accuracy: 0 },
    ]);
    expect(s.byConcept).toEqual([
      { key: 'Summary Statistics', n: 2, correct: 1, accuracy: 0.5 },
      { key: 'Outlier Detection', n: 2, correct: 0, accuracy: 0 },
    ]);
  });
  it('counts a question with no sub-answers right, as Python all([]) does', () => {
    expect(summariseDabench([{ id: '9', level: 'easy', concepts: [], sub: [] }]).byQuestion).toBe(1);
  });
});

describe('the files', () => {
  it('reads questions and labels, ids as numbers or strings', () => {
    const q = parseQuestions('{"id": 3, "question": "How fast?", "concepts": ["Summary Statistics"], "constraints": "Round to 2 places.", "format": "@mean_speed[value]", "file_name": "bikes.csv", "level": "easy"}\n\n');
    expect(q).toEqual({ ok: true, value: [{ id: '3', question: 'How fast?', concepts: ['Summary Statistics'], constraints: 'Round to 2 places.', format: '@mean_speed[value]', file_name: 'bikes.csv', level: 'easy' }] });
    const l = parseLabels('{"id": "3", "common_answers": [["mean_speed", "41.37"], ["n", 12]]}');
    expect(l).toEqual({ ok: true, value: [{ id: '3', answers: [['mean_speed', '41.37'], ['n', '12']] }] });
  });
  it('says which line is wrong', () => {
    expect(parseQuestions('{"id": 1, "question": "q", "file_name": "a.csv"}\n{oops')).toMatchObject({ ok: false, error: expect.stringContaining('line 2') });
    expect(parseLabels('{"id": 1}')).toMatchObject({ ok: false, error: expect.stringContaining('common_answers') });
  });
  it('puts the format and the table into the prompt', () => {
    const parsed = parseQuestions('{"id": 3, "question": "How fast?", "constraints": "Round.", "format": "@mean_speed[value]", "file_name": "bikes.csv"}');
    if (!parsed.ok) throw new Error(parsed.error);
    const text = dabenchPrompt(parsed.value[0] as DabenchQuestion, 'bikes');
    expect(text).toContain('Format: @mean_speed[value]');
    expect(text).toContain('Constraints: Round.');
    expect(text).toContain('loaded as the table bikes');
  });
});
