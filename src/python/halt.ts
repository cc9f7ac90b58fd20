/**
 * What the user is told when a run was halted (time limit or Stop) or ended the interpreter.
 */
import type { RunOutcome } from '../../protocol/python';

export type HaltReason = 'timeout' | 'stop';

function seconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? `${s} s` : `${s.toFixed(1)} s`;
}

/**
 * The outcome of a halted run. `interrupted` says the interrupt was honoured (the worker lives
 * on); otherwise it was terminated and replaced. A run that finished before the halt took
 * effect keeps its own outcome.
 */
export function haltedOutcome(reason: HaltReason, limitMs: number, outcome: RunOutcome, interrupted: boolean): RunOutcome {
  if (outcome.ok) return outcome;
  if (interrupted === false && outcome.error.type !== 'WorkerError' && outcome.error.type !== 'KeyboardInterrupt') return outcome;
  const what = reason === 'timeout' ? `Stopped: the run went past the ${seconds(limitMs)} time limit.` : 'Stopped by the user.';
  const how = interrupted ? '' : ' Python did not respond to the interrupt, so it was restarted: variables and loaded packages are gone.';
  return {
    ok: false,
    error: {
      type: reason === 'timeout' ? 'TimeoutError' : 'Interrupted',
      message: what + how,
      traceback: interrupted ? outcome.error.traceback : '',
    },
    elapsedMs: outcome.elapsedMs,
    restarted: !interrupted,
    heapBytes: outcome.heapBytes,
  };
}

/** Adds what happened to the worker to errors that replaced it. */
export function explainRestart(outcome: RunOutcome): RunOutcome {
  if (outcome.ok || !outcome.restarted) return outcome;
  const { error } = outcome;
  if (error.type === 'MemoryError') {
    return { ...outcome, error: { ...error, message: `${error.message ? error.message + ' — ' : ''}Python ran out of memory. It was restarted with a fresh interpreter.` } };
  }
  if (error.type === 'WorkerError' || error.type === 'InternalError') {
    return { ...outcome, error: { ...error, message: `${error.message} — the Python worker was restarted.` } };
  }
  return outcome;
}

/** How much longer an interrupt Python has already taken may take to unwind. */
export const UNWIND_GRACE_MS = 3_000;

/**
 * Decides at the end of the interrupt's grace period. Python clears the shared flag when its
 * eval loop takes the interrupt, so a cleared flag means the interpreter is alive and unwinding
 * (a traceback being formatted on a busy machine) or swallowed it (`except KeyboardInterrupt`):
 * it is asked once more and given a little longer. A flag still set means the interrupt was
 * never seen (a C loop): the worker goes at once. Returns the timer of the second chance, if any.
 */
export function graceVerdict(interrupt: Int32Array | null, kill: () => void, unwindMs = UNWIND_GRACE_MS): ReturnType<typeof setTimeout> | null {
  if (!interrupt || Atomics.load(interrupt, 0) !== 0) {
    kill();
    return null;
  }
  Atomics.store(interrupt, 0, 2);
  return setTimeout(kill, unwindMs);
}
