import { describe, expect, it } from 'vitest';
import type { ValidationReport } from '../../../protocol/agent/structured';
import {
  consecutiveCodeFailures,
  decide,
  detectLoop,
  errorSignature,
  estimateComplexity,
  failedAttempts,
  iterationBudget,
  validationRequired,
  type GuardInput,
  type ToolOutcome,
} from './guard';

let n = 0;
const ok = (tool: string, args: unknown = {}): ToolOutcome => ({ callId: `c${n++}`, tool, args, ok: true });
const fail = (tool: string, error: string, args: unknown = {}): ToolOutcome => ({ callId: `c${n++}`, tool, args, ok: false, error });
const report = (is_valid: boolean, issues: string[] = []): ValidationReport => ({ is_valid, issues, suggestions: [], confidence: is_valid ? 0.9 : 0.3 });
const validated = (r: ValidationReport): ToolOutcome => ({ ...ok('validate_results'), report: r });
const input = (over: Partial<GuardInput>): GuardInput => ({ outcomes: [], iterations: 1, budget: 8, wantsToAnswer: false, loopWarnings: 0, revisions: 0, ...over });

describe('complexity and budget', () => {
  it.each([
    ['How many rows are there?', 1, 'simple', 5],
    ['What is the average body mass per species?', 1, 'simple', 5],
    ['Is there a significant difference in mass between the sexes?', 1, 'standard', 8],
    ['Is flipper length correlated with mass?', 1, 'standard', 8],
    ['Compare the islands', 1, 'standard', 8],
    ['Predict the price from the size', 1, 'complex', 10],
    ['Cluster the customers', 1, 'complex', 10],
    ['Join orders with customers and total by region', 2, 'complex', 10],
    ['What is in the second table?', 2, 'standard', 8],
  ] as const)('%s (%i datasets) → %s', (q, d, c, b) => {
    expect(estimateComplexity(q, d)).toBe(c);
    expect(iterationBudget(q, d)).toBe(b);
  });
});

describe('loop detection', () => {
  it('normalises numbers and case in error signatures', () => {
    expect(errorSignature('Error: NameError at line 3')).toBe(errorSignature('error: nameerror at line 14'));
    expect(errorSignature('column "x" not found')).not.toBe(errorSignature('table "x" not found'));
  });

  it('fires when the same tool fails the same way twice', () => {
    const loop = detectLoop([fail('run_python', "Error: KeyError: 'mass' (line 2)"), fail('run_python', "Error: KeyError: 'mass' (line 5)")]);
    expect(loop).toMatchObject({ tool: 'run_python' });
  });

  it('tolerates other tools in between, but not a success of the same tool', () => {
    expect(detectLoop([fail('run_sql', 'Error: Binder Error: column x'), ok('profile_data'), fail('run_sql', 'Error: Binder Error: column x')])).not.toBeNull();
    expect(detectLoop([fail('run_sql', 'Error: Binder Error: column x'), ok('run_sql'), fail('run_sql', 'Error: Binder Error: column x')])).toBeNull();
  });

  it('does not fire for different errors, different tools or a final success', () => {
    expect(detectLoop([fail('run_sql', 'Error: syntax error'), fail('run_sql', 'Error: Binder Error: column x')])).toBeNull();
    expect(detectLoop([fail('run_sql', 'Error: x'), fail('run_python', 'Error: x')])).toBeNull();
    expect(detectLoop([fail('run_sql', 'Error: x'), fail('run_sql', 'Error: x'), ok('run_sql')])).toBeNull();
    expect(detectLoop([])).toBeNull();
  });

  it('only looks at the recent window', () => {
    const old = [fail('run_sql', 'Error: x'), ok('a'), ok('b'), ok('c'), ok('d'), ok('e'), ok('f')];
    expect(detectLoop([...old, fail('run_sql', 'Error: x')])).toBeNull();
  });
});

