/**
 * Which rows of a fixed-row-height list are on screen, and where to draw them.
 *
 * Browsers cap an element's height (~33 M px in Chromium), so past `maxHeight` the scroll range
 * is compressed: the spacer stays `maxHeight` tall and a scroll position maps proportionally onto
 * the full row range. Rows are then drawn relative to the current scroll position.
 */
export interface WindowInput {
  scrollTop: number;
  viewportHeight: number;
  rowHeight: number;
  rowCount: number;
  /** Extra rows drawn above and below the viewport so fast scrolling shows fewer blanks. */
  overscan?: number;
  maxHeight?: number;
}

export interface RowWindow {
  /** First row index drawn (inclusive). */
  start: number;
  /** Last row index drawn (exclusive). */
  end: number;
  /** Height of the scroll spacer, in px. */
  totalHeight: number;
  /** Top of row `start` inside the spacer, in px; later rows follow at `rowHeight` steps. */
  offsetY: number;
}

export const DEFAULT_MAX_HEIGHT = 15_000_000;

export function rowWindow(input: WindowInput): RowWindow {
  const { viewportHeight, rowHeight, rowCount } = input;
  const overscan = input.overscan ?? 4;
  const maxHeight = input.maxHeight ?? DEFAULT_MAX_HEIGHT;
  if (rowCount <= 0 || rowHeight <= 0) return { start: 0, end: 0, totalHeight: 0, offsetY: 0 };

  const natural = rowCount * rowHeight;
  const totalHeight = Math.min(natural, maxHeight);
  const viewport = Math.max(0, viewportHeight);
  const scrollable = Math.max(0, totalHeight - viewport);
  const scrollTop = Math.min(Math.max(0, input.scrollTop), scrollable);
  const naturalScrollable = Math.max(0, natural - viewport);
  // Position in the uncompressed list that the top of the viewport shows.
  const virtualTop = scrollable > 0 ? scrollTop * (naturalScrollable / scrollable) : 0;

  const first = Math.min(rowCount - 1, Math.floor(virtualTop / rowHeight));
  const visible = Math.ceil(viewport / rowHeight) + 1;
  const start = Math.max(0, first - overscan);
  const end = Math.min(rowCount, first + visible + overscan);
  const offsetY = start * rowHeight - virtualTop + scrollTop;
  return { start, end, totalHeight, offsetY };
}
