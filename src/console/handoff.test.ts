import { describe, expect, test } from 'vitest';
import { ConsoleHandoff, handoffCursor } from './handoff.svelte';

describe('console hand-over', () => {
  test('every hand-over gets a new id, even for the same code', () => {
    const store = new ConsoleHandoff();
    const a = store.open('sql', 'SELECT 1');
    const b = store.open('sql', 'SELECT 1');
    expect(b.id).toBeGreaterThan(a.id);
    expect(store.latest).toBe(b);
  });

  test('a cursor yields each newer hand-over once, for its target only', () => {
    const store = new ConsoleHandoff();
    const sql = handoffCursor(store.latest, 'sql');
    const any = handoffCursor(store.latest);
    const seen: { sql: string[]; any: string[] } = { sql: [], any: [] };
    const step = () => {
      const s = sql(store.latest);
      if (s) seen.sql.push(s.code);
      const a = any(store.latest);
      if (a) seen.any.push(a.target);
    };
    store.open('sql', 'SELECT 1');
    step();
    step(); // the same hand-over again: nothing new
    store.open('python', 'result = 1');
    step();
    store.open('sql', 'SELECT 1');
    step();
    expect(seen.sql).toEqual(['SELECT 1', 'SELECT 1']);
    expect(seen.any).toEqual(['sql', 'python', 'sql']);
  });

  test('a listener created later does not replay the last hand-over', () => {
    const store = new ConsoleHandoff();
    store.open('python', 'print(1)');
    const late = handoffCursor(store.latest, 'python');
    expect(late(store.latest)).toBeNull();
    store.open('python', 'print(2)');
    expect(late(store.latest)?.code).toBe('print(2)');
  });
});
