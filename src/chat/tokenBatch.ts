/**
 * Applies a run's events to its turn with the tokens of one frame joined into one change: a
 * provider sends a token every few milliseconds, and each change re-runs the answer's effects.
 * Any other event first applies the tokens before it, so the order of the turn is the stream's.
 */
import type { RunEvent } from '../../protocol/agent/wire';

type TokenEvent = Extract<RunEvent, { type: 'token' }>;

export interface EventBatcher {
  push(event: RunEvent): void;
  /** Applies the tokens still waiting (the stream ended or failed). */
  flush(): void;
}

const nextFrame = (f: () => void): void => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(f);
  else setTimeout(f, 16);
};

export function batchTokens(apply: (event: RunEvent) => void, schedule: (f: () => void) => void = nextFrame): EventBatcher {
  let pending: TokenEvent | null = null;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const tokens = pending;
    pending = null;
    if (tokens) apply(tokens);
  };
  return {
    push(event) {
      if (event.type === 'token') {
        pending = pending ? { ...pending, text: pending.text + event.text } : event;
        if (!scheduled) {
          scheduled = true;
          schedule(flush);
        }
        return;
      }
      flush();
      apply(event);
    },
    flush,
  };
}
