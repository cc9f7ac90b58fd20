/**
 * The one context the page uses: `App.svelte` provides the composition root (appRoot.svelte.ts),
 * and a leaf deep in the tree that several features share (an export menu, a knowledge button
 * inside an answer) reads the object it needs from it instead of having it threaded through
 * every component on the way.
 */
import { getContext, setContext } from 'svelte';
import type { AppRoot } from './appRoot.svelte';

const KEY = Symbol('dataseer:app-root');

export function provideAppRoot(root: AppRoot): void {
  setContext(KEY, root);
}

/** The root, or undefined for a component rendered on its own (a test). */
export function findAppRoot(): AppRoot | undefined {
  return getContext<AppRoot | undefined>(KEY);
}
