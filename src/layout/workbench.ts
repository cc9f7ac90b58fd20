/**
 * What the work pane shows and how much room it takes, apart from the URL: the URL names the
 * view (`ask` included), the pane remembers the last work view so the conversation can be the
 * place while the pane keeps its tab. Pure, so the rules are tested without a browser.
 */
import type { View } from './place';

export const WORK_VIEWS = ['data', 'notebook', 'sql', 'python', 'evaluate'] as const satisfies readonly View[];
export type WorkView = (typeof WORK_VIEWS)[number];

/** How the work pane shares the width with the conversation on a wide screen. */
export type PaneSize = 'normal' | 'maximised' | 'collapsed';

export function isWorkView(view: View): view is WorkView {
  return (WORK_VIEWS as readonly string[]).includes(view);
}

/** The work view on show: the place's own, or (while the place is the conversation) the last one. */
export function shownWork(view: View, last: WorkView): WorkView {
  return isWorkView(view) ? view : last;
}

/**
 * The size after the user picks a view: a work view picked while the pane is collapsed opens it
 * again; the conversation picked while the pane fills the width gives the conversation room.
 */
export function sizeAfterPick(size: PaneSize, view: View): PaneSize {
  if (isWorkView(view)) return size === 'collapsed' ? 'normal' : size;
  return size === 'maximised' ? 'normal' : size;
}

export function readPaneSize(raw: string | null | undefined): PaneSize {
  return raw === 'maximised' || raw === 'collapsed' ? raw : 'normal';
}

/**
 * The size a new visit starts with: a maximised pane is for the visit it was chosen in. Restored
 * after a reload it hid the conversation and its question box, with nothing saying where they went.
 */
export function restoredPaneSize(raw: string | null | undefined): PaneSize {
  const size = readPaneSize(raw);
  return size === 'maximised' ? 'normal' : size;
}
