import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../protocol/agent/wire';
import type { FinalOutput } from '../../protocol/agent/final';
import type { ThreadView } from '../../protocol/agent/threadView';
import { applyEvent, countedSteps, newTurn, turnsFromThread, type ToolStep } from './turns';

const final = (answer: string): FinalOutput => ({
  answer,
  confidence: 0.9,
  output_type: 'analysis',
  caveats: [],
  reasoning_trace: [],
  ungrounded_numbers: [],
  failed_attempts: [],
});

function play(events: RunEvent[]) {
  const turn = newTurn('t', 'Q?');
  for (const e of events) applyEvent(turn, e);
  return turn;
}

describe('applyEvent', () => {
  it('drops the text (and thinking) of a reply that broke off and is asked for again', () => {
    const turn = play([
      { type: 'run_start', thread_id: 'th', run_id: 'r', mode: 'agent' },
      { type: 'node', name: 'agent', answer: true },
      { type: 'reasoning', text: 'half a thought' },
      { type: 'token', text: 'Gentoo pengu' },
      { type: 'status', kind: 'retrying', detail: 'The endpoint reported an error in the middle of its reply.', discard_partial: true },
      { type: 'token', text: 'Gentoo penguins weigh 5076.02 g.' },
    ]);
    expect(turn.text).toBe('Gentoo penguins weigh 5076.02 g.');
    expect(turn.steps).toEqual([{ kind: 'status', status: 'retrying', detail: 'The endpoint reported an error in the middle of its reply.' }]);
  });

  it('streams the answer, records tool steps and keeps text written before tools as a note', () => {
    const turn = play([
      { type: 'run_start', thread_id: 'th', run_id: 'r', mode: 'agent' },
      { type: 'node', name: 'agent', answer: true },
      { type: 'token', text: 'Let me ' },
      { type: 'token', text: 'query.' },
      { type: 'tool_start', call_id: 'c1', tool: 'run_sql', args: { sql: 'SELECT 1' } },
      { type: 'tool_end', call_id: 'c1', tool: 'run_sql', output: { columns: [{ name: 'x', type: 'INTEGER' }], rows: [[1]], row_count: 1, truncated: false, elapsed_ms: 1 }, elapsed_ms: 12 },
      { type: 'node', name: 'agent', answer: true },
      { type: 'token', text: 'It is ' },
      { type: 'token', text: '1.' },
    ]);
    expect(turn.text).toBe('It is 1.');
    expect(turn.steps[0]).toEqual({ kind: 'note', text: 'Let me query.' });
    expect(turn.steps[1]).toMatchObject({ kind: 'tool', tool: 'run_sql', state: 'done', elapsed_ms: 12, args: { sql: 'SELECT 1' } });
    expect(turn.state).toBe('running');
    applyEvent(turn, { type: 'final', output: final('It is 1.') });
    applyEvent(turn, { type: 'run_end', thread_id: 'th', run_id: 'r' });
    expect(turn.state).toBe('done');
    expect(turn.final?.answer).toBe('It is 1.');
  });

  it('sets text aside only when an answering node starts', () => {
    const turn = play([
      { type: 'node', name: 'agent', answer: true },
      { type: 'token', text: 'Thinking aloud.' },
      { type: 'node', name: 'finalize', answer: false },
    ]);
    expect(turn.text).toBe('Thinking aloud.');
    applyEvent(turn, { type: 'node', name: 'answer', answer: true });
    expect(turn.text).toBe('');
    expect(turn.steps).toEqual([{ kind: 'note', text: 'Thinking aloud.' }]);
  });

  it('marks failed tools, statuses and a draft sent back for validation', () => {
    const turn = play([
      { type: 'tool_start', call_id: 'c1', tool: 'run_sql', args: {} },
      { type: 'tool_error', call_id: 'c1', tool: 'run_sql', error: 'Error: bad' },
      { type: 'token', text: 'Draft' },
      { type: 'status', kind: 'validating', detail: 'checking' },
    ]);
    expect((turn.steps[0] as ToolStep).state).toBe('failed');
    expect(turn.steps.slice(1)).toEqual([
      { kind: 'note', text: 'Draft' },
      { kind: 'status', status: 'validating', detail: 'checking' },
    ]);
    expect(turn.text).toBe('');
  });

  it('shows a validated draft once: in the answer card, not also as a note', () => {
    const turn = play([
      { type: 'token', text: 'Draft answer' },
      { type: 'status', kind: 'validating', detail: 'checking' },
      { type: 'tool_start', call_id: 'v', tool: 'validate_results', args: {} },
      { type: 'tool_end', call_id: 'v', tool: 'validate_results', output: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 }, elapsed_ms: 3 },
      { type: 'final', output: final('Draft answer') },
    ]);
    // Once the check has run, its "Validating" line is stale: the check's own step remains.
    expect(turn.steps.map((s) => s.kind)).toEqual(['tool']);
    expect(turn.final?.answer).toBe('Draft answer');
  });

  it("counts the model's tool calls, not the guard's own check, so the count is the same after a reload", () => {
    const turn = play([
      { type: 'tool_start', call_id: 's', tool: 'run_sql', args: {} },
      { type: 'tool_end', call_id: 's', tool: 'run_sql', output: { columns: [], rows: [], row_count: 0, truncated: false, elapsed_ms: 1 }, elapsed_ms: 1 },
      { type: 'tool_start', call_id: 'm', tool: 'validate_results', args: {} },
      { type: 'tool_end', call_id: 'm', tool: 'validate_results', output: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 }, elapsed_ms: 1 },
      { type: 'token', text: 'Draft' },
      { type: 'status', kind: 'validating', detail: 'checking' },
      { type: 'tool_start', call_id: 'g', tool: 'validate_results', args: {} },
      { type: 'tool_error', call_id: 'g', tool: 'validate_results', error: 'Error: no critic' },
    ]);
    expect(turn.steps.filter((s) => s.kind === 'tool').map((s) => [s.call_id, s.check ?? false])).toEqual([
      ['s', false],
      ['m', false],
      ['g', true],
    ]);
    expect(turn.steps.some((s) => s.kind === 'status')).toBe(false);
    expect(countedSteps(turn.steps)).toBe(2);
  });

  it('keeps a note that differs from the final answer', () => {
    const turn = play([
      { type: 'token', text: 'Let me check.' },
      { type: 'tool_start', call_id: 'c', tool: 'run_sql', args: {} },
      { type: 'final', output: final('The answer.') },
    ]);
    expect(turn.steps[0]).toEqual({ kind: 'note', text: 'Let me check.' });
  });

  it('keeps partial text on an error; a stop is "stopped", a run with nothing is "failed"', () => {
    const cut = play([
      { type: 'token', text: 'Partial' },
      { type: 'error', message: 'dropped', retryable: true, kind: 'network' },
      { type: 'run_end', thread_id: 'th', run_id: 'r' },
    ]);
    expect(cut).toMatchObject({ text: 'Partial', state: 'failed', error: { kind: 'network', retryable: true } });
    expect(play([{ type: 'error', message: 'The run was stopped.', retryable: true, kind: 'aborted' }]).state).toBe('stopped');
    expect(play([{ type: 'run_end', thread_id: 'th', run_id: 'r' }]).state).toBe('failed');
  });
});

