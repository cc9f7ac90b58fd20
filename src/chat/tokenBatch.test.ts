import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../protocol/agent/wire';
import { batchTokens } from './tokenBatch';

describe('batchTokens', () => {
  it('joins the tokens of one frame into one change, and keeps the order with other events', () => {
    const applied: RunEvent[] = [];
    const frames: (() => void)[] = [];
    const batch = batchTokens((e) => applied.push(e), (f) => frames.push(f));
    for (const text of ['The ', 'mean ', 'is ']) batch.push({ type: 'token', text });
    expect(applied).toEqual([]);
    expect(frames).toHaveLength(1);
    frames.shift()?.();
    expect(applied).toEqual([{ type: 'token', text: 'The mean is ' }]);
    batch.push({ type: 'token', text: '4' });
    batch.push({ type: 'token', text: '2.' });
    // Another event applies the waiting tokens first.
    batch.push({ type: 'node', name: 'finalize', answer: false });
    expect(applied.slice(1)).toEqual([
      { type: 'token', text: '42.' },
      { type: 'node', name: 'finalize', answer: false },
    ]);
    // The frame that was scheduled finds nothing left.
    for (const f of frames.splice(0)) f();
    expect(applied).toHaveLength(3);
    batch.push({ type: 'token', text: 'tail' });
    batch.flush();
    expect(applied.at(-1)).toEqual({ type: 'token', text: 'tail' });
  });
});
