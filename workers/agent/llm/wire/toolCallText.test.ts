import { describe, expect, it } from 'vitest';
import { mightBeToolCallText, recogniseToolCalls } from './toolCallText';

const TOOLS = ['run_sql', 'run_python', 'describe_table'];

describe('recogniseToolCalls', () => {
  it('reads the shapes small local models write', () => {
    expect(recogniseToolCalls('{"name": "run_sql", "arguments": {"sql": "SELECT 1"}}', TOOLS)).toEqual([{ name: 'run_sql', arguments: '{"sql":"SELECT 1"}' }]);
    expect(recogniseToolCalls('```json\n{"tool": "run_sql", "parameters": {"sql": "SELECT 1",}}\n```', TOOLS)).toEqual([{ name: 'run_sql', arguments: '{"sql":"SELECT 1"}' }]);
    expect(recogniseToolCalls('<tool_call>\n{"name": "describe_table", "arguments": {"table": "t"}}\n</tool_call>', TOOLS)).toEqual([{ name: 'describe_table', arguments: '{"table":"t"}' }]);
    expect(recogniseToolCalls('{"name": "run_sql", "arguments": "{\\"sql\\": \\"SELECT 2\\"}"}', TOOLS)).toEqual([{ name: 'run_sql', arguments: '{"sql": "SELECT 2"}' }]);
  });

  it("reads Groq's failed_generation shapes", () => {
    // https://github.com/huggingface/smolagents/issues/1119: `web_search{"query": …}</function>`
    expect(recogniseToolCalls('run_sql{"sql": "SELECT 3"}</function>', TOOLS)).toEqual([{ name: 'run_sql', arguments: '{"sql":"SELECT 3"}' }]);
    expect(recogniseToolCalls('<function=run_sql>{"sql": "SELECT 4"}</function>', TOOLS)).toEqual([{ name: 'run_sql', arguments: '{"sql":"SELECT 4"}' }]);
    // https://github.com/groq/groq-typescript/issues/103: a tool_calls list in a <tool-use> wrapper.
    const g = '<tool-use>\n{"tool_calls": [{"id": "pending", "type": "function", "function": {"name": "run_sql"}, "parameters": {"sql": "SELECT 5"}}]}\n</tool-use>';
    expect(recogniseToolCalls(g, TOOLS)).toEqual([{ name: 'run_sql', arguments: '{"sql":"SELECT 5"}' }]);
  });

  it('leaves prose, unknown tools and JSON answers alone', () => {
    expect(recogniseToolCalls('The answer is 42. {"name": "run_sql", "arguments": {}}', TOOLS)).toEqual([]);
    expect(recogniseToolCalls('{"name": "delete_everything", "arguments": {}}', TOOLS)).toEqual([]);
    expect(recogniseToolCalls('{"total": 344, "species": 3}', TOOLS)).toEqual([]);
    expect(recogniseToolCalls('{"name": "run_sql", "arguments": {"sql": "SELECT', TOOLS)).toEqual([]);
    expect(recogniseToolCalls('{"name": "run_sql"}', [])).toEqual([]);
  });

  it('holds back only text that could still become a call', () => {
    expect(mightBeToolCallText('', TOOLS)).toBe(true);
    expect(mightBeToolCallText('  {"na', TOOLS)).toBe(true);
    expect(mightBeToolCallText('``', TOOLS)).toBe(true);
    expect(mightBeToolCallText('<tool_c', TOOLS)).toBe(true);
    expect(mightBeToolCallText('run_s', TOOLS)).toBe(true);
    expect(mightBeToolCallText('There are 344 penguins', TOOLS)).toBe(false);
  });
});
