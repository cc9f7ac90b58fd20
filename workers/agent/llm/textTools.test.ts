import { describe, expect, it } from 'vitest';
import { hasToolHistory, isAutoToolRequest, readTextToolCalls, refusesAutoTools, toTextProtocol, TEXT_PROTOCOL_HEADING } from './textTools';

const TOOLS = ['run_sql', 'validate_results'];

describe('refusals of automatic tool calls', () => {
  it("reads vLLM's top-level error object (https://github.com/langchain4j/langchain4j/issues/3475)", () => {
    const body = JSON.stringify({ object: 'error', message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', type: 'BadRequestError', param: null, code: 400 });
    expect(refusesAutoTools(400, body)).toBe(true);
  });

  it("reads Ollama's model without tools, both body shapes (https://github.com/ollama/ollama/issues/6027, /14795)", () => {
    expect(refusesAutoTools(400, JSON.stringify({ error: { message: 'stablelm2:latest does not support tools', type: 'api_error', param: null, code: null } }))).toBe(true);
    expect(refusesAutoTools(400, JSON.stringify({ error: 'registry.ollama.ai/library/Qwen3.5:0.8b does not support tools' }))).toBe(true);
  });

  it('reads llama-server without --jinja, an HTTP 500 (https://github.com/containers/ramalama/issues/988)', () => {
    expect(refusesAutoTools(500, JSON.stringify({ error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } }))).toBe(true);
  });

  it('leaves other failures alone', () => {
    expect(refusesAutoTools(500, JSON.stringify({ error: { message: 'does not support tools' } }))).toBe(false);
    expect(refusesAutoTools(400, JSON.stringify({ error: { message: "Unsupported parameter: 'temperature'" } }))).toBe(false);
    expect(refusesAutoTools(401, 'does not support tools')).toBe(false);
  });
});

const tools = [
  { type: 'function', function: { name: 'run_sql', description: 'Runs SQL.', parameters: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'], additionalProperties: false, $schema: 'x' } } },
];

describe('the text protocol', () => {
  const body = {
    model: 'm',
    stream: true,
    tools,
    tool_choice: 'auto',
    parallel_tool_calls: false,
    messages: [
      { role: 'system', content: 'You are Dataseer.' },
      { role: 'user', content: 'Mean mass?' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'run_sql', arguments: '{"sql":"SELECT 1"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '{"rows":[[1]]}' },
    ],
  };

  it('knows which requests it applies to', () => {
    expect(isAutoToolRequest(body)).toBe(true);
    expect(isAutoToolRequest({ ...body, tool_choice: { type: 'function', function: { name: 'validation_report' } } })).toBe(false);
    expect(isAutoToolRequest({ messages: [] })).toBe(false);
    expect(hasToolHistory(body)).toBe(true);
    expect(hasToolHistory({ messages: [{ role: 'user', content: 'x' }] })).toBe(false);
  });

  it('moves the tools into the system prompt and writes calls and results as text', () => {
    const out = toTextProtocol(body) as { messages: { role: string; content: string }[] } & Record<string, unknown>;
    expect(out).not.toHaveProperty('tools');
    expect(out).not.toHaveProperty('tool_choice');
    expect(out).not.toHaveProperty('parallel_tool_calls');
    expect(out.stream).toBe(true);
    expect(out.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(out.messages[0]?.content).toContain(TEXT_PROTOCOL_HEADING);
    expect(out.messages[0]?.content).toContain('- run_sql: Runs SQL.');
    expect(out.messages[0]?.content).not.toContain('$schema');
    expect(out.messages[2]?.content).toBe('<tool_call>\n{"name":"run_sql","arguments":{"sql":"SELECT 1"}}\n</tool_call>');
    expect(out.messages[3]?.content).toBe('Tool result (run_sql):\n{"rows":[[1]]}');
    for (const m of out.messages) expect(Object.keys(m).sort()).toEqual(['content', 'role']);
  });

  it('rewrites only the history of a request without tools', () => {
    const { tools: _t, tool_choice: _c, ...plain } = body;
    const out = toTextProtocol(plain) as { messages: { content: string }[] };
    expect(out.messages[0]?.content).toBe('You are Dataseer.');
  });
});

describe('reading the calls a model wrote', () => {
  it('takes a Hermes/Qwen <tool_call> block after prose', () => {
    const r = readTextToolCalls('I will query it.\n<tool_call>\n{"name": "run_sql", "arguments": {"sql": "SELECT 2"}}\n</tool_call>', TOOLS);
    expect(r.content).toBe('I will query it.');
    expect(r.calls).toEqual([{ name: 'run_sql', arguments: '{"sql":"SELECT 2"}' }]);
  });

  it('takes fenced JSON with `parameters` (https://github.com/ollama/ollama/issues/13519)', () => {
    const r = readTextToolCalls('Let me check.\n```json\n{"name": "run_sql", "parameters": {"sql": "SELECT 3"}}\n```', TOOLS);
    expect(r.calls).toEqual([{ name: 'run_sql', arguments: '{"sql":"SELECT 3"}' }]);
  });

  it('takes several blocks, and a reply that is only a call', () => {
    const two = readTextToolCalls('<tool_call>{"name":"run_sql","arguments":{"sql":"a"}}</tool_call>\n<tool_call>{"name":"run_sql","arguments":{"sql":"b"}}</tool_call>', TOOLS);
    expect(two.calls.map((c) => c.arguments)).toEqual(['{"sql":"a"}', '{"sql":"b"}']);
    expect(readTextToolCalls('{"name": "validate_results", "arguments": {"question": "q"}}', TOOLS).calls).toHaveLength(1);
  });

  it('leaves an answer that quotes JSON or names an unknown tool as text', () => {
    const answer = 'The mean is 3700 g. As JSON: ```json\n{"mean": 3700}\n```';
    expect(readTextToolCalls(answer, TOOLS)).toEqual({ content: answer, calls: [] });
    expect(readTextToolCalls('<tool_call>{"name":"rm_rf","arguments":{}}</tool_call>', TOOLS).calls).toEqual([]);
  });
});
