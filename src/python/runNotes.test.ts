import { describe, expect, it } from 'vitest';
import type { RunOutcome } from '../../protocol/python';
import { HEAP_RECYCLE_BYTES, STATE_LOST_NOTE, bloated, withHeapNote, withStateLost } from './runNotes';

const ok: RunOutcome = { ok: true, warnings: ['w'], elapsedMs: 1, heapBytes: 2 * HEAP_RECYCLE_BYTES };
const failed = (type: string): RunOutcome => ({ ok: false, error: { type, message: 'boom', traceback: '' }, elapsedMs: 1, restarted: false, heapBytes: 2 * HEAP_RECYCLE_BYTES });

describe('run notes', () => {
  it('says a session lost its state on the error, or first among the warnings', () => {
    expect(withStateLost(ok)).toMatchObject({ warnings: [STATE_LOST_NOTE, 'w'] });
    expect(withStateLost(failed('NameError'))).toMatchObject({ error: { message: `boom (${STATE_LOST_NOTE})` } });
  });

  it('notes a restart for an interpreter that grew too big, unless it already ran out of memory', () => {
    expect(bloated(ok)).toBe(true);
    expect(bloated({ ...ok, heapBytes: HEAP_RECYCLE_BYTES })).toBe(false);
    expect(withHeapNote(ok)).toMatchObject({ warnings: ['w', 'Python grew to 2.0 GB of memory, so it was restarted to give it back.'] });
    expect(withHeapNote(failed('ValueError'))).toMatchObject({ restarted: true, error: { message: 'boom Python grew to 2.0 GB of memory, so it was restarted to give it back.' } });
    expect(withHeapNote(failed('MemoryError'))).toEqual(failed('MemoryError'));
  });
});
