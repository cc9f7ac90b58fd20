import { describe, expect, it } from 'vitest';
import type { FinalOutput } from '../../../protocol/agent/final';
import { checkRun, decisionIn, mentions, numbersIn, toleranceFor, within, type RunRecord } from './check';
import type { ExpectedAnswer } from './expected';
import type { GauntletQuestion } from './questions';

const q = (over: Partial<GauntletQuestion> = {}): GauntletQuestion => ({
  id: 'q', category: 'description', difficulty: 'easy', tables: ['penguins'], question: '?', kind: 'number', sql: '', ...over,
});
const final = (answer: string, over: Partial<FinalOutput> = {}): FinalOutput => ({
  answer, confidence: 0.9, output_type: 'analysis', caveats: [], reasoning_trace: [], ungrounded_numbers: [], failed_attempts: [], ...over,
});
const run = (f: FinalOutput | null, over: Partial<RunRecord> = {}): RunRecord => ({
  final: f, error: null, statuses: [], toolErrors: 0, validation: null, chartText: '', ...over,
});

describe('numbersIn', () => {
  it('reads thousands separators, signs, exponents and percentages', () => {
    expect(numbersIn('4,201.75 g and −0.54 and 1.2e3')).toEqual([4201.75, -0.54, 1200]);
    expect(numbersIn('R² is 75.9%')).toEqual([75.9, 0.759]);
    expect(numbersIn('from 2012-2015')).toEqual([2012, 2015]);
    expect(numbersIn('values 0.87, 0.76')).toEqual([0.87, 0.76]);
  });
});

describe('tolerance', () => {
  it('is exact for counts unless the question says otherwise', () => {
    expect(toleranceFor(q(), [344])).toEqual({ abs: 0 });
    expect(within(345, 344, { abs: 0 })).toBe(false);
    expect(within(344, 344, { abs: 0 })).toBe(true);
    expect(toleranceFor(q({ tolerance: { abs: 0.5 } }), [344])).toEqual({ abs: 0.5 });
  });
  it('allows the larger of the absolute and relative bound, inclusive at the edge', () => {
    expect(within(0.876, 0.8712, { abs: 0.005 })).toBe(true);
    expect(within(0.8762, 0.8712, { abs: 0.005 })).toBe(true);
    expect(within(0.8763, 0.8712, { abs: 0.005 })).toBe(false);
    expect(within(4222.7, 4201.75, { rel: 0.005 })).toBe(true);
    expect(within(4222.8, 4201.75, { rel: 0.005 })).toBe(false);
    expect(within(0.1 + 0.2, 0.3, { abs: 0 })).toBe(true);
  });
});

describe('words', () => {
  it('matches whole words, ignoring case, accents and punctuation', () => {
    expect(mentions('The Gentoo penguins are heaviest', 'gentoo')).toBe(true);
    expect(mentions('sunny days', 'sun')).toBe(false);
    expect(mentions('Body mass (g) by species', 'Body Mass ')).toBe(true);
  });
  it('reads the decision', () => {
    expect(decisionIn('Yes — t = 17.7')).toBe(true);
    expect(decisionIn('No. The difference is not significant.')).toBe(false);
    expect(decisionIn('The difference is not statistically significant')).toBe(false);
    expect(decisionIn('The difference is significant')).toBe(true);
    expect(decisionIn('Here are the numbers')).toBe(null);
  });
});

