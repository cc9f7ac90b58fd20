import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentEventSchema,
  FinalOutputSchema,
  STRUCTURED_OUTPUTS,
  TOOL_ARG_SCHEMAS,
  TOOL_NAMES,
  isAgentEvent,
  isToolName,
  parseAgentEvent,
  parseToolArgs,
  type AgentEvent,
  type FinalOutput,
} from './agent';

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

const oneOfEach: AgentEvent[] = [
  { type: 'run_start', thread_id: 't', run_id: 'r', mode: 'agent' },
  { type: 'node', name: 'agent' },
  { type: 'token', text: 'Hel' },
  { type: 'tool_start', call_id: 'c1', tool: 'run_sql', args: { sql: 'SELECT 1' } },
  { type: 'tool_end', call_id: 'c1', tool: 'run_sql', output: { rows: [[1]] }, elapsed_ms: 3 },
  { type: 'tool_error', call_id: 'c2', tool: 'run_python', error: 'Error: NameError' },
  { type: 'status', kind: 'loop_detected', detail: 'run_python failed twice the same way' },
  { type: 'final', output: final },
  { type: 'error', message: 'the key was refused', retryable: false },
  { type: 'run_end', thread_id: 't', run_id: 'r' },
];

describe('agent events', () => {
  it('accepts one event of every contract type', () => {
    expect(new Set(oneOfEach.map((e) => e.type)).size).toBe(10);
    for (const e of oneOfEach) expect(parseAgentEvent(e)).toEqual({ ok: true, event: e });
  });

  it('rejects unknown types, missing fields and wrong enums with a reason', () => {
    expect(isAgentEvent({ type: 'tokens', text: 'x' })).toBe(false);
    const missing = parseAgentEvent({ type: 'tool_end', call_id: 'c', tool: 'run_sql', output: 1 });
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
    const types = AgentEventSchema.options.map((o) => o.shape.type.value).sort();
    expect(types).toEqual(['error', 'final', 'node', 'reasoning', 'run_end', 'run_start', 'status', 'token', 'tool_end', 'tool_error', 'tool_start']);
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
