/**
 * Where a sheet's table is: the header row, the data rows below it, and each column's type. The
 * first non-empty row is the header unless a load report's fix names another (`headerRow`), and
 * the data runs to the last non-empty row unless a fix stops it earlier (`lastRow`).
 */
import type { TableReadOverrides } from '../../../protocol/loadReport';
import { uniqueColumnNames } from './columnNames';
import { KindTracker, asText, type ColumnPlan, type ValueFamily } from './inferredColumns';
import type { XlsxCell } from './xlsxReader';

export type Cell = XlsxCell | undefined;
export type Row = readonly Cell[];

export interface SheetLayout {
  /** 0-based index of the header row in the sheet's rows. */
  headerIndex: number;
  plan: ColumnPlan[];
  /** The data rows, blank rows left out. */
  rows: Row[];
  /** The kinds of value each column held (the load report names columns that mix them). */
  families: ValueFamily[][];
}

export function isBlank(cell: Cell): boolean {
  return cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');
}

export const isBlankRow = (row: Row | undefined): boolean => !row || row.every(isBlank);

/** Header row, column plan and data rows of one sheet; undefined when the sheet has no cells (or none at the chosen header). */
export function planSheet(data: readonly Row[], options: Pick<TableReadOverrides, 'headerRow' | 'lastRow'> = {}): SheetLayout | undefined {
  const headerIndex = options.headerRow !== undefined ? options.headerRow - 1 : data.findIndex((row) => !isBlankRow(row));
  if (headerIndex < 0 || isBlankRow(data[headerIndex])) return undefined;
  const header = data[headerIndex]!;
  const end = options.lastRow !== undefined ? Math.min(data.length, options.lastRow) : data.length;
  const rows = data.slice(headerIndex + 1, end).filter((row) => !isBlankRow(row));
  // A loop, not Math.max(...rows): spreading 150,000+ rows overflows the call stack.
  let width = header.length;
  for (const row of rows) if (row.length > width) width = row.length;
  const trackers = Array.from({ length: width }, () => new KindTracker());
  for (const row of rows) row.forEach((cell, column) => trackers[column]!.observe(isBlank(cell) ? null : cell));
  const names = uniqueColumnNames(Array.from({ length: width }, (_, column) => {
    const cell = header[column];
    return isBlank(cell) ? null : asText(cell);
  }));
  return { headerIndex, plan: names.map((name, column) => ({ name, kind: trackers[column]!.kind })), rows, families: trackers.map((t) => t.families) };
}
