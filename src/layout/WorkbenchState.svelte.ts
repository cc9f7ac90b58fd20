/**
 * The workbench's arrangement on screen, kept for the next visit: how wide the conversation is
 * beside the work pane, the pane's size, which work view it shows, and which layout the window's
 * width calls for. The URL names the view (PlaceHistory); this says where it goes.
 */
import { MediaQuery } from 'svelte/reactivity';
import type { PlaceHistory } from './PlaceHistory.svelte';
import { VIEWS, type View } from './place';
import { WORK_VIEWS, isWorkView, restoredPaneSize, shownWork, sizeAfterPick, type PaneSize, type WorkView } from './workbench';

const SPLIT_KEY = 'dataseer:conversation-width';
const SIZE_KEY = 'dataseer:work-pane';
export const SPLIT_MIN = 30;
export const SPLIT_MAX = 70;

function stored(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function store(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage full or refused: the choice still applies for this visit.
  }
}

export function readSplit(raw: string | null): number {
  const n = Number(raw);
  return raw !== null && Number.isFinite(n) && n >= SPLIT_MIN && n <= SPLIT_MAX ? n : 52;
}

export class WorkbenchState {
  /** Wide: the conversation and the work pane side by side; below, one view at a time (Ask among them). */
  readonly wide = new MediaQuery('min-width: 1200px');
  readonly narrow = new MediaQuery('max-width: 899px');
  /** The conversation's share of the width beside the work pane, in percent. */
  split = $state(readSplit(stored(SPLIT_KEY)));
  paneSize = $state<PaneSize>(restoredPaneSize(stored(SIZE_KEY)));
  /**
   * The pane has stepped aside for a chart in the conversation (issue 34): shown collapsed, not
   * stored, and back at its size as soon as the user asks for a work view or the pane.
   */
  yielded = $state(false);
  /** The size on screen: the stored one, or collapsed while the pane yields to a chart. */
  readonly shownSize = $derived<PaneSize>(this.yielded && this.paneSize === 'normal' ? 'collapsed' : this.paneSize);
  #lastWork = $state<WorkView>('data');
  readonly #places: PlaceHistory;

  constructor(places: PlaceHistory) {
    this.#places = places;
    const view = places.place.view;
    if (isWorkView(view)) this.#lastWork = view;
    $effect(() => {
      const current = places.place.view;
      if (isWorkView(current)) this.#lastWork = current;
    });
  }

  /** The work view on show (while the place is the conversation, the last one). */
  readonly work = $derived(shownWork(this.#placesView(), this.#lastWork));
  readonly tabViews = $derived<readonly View[]>(this.wide.current ? WORK_VIEWS : VIEWS);
  readonly selectedTab = $derived<View>(this.wide.current ? this.work : this.#placesView());
  /** What is on screen below the wide layout: the conversation or one work view. */
  readonly single = $derived<View | null>(this.wide.current ? null : this.#placesView());

  #placesView(): View {
    return this.#places.place.view;
  }

  resize(value: number): void {
    this.split = value;
    store(SPLIT_KEY, String(value));
  }

  setPaneSize(size: PaneSize): void {
    this.yielded = false;
    this.paneSize = size;
    store(SIZE_KEY, size);
  }

  /** Goes to a view; on a wide screen the pane makes room for it. */
  goView(view: View, mode: 'push' | 'replace' = 'push'): void {
    if (isWorkView(view)) this.yielded = false;
    if (this.wide.current) {
      const size = sizeAfterPick(this.paneSize, view);
      if (size !== this.paneSize) this.setPaneSize(size);
    }
    this.#places.go({ view }, mode);
  }

  /** A work view reached from outside (back/forward, a link) while the pane is collapsed opens it. */
  arrived(view: View): void {
    if (!isWorkView(view)) return;
    this.yielded = false;
    if (this.paneSize === 'collapsed') this.setPaneSize('normal');
  }

  /**
   * An answer with a chart landed: on a wide screen the work pane at its normal size steps aside,
   * so the chart is drawn at the conversation's full width (at 1280 px, ~870 px instead of ~420).
   * A maximised or collapsed pane is the user's explicit choice and stays.
   */
  yieldToChart(): void {
    if (this.wide.current && this.paneSize === 'normal') this.yielded = true;
  }
}
