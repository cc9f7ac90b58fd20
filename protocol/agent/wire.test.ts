import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentEventSchema, isAgentEvent, parseAgentEvent, type AgentEvent } from './wire';
import { FinalOutputSchema, type FinalOutput } from './final';
import { STRUCTURED_OUTPUTS } from './structured';
import { TOOL_ARG_SCHEMAS, TOOL_NAMES, isToolName, parseToolArgs } from './tools';

const final: FinalOutput = {
  answer: 'Adelie penguins weigh 3700.7 g on average.',
  confidence: 0.9,
  output_type: 'analysis',
  result: { mean: 3700.66 },
  code: ['SELECT avg(body_mass_g) FROM penguins'],
  caveats: [],
  reasoning_trace: ['profiled penguins', 'ran SQL'],
  ungrounded_numbers: [],
  failed_attempts: [],
};

const sqlOutput = { columns: [{ name: 'x', type: 'INTEGER' }], rows: [[1]], row_count: 1, truncated: false, elapsed_ms: 1 };

const oneOfEach: AgentEvent[] = [
  { type: 'run_start', thread_id: 't', run_id: 'r', mode: 'agent' },
  { type: 'node', name: 'agent', answer: true, run_id: 'r' },
  { type: 'token', text: 'Hel', run_id: 'r' },
  { type: 'reasoning', text: 'Let me think.', run_id: 'r' },
  { type: 'tool_start', call_id: 'c1', tool: 'run_sql', args: { sql: 'SELECT 1' }, run_id: 'r' },
  { type: 'tool_end', call_id: 'c1', tool: 'run_sql', output: sqlOutput, elapsed_ms: 3, run_id: 'r' },
  { type: 'tool_error', call_id: 'c2', tool: 'run_python', error: 'Error: NameError', run_id: 'r' },
  { type: 'status', kind: 'loop_detected', detail: 'run_python failed twice the same way', run_id: 'r' },
  { type: 'final', output: final, run_id: 'r' },
  { type: 'error', message: 'the key was refused', retryable: false, run_id: 'r' },
  { type: 'run_end', thread_id: 't', run_id: 'r' },
];

describe('agent events', () => {
  it('accepts one event of every contract type', () => {
    expect(new Set(oneOfEach.map((e) => e.type)).size).toBe(11);
    for (const e of oneOfEach) expect(parseAgentEvent(e)).toEqual({ ok: true, event: e });
  });

  it('rejects unknown types, missing fields and wrong enums with a reason', () => {
    expect(isAgentEvent({ type: 'tokens', text: 'x' })).toBe(false);
    const missing = parseAgentEvent({ type: 'tool_end', call_id: 'c', tool: 'run_sql', output: sqlOutput, run_id: 'r' });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.message).toMatch(/elapsed_ms/);
    expect(isAgentEvent({ type: 'status', kind: 'thinking', detail: '' })).toBe(false);
    expect(isAgentEvent({ type: 'run_start', thread_id: 't', run_id: 'r', mode: 'chat' })).toBe(false);
    expect(isAgentEvent(null)).toBe(false);
  });

  it('requires every FinalOutput list and bounds confidence', () => {
    expect(FinalOutputSchema.safeParse(final).success).toBe(true);
    const { ungrounded_numbers: _u, ...withoutList } = final;
    expect(FinalOutputSchema.safeParse(withoutList).success).toBe(false);
    expect(FinalOutputSchema.safeParse({ ...final, confidence: 1.5 }).success).toBe(false);
    expect(FinalOutputSchema.safeParse({ ...final, output_type: 'chart' }).success).toBe(false);
  });

  it('covers exactly the contract event types', () => {
    const types = AgentEventSchema.options.flatMap((o) => ('shape' in o ? [o.shape.type.value] : o.options.map((t) => t.shape.type.value)));
    expect(new Set(types).size).toBe(11);
    types.sort();
    expect([...new Set(types)]).toEqual(['error', 'final', 'node', 'reasoning', 'run_end', 'run_start', 'status', 'token', 'tool_end', 'tool_error', 'tool_start']);
  });

  it('names its run on every event', () => {
    expect(isAgentEvent({ type: 'token', text: 'x' })).toBe(false);
    expect(isAgentEvent({ type: 'token', text: 'x', run_id: 'r' })).toBe(true);
  });

  it('types a tool_end output by its tool: another tool’s shape is refused, fields added later pass', () => {
    expect(isAgentEvent({ type: 'tool_end', call_id: 'c', tool: 'run_sql', output: { is_valid: true, issues: [], suggestions: [], confidence: 1 }, elapsed_ms: 1, run_id: 'r' })).toBe(false);
    expect(isAgentEvent({ type: 'tool_end', call_id: 'c', tool: 'validate_results', output: { is_valid: true, issues: [], suggestions: [], confidence: 1 }, elapsed_ms: 1, run_id: 'r' })).toBe(true);
    expect(isAgentEvent({ type: 'tool_end', call_id: 'c', tool: 'execute_code', output: sqlOutput, elapsed_ms: 1, run_id: 'r' })).toBe(false);
    const later = parseAgentEvent({ type: 'tool_end', call_id: 'c', tool: 'run_sql', output: { ...sqlOutput, note: 'new' }, elapsed_ms: 1, run_id: 'r' });
    expect(later.ok && later.event.type === 'tool_end' && later.event.output).toMatchObject({ note: 'new' });
  });
});

describe('tool arguments', () => {
  it('has a schema for every contract tool', () => {
    expect(Object.keys(TOOL_ARG_SCHEMAS).sort()).toEqual([...TOOL_NAMES].sort());
    expect(isToolName('run_sql')).toBe(true);
    expect(isToolName('execute_code')).toBe(false);
  });

  it('parses valid arguments and explains invalid ones', () => {
    expect(parseToolArgs('run_sql', { sql: 'SELECT 1', max_rows: 10 })).toEqual({ ok: true, args: { sql: 'SELECT 1', max_rows: 10 } });
    const bad = parseToolArgs('create_chart', { sql: 'SELECT 1', chart: { type: 'donut', x: 'a' } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toMatch(/create_chart: chart\.type/);
    expect(parseToolArgs('profile_data', { columns: ['a'] }).ok).toBe(false);
    expect(parseToolArgs('search_examples', { query: 'ttest', top_k: 0 }).ok).toBe(false);
  });

  it('converts to JSON schema for binding to a model', () => {
    const js = z.toJSONSchema(TOOL_ARG_SCHEMAS.create_chart) as { required: string[]; properties: Record<string, unknown> };
    expect(js.required).toEqual(['sql', 'chart']);
    expect(Object.keys(STRUCTURED_OUTPUTS)).toEqual(['validation_report', 'execution_plan', 'conversation_summary']);
  });
});
