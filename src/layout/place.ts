/**
 * Where the user is in the workbench, as the URL's hash carries it: the view, the open
 * conversation and the selected dataset. A hash (not a path) so any static host serves it, and a
 * reload, back/forward or a copied link returns to the same place.
 *
 * Form: `#view=sql&c=<conversation id>&d=<dataset name>`; the section anchors of earlier
 * versions (`#sql`, `#ask`…) still read as their view.
 */
export const VIEWS = ['ask', 'data', 'notebook', 'sql', 'python', 'evaluate'] as const;
export type View = (typeof VIEWS)[number];

export const VIEW_LABEL: Record<View, string> = {
  ask: 'Ask',
  data: 'Data',
  notebook: 'Notebook',
  sql: 'SQL',
  python: 'Python',
  evaluate: 'Evaluate',
};

export interface Place {
  view: View;
  conversation: string | null;
  dataset: string | null;
}

export const HOME: Place = { view: 'ask', conversation: null, dataset: null };

function isView(v: string | null): v is View {
  return v !== null && (VIEWS as readonly string[]).includes(v);
}

/** Reads a hash (with or without its `#`); anything unknown falls back to the home place. */
export function parsePlace(hash: string): Place {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  if (isView(raw)) return { ...HOME, view: raw };
  const params = new URLSearchParams(raw);
  const view = params.get('view');
  const nonEmpty = (v: string | null) => (v && v.trim() ? v : null);
  return {
    view: isView(view) ? view : HOME.view,
    conversation: nonEmpty(params.get('c')),
    dataset: nonEmpty(params.get('d')),
  };
}

/** The hash for a place, `#`-prefixed; the home place is the empty hash's equal, `#view=ask`. */
export function formatPlace(place: Place): string {
  const params = new URLSearchParams();
  params.set('view', place.view);
  if (place.conversation) params.set('c', place.conversation);
  if (place.dataset) params.set('d', place.dataset);
  return `#${params.toString()}`;
}

export function samePlace(a: Place, b: Place): boolean {
  return a.view === b.view && a.conversation === b.conversation && a.dataset === b.dataset;
}
