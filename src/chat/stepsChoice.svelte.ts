import { SvelteMap } from 'svelte/reactivity';

/**
 * The user's open/closed choice for each turn's "How I got this", by turn id. Kept outside the
 * message component, so a log that draws a turn again (another layout, a conversation reopened)
 * does not snap the steps the user opened shut.
 */
export const stepsChoice = new SvelteMap<string, boolean>();
