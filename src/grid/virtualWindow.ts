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

export interface ColumnWindowInput {
  /** Left edge of each column and, last, the right edge of the last one (`columnEdges`). */
  edges: readonly number[];
  scrollLeft: number;
  /** Width the columns are seen through (the scroller's width less any sticky row header). */
  viewportWidth: number;
  /** Extra width drawn on each side, so a quick horizontal scroll shows fewer blanks. */
  overscanPx?: number;
}

export interface ColumnWindow {
  /** First column drawn (inclusive). */
  start: number;
  /** Last column drawn (exclusive). */
  end: number;
  /** Left edge of column `start`: the room left empty before it. */
  before: number;
}

/** Prefix sums of the widths: `edges[c]` is column c's left edge, `edges[n]` the total width. */
export function columnEdges(widths: readonly number[]): number[] {
  const edges = new Array<number>(widths.length + 1);
  edges[0] = 0;
  for (let c = 0; c < widths.length; c++) edges[c + 1] = (edges[c] ?? 0) + Math.max(0, widths[c] ?? 0);
  return edges;
}

/** The last index whose edge is at or left of x (binary search; edges ascend). */
function edgeAtOrBefore(edges: readonly number[], x: number): number {
  let lo = 0;
  let hi = edges.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((edges[mid] ?? 0) <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Which columns of variable width are on screen: those crossing
 * [scrollLeft − overscan, scrollLeft + viewport + overscan). Wide results keep a few dozen cells
 * per row in the DOM instead of thousands.
 */
export function columnWindow(input: ColumnWindowInput): ColumnWindow {
  const { edges } = input;
  const count = edges.length - 1;
  if (count <= 0) return { start: 0, end: 0, before: 0 };
  const total = edges[count] ?? 0;
  const overscan = Math.max(0, input.overscanPx ?? 0);
  const viewport = Math.max(0, input.viewportWidth);
  const scrollLeft = Math.min(Math.max(0, input.scrollLeft), Math.max(0, total - viewport));
  const from = Math.max(0, scrollLeft - overscan);
  const to = scrollLeft + viewport + overscan;
  const start = Math.min(count - 1, edgeAtOrBefore(edges, from));
  // The first column whose left edge is at or past `to` is the first one not drawn.
  const end = Math.max(start + 1, Math.min(count, edgeAtOrBefore(edges, Math.max(from, to - 1e-6)) + 1));
  return { start, end, before: edges[start] ?? 0 };
}