describe('turnsFromThread', () => {
  it('rebuilds questions, steps, answers and finals; an unanswered last question is interrupted', () => {
    const view: ThreadView = {
      thread_id: 'th',
      mode: 'agent',
      interrupted: true,
      finals: [final('Three.')],
      messages: [
        { role: 'user', content: 'How many?' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'run_sql', args: { sql: 'SELECT 3' } }] },
        { role: 'tool', content: '{"rows":[[3]]}', tool_call_id: 'c1', tool_name: 'run_sql' },
        { role: 'assistant', content: 'Three.' },
        { role: 'user', content: 'And now?' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'c2', name: 'run_sql', args: { sql: 'bad' } }] },
        { role: 'tool', content: 'Error: syntax', tool_call_id: 'c2', tool_name: 'run_sql' },
      ],
    };
    const [first, second] = turnsFromThread(view);
    expect(first).toMatchObject({ question: 'How many?', text: 'Three.', state: 'done', final: { answer: 'Three.' } });
    expect(first?.steps[0]).toMatchObject({ tool: 'run_sql', state: 'done', output: { rows: [[3]] } });
    expect(second).toMatchObject({ question: 'And now?', state: 'interrupted', final: null });
    expect(second?.steps[0]).toMatchObject({ state: 'failed', error: 'Error: syntax' });
  });
});

describe('turnsFromThread ids and ratings', () => {
  it('names each turn by its stored question id and restores its rating', () => {
    const view: ThreadView = {
      thread_id: 'th',
      mode: 'agent',
      interrupted: false,
      finals: [final('A'), final('B')],
      ratings: { q2: 'down' },
      messages: [
        { role: 'user', content: 'One?', id: 'q1' },
        { role: 'assistant', content: 'A' },
        { role: 'user', content: 'Two?', id: 'q2' },
        { role: 'assistant', content: 'B' },
      ],
    };
    const turns = turnsFromThread(view);
    expect(turns.map((t) => t.id)).toEqual(['q1', 'q2']);
    expect(turns[0]?.rating).toBeUndefined();
    expect(turns[1]?.rating).toBe('down');
  });
});


describe('usage on turns', () => {
  const usage = { input_tokens: 900, output_tokens: 40, requests: 2, estimated: false, model: 'm', base_url: 'https://x/v1' };

  it('takes the usage run_end carries, and adds a retried run to the same turn', () => {
    const turn = play([
      { type: 'run_start', thread_id: 'th', run_id: 'r1', mode: 'agent' },
      { type: 'error', message: 'HTTP 500', retryable: true },
      { type: 'run_end', thread_id: 'th', run_id: 'r1', usage: { ...usage, output_tokens: 0, requests: 1 } },
      { type: 'run_start', thread_id: 'th', run_id: 'r2', mode: 'agent' },
      { type: 'final', output: final('A') },
      { type: 'run_end', thread_id: 'th', run_id: 'r2', usage: { ...usage, estimated: true } },
    ]);
    expect(turn.usage).toEqual({ ...usage, input_tokens: 1800, requests: 3, estimated: true });
    expect(play([{ type: 'run_end', thread_id: 'th', run_id: 'r' }]).usage).toBeUndefined();
  });

  it('restores each question its stored usage', () => {
    const turns = turnsFromThread({
      thread_id: 'th',
      mode: 'agent',
      interrupted: false,
      finals: [final('A'), final('B')],
      usage: { q2: usage },
      messages: [
        { role: 'user', content: 'One?', id: 'q1' },
        { role: 'assistant', content: 'A' },
        { role: 'user', content: 'Two?', id: 'q2' },
        { role: 'assistant', content: 'B' },
      ],
    });
    expect(turns.map((t) => t.usage)).toEqual([undefined, usage]);
  });
});
