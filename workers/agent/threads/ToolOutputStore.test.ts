import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { ToolOutputStore } from './ToolOutputStore';
import { SecretScrubber } from '../../../shared/secrets';
import { leaks, storedText } from '../../../shared/testing/secretForms';
import { turnsFromThread } from '../../../src/conversation/turns';
import type { ThreadView } from '../../../protocol/agent/threadView';

describe('ToolOutputStore', () => {
  it('keeps each call’s full outcome per thread and forgets a deleted thread', async () => {
    const store = new ToolOutputStore(`tool-outputs-${Math.random()}`);
    const rows = Array.from({ length: 5000 }, (_, i) => [i, `r${i}`]);
    store.record('t1', { type: 'tool_end', call_id: 'c1', tool: 'run_sql', output: { columns: [{ name: 'i', type: 'INTEGER' }, { name: 's', type: 'VARCHAR' }], rows, row_count: 5000, truncated: false, elapsed_ms: 3 }, elapsed_ms: 4, run_id: 'r' });
    store.record('t1', { type: 'tool_error', call_id: 'c2', tool: 'run_python', error: 'NameError: x', run_id: 'r' });
    store.record('t2', { type: 'tool_end', call_id: 'c1', tool: 'run_sql', output: { columns: [], rows: [['other thread']], row_count: 1, truncated: false, elapsed_ms: 1 }, elapsed_ms: 1, run_id: 'r' });
    store.record('t1', { type: 'token', text: 'ignored', run_id: 'r' });
    const t1 = await store.forThread('t1');
    expect(Object.keys(t1).sort()).toEqual(['c1', 'c2']);
    expect((t1.c1?.output as { rows: unknown[] }).rows).toHaveLength(5000);
    expect(t1.c2).toEqual({ tool: 'run_python', ok: false, error: 'NameError: x' });
    await store.deleteThread('t1');
    expect(await store.forThread('t1')).toEqual({});
    expect(Object.keys(await store.forThread('t2'))).toEqual(['c1']);
  });

  it('a reopened thread shows the stored outcome, not the clipped text the model saw', () => {
    const view: ThreadView = {
      thread_id: 't',
      mode: 'agent',
      interrupted: false,
      finals: [],
      messages: [
        { role: 'user', content: 'q', id: 'q1' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'run_sql', args: { sql: 'select 1' } }, { id: 'c2', name: 'run_sql', args: { sql: 'select 2' } }] },
        { role: 'tool', content: '{"columns": [{"name": "i"…(clipped', tool_call_id: 'c1', tool_name: 'run_sql' },
        { role: 'tool', content: '{"n": 2}', tool_call_id: 'c2', tool_name: 'run_sql' },
        { role: 'assistant', content: 'done' },
      ],
      tool_outputs: { c1: { tool: 'run_sql', ok: true, output: { columns: [{ name: 'i', type: 'INTEGER' }], rows: [[1]] }, elapsed_ms: 7 } },
    };
    const [turn] = turnsFromThread(view);
    const steps = (turn?.steps ?? []).filter((s) => s.kind === 'tool');
    expect(steps[0]).toMatchObject({ call_id: 'c1', state: 'done', output: { rows: [[1]] }, elapsed_ms: 7 });
    expect(steps[1]).toMatchObject({ call_id: 'c2', state: 'done', output: { n: 2 } });
  });
});

describe('ToolOutputStore and secrets', () => {
  it('writes no form of the key: raw, JSON-escaped, base64, URL-encoded or as bytes', async () => {
    const KEY = 'sk-tool-store-Qw7+/Zx9';
    const secrets = new SecretScrubber();
    secrets.add(KEY);
    const name = `tool-outputs-${Math.random()}`;
    const store = new ToolOutputStore(name, (v) => secrets.scrubValue(v));
    const b64 = Buffer.from(`x${KEY}`).toString('base64');
    const stdout = `${KEY} ${JSON.stringify({ k: KEY })} ${encodeURIComponent(KEY)} ${b64}`;
    store.record('t', { type: 'tool_end', call_id: 'c', tool: 'run_python', output: { stdout, result: { nested: [KEY] }, elapsed_ms: 1 }, elapsed_ms: 1, run_id: 'r' });
    store.record('t', { type: 'tool_error', call_id: 'd', tool: 'run_sql', error: `Binder Error: "${KEY}"`, run_id: 'r' });
    expect(leaks(stdout, KEY).length).toBeGreaterThan(3);
    await store.forThread('t');
    const db = await openDB(name);
    const text = storedText(await db.getAll('tool_outputs'));
    db.close();
    expect(text).toContain('[redacted]');
    expect(leaks(text, KEY)).toEqual([]);
  });
});
