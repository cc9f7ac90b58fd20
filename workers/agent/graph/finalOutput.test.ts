import { describe, expect, it } from 'vitest';
import { FinalOutputSchema } from '../../../protocol/agent/final';
import type { ValidationReport } from '../../../protocol/agent/structured';
import { buildFinalOutput, reasoningTrace, UNVALIDATED_CONFIDENCE } from './finalOutput';
import type { ToolOutcome } from '../core/guard';

const sqlOut = { columns: [{ name: 'species' }, { name: 'mean' }], rows: [['Adelie', 3700.662], ['Gentoo', 5076.016]], row_count: 2 };
const sql: ToolOutcome = { callId: 'c1', tool: 'run_sql', args: { sql: 'SELECT species, avg(body_mass_g) AS mean FROM penguins GROUP BY 1' }, ok: true };
const badPy: ToolOutcome = { callId: 'c0', tool: 'run_python', args: { code: 'df.groupby(x)' }, ok: false, error: "Error: NameError: name 'x' is not defined" };
const valid = (r: Partial<ValidationReport>): ToolOutcome => ({
  callId: 'v',
  tool: 'validate_results',
  args: {},
  ok: true,
  report: { is_valid: true, issues: [], suggestions: [], confidence: 0.85, ...r },
});

describe('buildFinalOutput', () => {
  it('builds a grounded analysis with code, trace and the validation confidence', () => {
    const out = buildFinalOutput({
      answer: 'Gentoo penguins are heaviest at 5,076.0 g on average; Adelie average 3,700.7 g.',
      question: 'Which species is heaviest?',
      outcomes: [badPy, sql, valid({})],
      toolOutputs: [sqlOut],
      result: sqlOut,
    });
    expect(FinalOutputSchema.safeParse(out).success).toBe(true);
    expect(out).toMatchObject({ output_type: 'analysis', confidence: 0.85, ungrounded_numbers: [], caveats: [] });
    expect(out.code).toEqual(['SELECT species, avg(body_mass_g) AS mean FROM penguins GROUP BY 1']);
    expect(out.failed_attempts).toEqual([{ code: 'df.groupby(x)', error: "Error: NameError: name 'x' is not defined" }]);
    expect(out.reasoning_trace).toEqual([
      "run_python: df.groupby(x) → Error: NameError: name 'x' is not defined",
      'run_sql: SELECT species, avg(body_mass_g) AS mean FROM penguins GROUP BY 1',
      'validate_results: passed, confidence 0.85',
    ]);
    expect(out.result).toBe(sqlOut);
  });

  it('flags invented numbers, lists them as a caveat and caps confidence', () => {
    const out = buildFinalOutput({ answer: 'Gentoo average 5,200 g, a gap of 1,375.35 g.', question: 'q', outcomes: [sql, valid({ confidence: 0.95 })], toolOutputs: [sqlOut] });
    expect(out.ungrounded_numbers).toEqual(['5,200', '1,375.35']);
    expect(out.caveats.at(-1)).toMatch(/5,200, 1,375\.35/);
    expect(out.confidence).toBe(0.5);
  });

  it('carries failed validation issues and earlier caveats', () => {
    const out = buildFinalOutput({
      answer: 'Adelie 3700.66 g.',
      question: 'q',
      outcomes: [sql, valid({ is_valid: false, issues: ['sex not filtered'], confidence: 0.7 })],
      toolOutputs: [sqlOut],
      caveats: ['The results did not pass validation:'],
    });
    expect(out.caveats).toEqual(['The results did not pass validation:', 'sex not filtered']);
    expect(out.confidence).toBe(0.4);
  });

  it('chooses the output type', () => {
    const fig = { data: [{ type: 'bar' }] };
    expect(buildFinalOutput({ answer: 'See the chart.', question: 'q', outcomes: [sql], toolOutputs: [], figures: [fig] }).output_type).toBe('visualization');
    const plain = buildFinalOutput({ answer: 'A t-test compares two means.', question: 'What is a t-test?', outcomes: [], toolOutputs: [] });
    expect(plain).toMatchObject({ output_type: 'explanation', confidence: 0.7 });
    expect(plain.code).toBeUndefined();
    const unvalidated = buildFinalOutput({ answer: 'ok', question: 'q', outcomes: [sql], toolOutputs: [sqlOut] });
    expect(unvalidated.confidence).toBe(UNVALIDATED_CONFIDENCE);
    expect(buildFinalOutput({ answer: 'It failed.', question: 'q', outcomes: [badPy], toolOutputs: [], failed: true }).output_type).toBe('error');
  });

  it('an empty answer is a failed run that says why, with no confidence to state', () => {
    const out = buildFinalOutput({ answer: '  ', question: 'q', outcomes: [], toolOutputs: [] });
    expect(out).toMatchObject({ output_type: 'error', confidence: 0 });
    expect(out.answer).toMatch(/^No answer was produced\. The model ended its reply without writing an answer\./);
    expect(buildFinalOutput({ answer: '', question: 'q', outcomes: [], toolOutputs: [], finishReason: 'length' }).answer).toMatch(/ran out of output tokens/);
    expect(buildFinalOutput({ answer: '', question: 'q', outcomes: [], toolOutputs: [], onlyReasoning: true }).answer).toMatch(/see Thinking/);
    expect(buildFinalOutput({ answer: 'It failed.', question: 'q', outcomes: [badPy], toolOutputs: [], failed: true }).confidence).toBe(0);
  });

  it('an answer written when the budget ran out is marked partial', () => {
    expect(buildFinalOutput({ answer: 'So far: 42 rows.', question: 'q', outcomes: [sql], toolOutputs: [sqlOut], partial: true }).partial).toBe(true);
    expect(buildFinalOutput({ answer: 'Done: 42 rows.', question: 'q', outcomes: [sql], toolOutputs: [sqlOut] }).partial).toBeUndefined();
  });

  it('summarises long code in the trace', () => {
    const long: ToolOutcome = { callId: 'l', tool: 'run_python', args: { code: 'x = 1\n'.repeat(50) }, ok: true };
    const [line] = reasoningTrace([long]);
    expect(line?.length).toBeLessThanOrEqual(95);
    expect(line).toMatch(/^run_python: x = 1 x = 1.*…$/);
  });
});
