/**
 * How tall an answer's chart is drawn for the width it has: in proportion to the width (a wide
 * chart is not a letterbox), at least readable on a phone, and never taller than most of the
 * window, so the chart and the answer's first lines fit on one screen.
 */
const ASPECT = 0.6;
const MIN_HEIGHT = 320;
const MAX_HEIGHT = 620;
/** The share of the window's height a chart may take. */
const WINDOW_SHARE = 0.6;

export function inlineHeight(width: number, windowHeight: number): number {
  const cap = Math.max(MIN_HEIGHT, Math.min(MAX_HEIGHT, Math.round(windowHeight * WINDOW_SHARE)));
  if (!(width > 0)) return MIN_HEIGHT;
  return Math.max(MIN_HEIGHT, Math.min(cap, Math.round(width * ASPECT)));
}
