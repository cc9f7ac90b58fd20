import { describe, expect, it } from 'vitest';
import { EXAMPLES } from '../examples/library';
import {
  budgetExhaustedMessage,
  buildAgentSystemPrompt,
  buildDatasetsContext,
  buildExamplesContext,
  buildFailedAttemptsContext,
  buildPythonContext,
  buildSystemContext,
  buildValidationPrompt,
  estimateTokens,
  loopDetectedMessage,
  validationFailedMessage,
  type DatasetContext,
} from './prompts';

const penguins: DatasetContext = {
  name: 'penguins',
  rowCount: 344,
  columns: [
    { name: 'species', type: 'VARCHAR', samples: ['Adelie', 'Gentoo', 'Chinstrap', 'Adelie'] },
    { name: 'body_mass_g', type: 'DOUBLE', samples: [3750, 3800.123456789, null] },
    { name: 'note', type: 'VARCHAR', samples: ['a, b', 'x'.repeat(60)] },
    { name: 'empty', type: 'INTEGER' },
  ],
};

describe('context builders', () => {
  it('lists tables, columns, types and a few samples', () => {
    const text = buildDatasetsContext([penguins]);
    expect(text).toContain('### penguins (344 rows, 4 columns)');
    expect(text).toContain('species VARCHAR: Adelie, Gentoo, Chinstrap');
    expect(text).not.toContain('Chinstrap, Adelie');
    expect(text).toContain('body_mass_g DOUBLE: 3750, 3800.12, NULL');
    expect(text).toContain('note VARCHAR: "a, b", ' + 'x'.repeat(23) + '…');
    expect(text).toMatch(/^empty INTEGER$/m);
  });

  it('says when no data is loaded and truncates very wide tables', () => {
    expect(buildDatasetsContext([])).toMatch(/No datasets/);
    const wide: DatasetContext = { name: 'w', rowCount: 1, columns: Array.from({ length: 10 }, (_, i) => ({ name: `c${i}`, type: 'INTEGER' })) };
    expect(buildDatasetsContext([wide], { maxColumns: 4 })).toContain('… and 6 more columns');
  });

  it('keeps a 50-column dataset within 1,500 tokens of global context', () => {
    const wide: DatasetContext = {
      name: 'survey_responses_2024',
      rowCount: 125000,
      columns: Array.from({ length: 50 }, (_, i) => ({
        name: `question_${i}_response_value`,
        type: i % 3 === 0 ? 'VARCHAR' : i % 3 === 1 ? 'DOUBLE' : 'TIMESTAMP',
        samples: i % 3 === 0 ? ['Strongly agree', 'Neutral', 'Disagree somewhat'] : i % 3 === 1 ? [12.3456, 7.25, 1003.5] : ['2024-01-01 10:00:00', '2024-02-11 08:30:00', '2024-03-01 00:00:00'],
      })),
    };
    const global = [buildSystemContext(new Date('2026-01-02T03:04:05Z'), 'UTC'), buildDatasetsContext([wide]), buildPythonContext(['pandas', 'numpy'])].join('\n\n');
    expect(estimateTokens(global)).toBeLessThanOrEqual(1500);
    expect(estimateTokens(global)).toBeGreaterThan(500);
  });

  it('states the date and time', () => {
    const text = buildSystemContext(new Date('2026-11-22T15:30:00Z'), 'UTC');
    expect(text).toContain('2026-11-22');
    expect(text).toContain('Sunday');
    expect(text).toContain('15:30');
  });

  it('describes the Python environment with and without pandas', () => {
    expect(buildPythonContext([])).toMatch(/pandas is NOT available/);
    // No Python worker connected: the model is told not to call run_python at all.
    expect(buildPythonContext(null)).toMatch(/run_python\) is NOT available.*do not call run_python/);
    expect(buildPythonContext(['pandas', 'numpy'])).toMatch(/numpy, pandas.*pandas DataFrame/);
  });

  it('lists failed attempts and examples only when there are some', () => {
    expect(buildFailedAttemptsContext([])).toBe('');
    expect(buildFailedAttemptsContext([{ code: 'print(x)', error: 'NameError' }])).toMatch(/FAILED[\s\S]*print\(x\)[\s\S]*NameError/);
    expect(buildExamplesContext([])).toBe('');
    expect(buildExamplesContext(EXAMPLES.slice(0, 1))).toContain(EXAMPLES[0]?.id ?? 'missing');
  });
});

describe('prompts', () => {
  it('assembles the agent prompt with every part, skipping empty ones', () => {
    const prompt = buildAgentSystemPrompt({
      systemContext: 'SYS',
      datasets: buildDatasetsContext([penguins]),
      python: 'PY',
      examples: '',
      failedAttempts: buildFailedAttemptsContext([{ code: 'SELEC', error: 'Parser Error' }]),
      summary: 'Earlier: mean mass 4201.75 g',
      iterationBudget: 8,
    });
    expect(prompt.startsWith('SYS')).toBe(true);
    for (const s of ['run_sql', 'validate_results', 'at most 8 tool rounds', 'penguins', 'PY', 'Earlier: mean mass', 'SELEC']) expect(prompt).toContain(s);
    expect(prompt).not.toMatch(/\n\n\n/);
  });

  it('gives the critic the question, approach, code and results', () => {
    const p = buildValidationPrompt({ question: 'Q?', approach: 'Welch t-test', results: 't=2.1', code: 'stats.ttest_ind', datasets: 'DS' });
    for (const s of ['Q?', 'Welch t-test', 't=2.1', 'stats.ttest_ind', 'DS']) expect(p).toContain(s);
  });

  it('writes guard messages with their details', () => {
    expect(loopDetectedMessage('run_sql', 'Binder Error')).toMatch(/LOOP DETECTED: run_sql[\s\S]*Binder Error/);
    expect(validationFailedMessage({ is_valid: false, issues: ['wrong filter'], suggestions: ['filter year'], confidence: 0.2 })).toMatch(/wrong filter[\s\S]*filter year/);
    expect(budgetExhaustedMessage(5, ['run_sql: SELECT 1'])).toMatch(/\(5\)[\s\S]*run_sql: SELECT 1/);
  });
});

describe('dataset notes', () => {
  it('says under a dataset how it was read (time zones stored as UTC, load report findings)', async () => {
    const { datasetNotes } = await import('../graph/context');
    const notes = datasetNotes({
      reader: "DuckDB's CSV reader (read_csv)",
      timeZones: [{ column: 'event_time', stored: 'utc' }],
      findings: [{ kind: 'placeholders', columns: ['price'], message: '"price" is numeric but for placeholder text ("N/A" ×2), so it was read as text.' }],
    });
    const text = buildDatasetsContext([{ name: 'events', rowCount: 2, columns: [{ name: 'event_time', type: 'TIMESTAMP' }], notes }]);
    expect(text).toContain('Note: event_time had time-zone offsets in the file and is stored as TIMESTAMP in UTC');
    expect(text).toContain('Note: Load report: "price" is numeric but for placeholder text');
    expect(datasetNotes(undefined)).toEqual([]);
  });

  it('says the load report is still checking, without waiting for it (a question right after a big load)', async () => {
    const { datasetNotes } = await import('../graph/context');
    const notes = datasetNotes({ reader: "DuckDB's CSV reader (read_csv)", timeZones: [], findings: [], checking: true });
    expect(notes.join('\n')).toMatch(/checks .* are still running; the table is usable as loaded/);
    expect(datasetNotes({ reader: 'x', timeZones: [], findings: [] })).toEqual([]);
  });
});
