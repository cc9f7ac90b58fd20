/**
 * What the page adds to a run's outcome after the fact: that the session's earlier state is
 * gone (Python restarted since), or that the interpreter grew too big and is being replaced.
 */
import type { RunOutcome } from '../../protocol/python';

/** Above this much interpreter memory the worker is replaced after a run (wasm never shrinks). */
export const HEAP_RECYCLE_BYTES = 1024 ** 3;

/** Said once, on the first run of a session after its state was lost. */
export const STATE_LOST_NOTE =
  'Python was restarted since the last run here, so the variables, imports and functions defined before are gone: run the code that defines them again.';

/** The outcome with the state-lost note: on the error (a NameError is its usual sign), or as a warning. */
export function withStateLost(outcome: RunOutcome): RunOutcome {
  if (outcome.ok) return { ...outcome, warnings: [STATE_LOST_NOTE, ...outcome.warnings] };
  return { ...outcome, error: { ...outcome.error, message: `${outcome.error.message} (${STATE_LOST_NOTE})`.trim() } };
}

/** True when the run left the interpreter too big to keep (its memory is given back by a restart). */
export function bloated(outcome: RunOutcome): boolean {
  return (outcome.heapBytes ?? 0) > HEAP_RECYCLE_BYTES;
}

/** A bloated run's outcome with the note saying Python is restarted (a MemoryError speaks for itself). */
export function withHeapNote(outcome: RunOutcome): RunOutcome {
  if (!outcome.ok && outcome.error.type === 'MemoryError') return outcome;
  const note = `Python grew to ${((outcome.heapBytes ?? 0) / 1024 ** 3).toFixed(1)} GB of memory, so it was restarted to give it back.`;
  if (outcome.ok) return { ...outcome, warnings: [...outcome.warnings, note] };
  return { ...outcome, restarted: true, error: { ...outcome.error, message: `${outcome.error.message} ${note}`.trim() } };
}
