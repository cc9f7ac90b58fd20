import { describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { withholdHistory } from './withholdHistory';

const rows = Array.from({ length: 10 }, (_, i) => [`Name-${i}`, i]);
const sqlText = JSON.stringify({ columns: [{ name: 'n', type: 'VARCHAR' }, { name: 'i', type: 'INTEGER' }], rows, row_count: 10, truncated: false, elapsed_ms: 1 });

describe('withholdHistory', () => {
  it('shapes stored tool outputs and leaves every other message as it is', () => {
    const human = new HumanMessage('q');
    const ai = new AIMessage({ content: '', tool_calls: [{ id: 's', name: 'run_sql', args: { sql: 'x' } }] });
    const tool = new ToolMessage({ content: sqlText, tool_call_id: 's', name: 'run_sql' });
    const err = new ToolMessage({ content: 'Error: boom\nTraceback\n  line 1\n  line 2\nstdout:\na\nb\nc\nd', tool_call_id: 'e', name: 'run_python', status: 'error' });
    const out = withholdHistory([human, ai, tool, err], { maxRows: 2 });
    expect(out[0]).toBe(human);
    expect(out[1]).toBe(ai);
    const shaped = out[2] as ToolMessage;
    expect(shaped).toBeInstanceOf(ToolMessage);
    expect(shaped.tool_call_id).toBe('s');
    expect(shaped.name).toBe('run_sql');
    expect((JSON.parse(shaped.content as string) as { rows: unknown[] }).rows).toEqual([['Name-0', 0], ['Name-1', 1]]);
    expect((out[3] as ToolMessage).content).toBe('Error: boom\nTraceback\n  line 1\n  line 2\nstdout:\na\nb\n… [2 more lines withheld: No raw rows]\n');
    expect((out[3] as ToolMessage).status).toBe('error');
    // Shaping what is already shaped changes nothing.
    const twice = withholdHistory(out, { maxRows: 2 });
    expect(twice[2]).toBe(out[2]);
    expect(twice[3]).toBe(out[3]);
    // A smaller N later counts what was withheld before.
    expect((withholdHistory(out, { maxRows: 1 })[3] as ToolMessage).content).toMatch(/stdout:\na\n… \[3 more lines withheld/);
  });
});
