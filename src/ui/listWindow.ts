/**
 * Which items of a fixed-height list to draw (the rail's column list, issue 37): those in view and
 * a few either side, so a 2,000-column table's list costs a screenful of rows, not 2,000.
 */
export interface ListWindowInput {
  scrollTop: number;
  viewportHeight: number;
  itemHeight: number;
  count: number;
  /** Items drawn beyond each edge of the view, so the next Tab stop and a quick scroll are there. */
  overscan: number;
}

/** Items `start` (inclusive) to `end` (exclusive); before/after: the px the undrawn items take. */
export interface ListWindow {
  start: number;
  end: number;
  before: number;
  after: number;
}

export function listWindow({ scrollTop, viewportHeight, itemHeight, count, overscan }: ListWindowInput): ListWindow {
  if (count <= 0 || itemHeight <= 0) return { start: 0, end: Math.max(0, count), before: 0, after: 0 };
  const first = Math.min(count - 1, Math.max(0, Math.floor(scrollTop / itemHeight)));
  const visible = Math.ceil(Math.max(0, viewportHeight) / itemHeight) + 1;
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, first + visible + overscan);
  return { start, end, before: start * itemHeight, after: (count - end) * itemHeight };
}

/**
 * The scroll position that keeps item `index` and its neighbours drawn (a Tab or Shift+Tab onto
 * the window's edge must find the next item there); `scrollTop` when they already are.
 */
export function scrollToKeep(index: number, win: ListWindow, scrollTop: number, viewportHeight: number, itemHeight: number): number {
  if (index > win.start && index < win.end - 1) return scrollTop;
  return Math.max(0, (index + 0.5) * itemHeight - viewportHeight / 2);
}
