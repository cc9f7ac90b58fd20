/**
 * "Open in console": code handed from an answer's step to the SQL or Python console. One shared
 * store instead of callbacks threaded through the chat components. A hand-over is never
 * consumed; each listener remembers the last one it acted on, so the console (which fills its
 * editor) and the app (which brings the section into view) both see every hand-over, and a
 * listener created later does not replay an old one.
 */
import { untrack } from 'svelte';
import type { CodeLanguage } from '../ui/codeLanguages';

export type ConsoleTarget = CodeLanguage;

export interface Handoff {
  /** Increases with every hand-over, so the same code sent twice is still a new request. */
  id: number;
  target: ConsoleTarget;
  code: string;
}

export class ConsoleHandoff {
  #next = 1;
  latest = $state.raw<Handoff | null>(null);

  open(target: ConsoleTarget, code: string): Handoff {
    const handoff = { id: this.#next++, target, code };
    this.latest = handoff;
    return handoff;
  }
}

export const consoleHandoff = new ConsoleHandoff();

/** "Open in notebook": the same hand-over, to the notebook, which appends the code as a new cell. */
export const notebookHandoff = new ConsoleHandoff();

/**
 * Decides, hand-over by hand-over, which ones a listener acts on: each newer than the last seen
 * (and than the one current when the listener started), for its target.
 */
export function handoffCursor(current: Handoff | null, target?: ConsoleTarget): (latest: Handoff | null) => Handoff | null {
  let seen = current?.id ?? 0;
  return (latest) => {
    if (!latest || latest.id <= seen) return null;
    seen = latest.id;
    return target === undefined || latest.target === target ? latest : null;
  };
}

/**
 * Calls `act` for each hand-over made after this call (to `target`, or any when omitted). Call
 * during component initialisation: it sets up an effect that ends with the component.
 */
export function onHandoff(act: (handoff: Handoff) => void, target?: ConsoleTarget, store: ConsoleHandoff = consoleHandoff): void {
  const next = handoffCursor(untrack(() => store.latest), target);
  $effect(() => {
    const h = next(store.latest);
    if (h) untrack(() => act(h));
  });
}
