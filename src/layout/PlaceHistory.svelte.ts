import { formatPlace, parsePlace, samePlace, type Place } from './place';

type Listener = (place: Place) => void;

/**
 * The place (view, conversation, dataset) kept in the URL's hash and the session history: the
 * page moves it with `go` (a new history entry, or a replaced one for changes that are not a
 * step the user would go back to), and back/forward, an edited hash or a followed link move it
 * from outside, which `onNavigate` listeners hear.
 */
export class PlaceHistory {
  place = $state<Place>(parsePlace(''));
  readonly #win: Window;
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- listeners are plumbing, never rendered
  readonly #listeners = new Set<Listener>();
  readonly #onExternal = () => {
    const next = parsePlace(this.#win.location.hash);
    if (samePlace(next, this.place)) return;
    this.place = next;
    for (const l of this.#listeners) l(next);
  };

  constructor(win: Window = window) {
    this.#win = win;
    this.place = parsePlace(win.location.hash);
    win.addEventListener('popstate', this.#onExternal);
    win.addEventListener('hashchange', this.#onExternal);
  }

  /** Moves to a place; `replace` for a change that is a correction rather than a step. */
  go(change: Partial<Place>, mode: 'push' | 'replace' = 'push'): void {
    const next = { ...this.place, ...change };
    const url = formatPlace(next);
    if (samePlace(next, this.place) && this.#win.location.hash === url) return;
    if (mode === 'push') this.#win.history.pushState(this.#win.history.state, '', url);
    else this.#win.history.replaceState(this.#win.history.state, '', url);
    this.place = next;
  }

  /** Hears moves made from outside the page's own `go` (back/forward, a followed link). */
  onNavigate(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  dispose(): void {
    this.#win.removeEventListener('popstate', this.#onExternal);
    this.#win.removeEventListener('hashchange', this.#onExternal);
    this.#listeners.clear();
  }
}