describe('validation bookkeeping', () => {
  it('requires validation after successful code, not after failures or other tools', () => {
    expect(validationRequired([ok('profile_data')])).toBe(false);
    expect(validationRequired([fail('run_sql', 'Error: x')])).toBe(false);
    expect(validationRequired([ok('run_sql')])).toBe(true);
    expect(validationRequired([ok('create_chart')])).toBe(true);
    expect(validationRequired([ok('run_sql'), validated(report(true))])).toBe(false);
    expect(validationRequired([ok('run_sql'), validated(report(true)), ok('run_python')])).toBe(true);
  });

  it('collects failed attempts with their code', () => {
    const attempts = failedAttempts([
      fail('run_python', 'Error: NameError', { code: 'print(x)' }),
      ok('run_sql', { sql: 'SELECT 1' }),
      fail('run_sql', 'Error: Parser Error', { sql: 'SELEC 1' }),
      fail('profile_data', 'Error: no such dataset', { dataset: 'x' }),
    ]);
    expect(attempts).toEqual([
      { code: 'print(x)', error: 'Error: NameError' },
      { code: 'SELEC 1', error: 'Error: Parser Error' },
    ]);
  });

  it('counts consecutive code failures since the last code success', () => {
    expect(consecutiveCodeFailures([fail('run_sql', 'a'), ok('run_sql'), fail('run_sql', 'b'), ok('profile_data'), fail('run_python', 'c')])).toBe(2);
    expect(consecutiveCodeFailures([ok('run_sql')])).toBe(0);
  });
});

describe('decide', () => {
  it('forces validation when the model answers after unvalidated code', () => {
    expect(decide(input({ outcomes: [ok('run_sql')], wantsToAnswer: true }))).toEqual({ kind: 'validate' });
  });

  it('forces validation even past the budget', () => {
    expect(decide(input({ outcomes: [ok('run_sql')], wantsToAnswer: true, iterations: 9, budget: 8 }))).toEqual({ kind: 'validate' });
  });

  it('finalizes when validated, or when no code ran', () => {
    expect(decide(input({ outcomes: [ok('run_sql'), validated(report(true))], wantsToAnswer: true }))).toEqual({ kind: 'finalize', caveats: [] });
    expect(decide(input({ outcomes: [], wantsToAnswer: true }))).toEqual({ kind: 'finalize', caveats: [] });
  });

  it('loops back on a failed validation at most twice, then finalizes with caveats', () => {
    const r1 = report(false, ['wrong grouping']);
    const once = [ok('run_sql'), validated(r1)];
    expect(decide(input({ outcomes: once, wantsToAnswer: true, revisions: 0 }))).toEqual({ kind: 'revise', report: r1 });
    // the model answered again without new code: that report already had its revision
    expect(decide(input({ outcomes: once, wantsToAnswer: true, revisions: 1 }))).toMatchObject({ kind: 'finalize' });
    const twice = [...once, ok('run_sql'), validated(report(false, ['still wrong']))];
    expect(decide(input({ outcomes: twice, wantsToAnswer: true, revisions: 1 }))).toMatchObject({ kind: 'revise' });
    const thrice = [...twice, ok('run_sql'), validated(report(false, ['nope']))];
    expect(decide(input({ outcomes: thrice, wantsToAnswer: true, revisions: 2 }))).toEqual({
      kind: 'finalize',
      caveats: ['The results did not pass validation:', 'nope'],
    });
  });

  it('degrades when the budget is used up and the model still wants tools', () => {
    expect(decide(input({ outcomes: [ok('run_sql')], iterations: 5, budget: 5 }))).toMatchObject({ kind: 'degrade' });
  });

  it('diverges on a loop (twice at most), and asks for a new approach after 3 code failures', () => {
    const loop = [fail('run_python', 'Error: KeyError x'), fail('run_python', 'Error: KeyError x')];
    expect(decide(input({ outcomes: loop }))).toMatchObject({ kind: 'diverge', loop: { tool: 'run_python' } });
    expect(decide(input({ outcomes: loop, loopWarnings: 2 }))).toEqual({ kind: 'continue' });
    const three = [fail('run_python', 'Error: a'), fail('run_sql', 'Error: b'), fail('run_python', 'Error: c')];
    expect(decide(input({ outcomes: three }))).toEqual({ kind: 'change_approach', failures: 3 });
    expect(decide(input({ outcomes: [ok('run_sql')] }))).toEqual({ kind: 'continue' });
  });
});
