import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunOutcome } from '../../protocol/python';
import { explainRestart, graceVerdict, haltedOutcome } from './halt';

const interruptedRun: RunOutcome = {
  ok: false,
  error: { type: 'KeyboardInterrupt', message: '', traceback: '  File "<python>", line 1, in <module>\nKeyboardInterrupt' },
  elapsedMs: 30010,
  restarted: false,
};
const killedRun: RunOutcome = { ok: false, error: { type: 'WorkerError', message: 'run halted (timeout)', traceback: '' }, elapsedMs: 32000, restarted: true };

describe('haltedOutcome', () => {
  it('reports an honoured interrupt at the time limit as a TimeoutError, worker kept', () => {
    const out = haltedOutcome('timeout', 30_000, interruptedRun, true);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error.type).toBe('TimeoutError');
    expect(out.error.message).toMatch(/30 s time limit/);
    expect(out.error.traceback).toContain('<python>');
    expect(out.restarted).toBe(false);
  });

  it('says the worker was restarted when the interrupt was ignored', () => {
    const out = haltedOutcome('timeout', 1500, killedRun, false);
    if (out.ok) throw new Error('expected a failure');
    expect(out.error.message).toMatch(/1\.5 s time limit.*restarted/);
    expect(out.restarted).toBe(true);
  });

  it('names a user stop', () => {
    const out = haltedOutcome('stop', 30_000, interruptedRun, true);
    if (out.ok) throw new Error('expected a failure');
    expect(out.error.type).toBe('Interrupted');
  });

  it('keeps a run that finished before the halt took effect', () => {
    const done: RunOutcome = { ok: true, warnings: [], elapsedMs: 5 };
    expect(haltedOutcome('timeout', 10, done, false)).toBe(done);
    const err: RunOutcome = { ok: false, error: { type: 'ValueError', message: 'x', traceback: '' }, elapsedMs: 1, restarted: false };
    expect(haltedOutcome('timeout', 10, err, false)).toBe(err);
  });
});

describe('explainRestart', () => {
  it('explains a MemoryError restart', () => {
    const out = explainRestart({ ok: false, error: { type: 'MemoryError', message: '', traceback: '' }, elapsedMs: 1, restarted: true });
    if (out.ok) throw new Error('expected a failure');
    expect(out.error.message).toMatch(/ran out of memory.*restarted/);
  });
});

describe('graceVerdict', () => {
  afterEach(() => vi.useRealTimers());

  it('kills at once when Python never took the interrupt (the flag is still set)', () => {
    const flag = new Int32Array(new SharedArrayBuffer(4));
    Atomics.store(flag, 0, 2);
    let killed = 0;
    expect(graceVerdict(flag, () => killed++)).toBeNull();
    expect(killed).toBe(1);
  });

  it('asks again and waits a little longer when Python took it but has not finished', () => {
    vi.useFakeTimers();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    let killed = 0;
    const timer = graceVerdict(flag, () => killed++, 1000);
    expect(timer).not.toBeNull();
    expect(Atomics.load(flag, 0)).toBe(2);
    vi.advanceTimersByTime(999);
    expect(killed).toBe(0);
    vi.advanceTimersByTime(1);
    expect(killed).toBe(1);
  });

  it('kills at once when there is no interrupt to ask with', () => {
    let killed = 0;
    graceVerdict(null, () => killed++);
    expect(killed).toBe(1);
  });
});
