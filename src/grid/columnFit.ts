/**
 * A grid column's width fitted to what it shows: its header (name, and its stats on two lines at
 * their smaller font) and the first rows' formatted values, within bounds. Fixed once fitted, so
 * scrolling never reflows.
 */
import type { ColumnInfo } from '../../protocol/data';
import type { CellValue } from '../../shared/arrowDecode';
import { columnWidth } from './cellText';
import { formatCell, type ColumnFormat } from './format';

// 0.85rem tabular digits in the system UI fonts, plus the cell padding.
const CHAR_PX = 8.4;
export const MAX_FIT = 420;
/** Cells measured at most per fit: a 2,000-column result samples fewer rows, not more work. */
const SAMPLE_CELLS = 10_000;

/** How many of the first rows a fit reads, for this many columns (50 for narrow tables, at least 3). */
export function fitSampleRows(columns: number): number {
  return Math.max(3, Math.min(50, Math.floor(SAMPLE_CELLS / Math.max(1, columns))));
}

/** The width the header's stats need on two lines (at their smaller font, words not split). */
export function summaryFit(line: string | undefined): number {
  const length = line?.length ?? 0;
  return length === 0 ? 0 : Math.min(MAX_FIT, Math.ceil(length / 2 + 4) * 6.6 + 24);
}

export function fitWidth(col: ColumnInfo, c: number, format: ColumnFormat, sample: readonly (readonly CellValue[] | undefined)[], summary: string | undefined): number {
  let longest = 0;
  for (const cells of sample) {
    const text = cells ? formatCell(cells[c], format) : '';
    const first = text.length > 200 ? 200 : text.length;
    if (first > longest) longest = first;
  }
  return Math.round(Math.min(MAX_FIT, Math.max(columnWidth(col.name, col.type) * 0.6, col.name.length * 8 + 36, longest * CHAR_PX + 28, summaryFit(summary))));
}