describe('checkRun', () => {
  const number: ExpectedAnswer = { kind: 'number', values: [4201.754386] };
  const meanMass = q({ tolerance: { abs: 0.5 } });

  it('numbers: right within tolerance, wrong outside it, none at all', () => {
    expect(checkRun(meanMass, number, run(final('The average is 4,201.75 g.')))).toMatchObject({ correct: true, failure: null });
    expect(checkRun(meanMass, number, run(final('The average is 4,202.3 g.')))).toMatchObject({ correct: false, failure: 'wrong_figure' });
    expect(checkRun(meanMass, number, run(final('Penguins are heavy.')))).toMatchObject({ correct: false, failure: 'no_figure' });
  });

  it('numbers: any accepted value counts (mean or median for "typical")', () => {
    const typical: ExpectedAnswer = { kind: 'number', values: [2979.413793, 2822.5] };
    const amb = q({ needsCaveat: true, tolerance: { abs: 0.5 } });
    expect(checkRun(amb, typical, run(final('About 2,822.5 lbs (median).', { caveats: ['Typical read as the median.'] })))).toMatchObject({ correct: true });
    expect(checkRun(amb, typical, run(final('The median is 2822.5 lbs.')))).toMatchObject({ correct: false, failure: 'missing_caveat' });
    // The app's own caveats are not about what the question means.
    expect(checkRun(amb, typical, run(final('The median is 2822.5 lbs.', { caveats: ['Not found in any tool output: 2822.5'] })))).toMatchObject({ failure: 'missing_caveat' });
    expect(checkRun(amb, typical, run(final('Assuming typical means the mean, 2979.4 lbs.')))).toMatchObject({ correct: true });
  });

  it('sets: every item, in any accepted spelling', () => {
    const islands: ExpectedAnswer = { kind: 'set', items: [['Biscoe'], ['Dream'], ['Torgersen']] };
    expect(checkRun(q({ kind: 'set' }), islands, run(final('Biscoe, Dream and Torgersen.')))).toMatchObject({ correct: true });
    expect(checkRun(q({ kind: 'set' }), islands, run(final('Biscoe and Dream.')))).toMatchObject({ correct: false, failure: 'wrong_figure', reason: expect.stringContaining('missing Torgersen') });
    const month: ExpectedAnswer = { kind: 'set', items: [['August', '8']] };
    expect(checkRun(q({ kind: 'set' }), month, run(final('Month 8 is the hottest.')))).toMatchObject({ correct: true });
  });

  it('yes/no: the decision and the statistic, either sign', () => {
    const t: ExpectedAnswer = { kind: 'yesno', answer: false, statistic: -0.5430902472 };
    const tq = q({ kind: 'yesno', tolerance: { abs: 0.02 } });
    expect(checkRun(tq, t, run(final('No: t = -0.54, p = 0.59.')))).toMatchObject({ correct: true });
    expect(checkRun(tq, t, run(final('No: t = 0.55.')))).toMatchObject({ correct: true });
    expect(checkRun(tq, t, run(final('Yes: t = -0.54.')))).toMatchObject({ correct: false, failure: 'wrong_figure' });
    expect(checkRun(tq, t, run(final('No: t = -0.60.')))).toMatchObject({ correct: false, failure: 'wrong_figure' });
    expect(checkRun(tq, t, run(final('Hard to say.')))).toMatchObject({ correct: false, failure: 'no_figure' });
  });

  it('tables: each key with its value, from the result table or the answer lines', () => {
    const bySex: ExpectedAnswer = { kind: 'table', rows: [{ key: 'FEMALE', value: 3862.272727 }, { key: 'MALE', value: 4545.684524 }] };
    const tq = q({ kind: 'table', tolerance: { abs: 0.5 } });
    expect(checkRun(tq, bySex, run(final('- Female: 3,862.3 g\n- Male: 4,545.7 g')))).toMatchObject({ correct: true });
    const viaResult = final('See the table.', { result: { columns: ['Sex', 'mean'], rows: [['FEMALE', 3862.27], ['MALE', 4545.68]] } });
    expect(checkRun(tq, bySex, run(viaResult))).toMatchObject({ correct: true });
    expect(checkRun(tq, bySex, run(final('- Female: 3,862.3 g\n- Male: 4,600 g')))).toMatchObject({ correct: false, reason: expect.stringContaining('1 of 2 rows') });
  });

  it('charts: a figure that plots the columns', () => {
    const chart: ExpectedAnswer = { kind: 'chart', columns: ['Horsepower', 'Miles_per_Gallon'] };
    const cq = q({ kind: 'chart' });
    const fig = { data: [{ type: 'scatter', x: [1], y: [2] }], layout: { xaxis: { title: { text: 'Horsepower' } }, yaxis: { title: { text: 'Miles_per_Gallon' } } } };
    expect(checkRun(cq, chart, run(final('Here it is.', { figures: [fig] })))).toMatchObject({ correct: true });
    expect(checkRun(cq, chart, run(final('Here it is.')))).toMatchObject({ correct: false, failure: 'no_figure' });
    expect(checkRun(cq, { kind: 'chart', columns: ['Weight_in_lbs'] }, run(final('Here.', { figures: [fig] })))).toMatchObject({ correct: false, failure: 'wrong_figure' });
    const mass: ExpectedAnswer = { kind: 'chart', columns: ['Body Mass (g)'] };
    expect(checkRun(cq, mass, run(final('Histogram.', { figures: [fig] }), { chartText: '{"x":"Body Mass (g)"}' }))).toMatchObject({ correct: true });
  });

  it('charts: the type drawn and, for values per category, the aggregate plotted', () => {
    // "Penguins per species": counts. A bar of mean body mass has the same columns and must fail.
    const perSpecies: ExpectedAnswer = { kind: 'chart', columns: ['Species'], chart: { type: 'bar', x: ['Adelie', 'Chinstrap', 'Gentoo'], y: [152, 68, 124] } };
    const cq = q({ kind: 'chart' });
    const bar = (y: unknown, over: Record<string, unknown> = {}) => ({ data: [{ type: 'bar', x: ['Adelie', 'Chinstrap', 'Gentoo'], y, ...over }] });
    expect(checkRun(cq, perSpecies, run(final('Counts per species.', { figures: [bar([152, 68, 124])] })))).toMatchObject({ correct: true });
    const means = checkRun(cq, perSpecies, run(final('Penguins per species.', { figures: [bar([3700.66, 3733.09, 5076.02])] }), { chartText: '{"x":"Species","y":"Body Mass (g)"}' }));
    expect(means).toMatchObject({ correct: false, failure: 'wrong_figure', reason: expect.stringContaining('adelie: 152 (plotted 3700.66)') });
    // The same counts as a pie are the wrong chart type; as horizontal bars they are right.
    const pie = { data: [{ type: 'pie', labels: ['Adelie', 'Chinstrap', 'Gentoo'], values: [152, 68, 124] }] };
    expect(checkRun(cq, perSpecies, run(final('Here.', { figures: [pie] })))).toMatchObject({ correct: false, reason: expect.stringContaining('draws pie') });
    const horizontal = { data: [{ type: 'bar', orientation: 'h', y: ['Adelie', 'Chinstrap', 'Gentoo'], x: [152, 68, 124] }] };
    expect(checkRun(cq, perSpecies, run(final('Here.', { figures: [horizontal] })))).toMatchObject({ correct: true });
    // plotly.py 6 writes arrays as {dtype, bdata}: little-endian int32 152, 68, 124.
    const packed = btoa(String.fromCharCode(...new Uint8Array(new Int32Array([152, 68, 124]).buffer)));
    expect(checkRun(cq, perSpecies, run(final('Here.', { figures: [bar({ dtype: 'i4', bdata: packed })] })))).toMatchObject({ correct: true });
    // One species missing is not the chart asked for.
    expect(checkRun(cq, perSpecies, run(final('Here.', { figures: [{ data: [{ type: 'bar', x: ['Adelie', 'Gentoo'], y: [152, 124] }] }] })))).toMatchObject({ correct: false });
  });

  it('charts: a line chart is a scatter trace with lines; markers alone are a scatter', () => {
    const line: ExpectedAnswer = { kind: 'chart', columns: ['temp_max'], chart: { type: 'line' } };
    const cq = q({ kind: 'chart' });
    const fig = (mode: string) => ({ data: [{ type: 'scatter', mode, x: ['2012-01-01'], y: [12.8] }], layout: { yaxis: { title: { text: 'temp_max' } } } });
    expect(checkRun(cq, line, run(final('Here.', { figures: [fig('lines')] })))).toMatchObject({ correct: true });
    expect(checkRun(cq, line, run(final('Here.', { figures: [fig('lines+markers')] })))).toMatchObject({ correct: true });
    expect(checkRun(cq, line, run(final('Here.', { figures: [fig('markers')] })))).toMatchObject({ correct: false, failure: 'wrong_figure' });
  });

  it('numbers count only where the answer states them, not in a result it never mentions', () => {
    const count: ExpectedAnswer = { kind: 'number', values: [344] };
    const withResult = final('There are many penguins.', { result: { columns: ['n'], rows: [[344]] } });
    expect(checkRun(q(), count, run(withResult))).toMatchObject({ correct: false });
    expect(checkRun(q(), count, run(final('There are 344 penguins.', { result: { columns: ['n'], rows: [[344]] } })))).toMatchObject({ correct: true });
  });

  it('a yes/no question without a statistic is judged on the decision alone', () => {
    const yn: ExpectedAnswer = { kind: 'yesno', answer: true };
    expect(checkRun(q({ kind: 'yesno' }), yn, run(final('Yes, it is.')))).toMatchObject({ correct: true });
    expect(checkRun(q({ kind: 'yesno' }), yn, run(final('No.')))).toMatchObject({ correct: false });
  });

  it('classifies failures: provider error, refusal, budget, loop, validation', () => {
    expect(checkRun(meanMass, number, run(null, { error: { message: 'HTTP 500', kind: 'server' } }))).toMatchObject({ failure: 'provider_error', reason: 'HTTP 500' });
    expect(checkRun(meanMass, number, run(final("I'm unable to help with that.")))).toMatchObject({ failure: 'refused' });
    expect(checkRun(meanMass, number, run(null, { statuses: ['budget_exhausted'] }))).toMatchObject({ failure: 'budget_exhausted' });
    expect(checkRun(meanMass, number, run(final('It is 12.'), { statuses: ['loop_detected'], toolErrors: 3 }))).toMatchObject({ failure: 'tool_error_loop' });
    expect(checkRun(meanMass, number, run(final('It is 12.'), { validation: false }))).toMatchObject({ failure: 'validation_disagreed' });
    expect(checkRun(meanMass, number, run(final('It is 4201.8.'), { validation: false }))).toMatchObject({ correct: true });
  });
});
