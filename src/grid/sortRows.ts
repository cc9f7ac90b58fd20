import type { CellValue } from '../../shared/arrowDecode';
import { protectFormula } from '../files/csv';

/** A capped result sorted whole by its owner (in DuckDB): the first rows in the new order. */
export type SortAllOutcome = { ok: true; rows: CellValue[][] } | { ok: false; message: string };

/** Row order for a sort by one column: numbers by value, text by locale, NULLs last either way. */
export function sortOrder(rows: readonly (readonly CellValue[])[], column: number, descending: boolean): number[] {
  const order = rows.map((_, i) => i);
  const sign = descending ? -1 : 1;
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  order.sort((a, b) => {
    const x = rows[a]?.[column] ?? null;
    const y = rows[b]?.[column] ?? null;
    if (x === null || y === null) return x === y ? a - b : x === null ? 1 : -1;
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y));
    return c === 0 ? a - b : sign * c;
  });
  return order;
}

/**
 * Rows as tab-separated text (a spreadsheet pastes it into cells): tabs and newlines inside values
 * become spaces, and text a spreadsheet would run as a formula is neutralised as in the CSV download.
 */
export function toTsv(columns: readonly string[], rows: readonly (readonly CellValue[])[]): string {
  const clean = (v: CellValue | undefined) =>
    v === null || v === undefined ? '' : typeof v === 'string' ? protectFormula(v).replace(/[\t\r\n]+/g, ' ') : String(v).replace(/[\t\r\n]+/g, ' ');
  return [columns.map((c) => clean(c)).join('\t'), ...rows.map((r) => columns.map((_, i) => clean(r[i])).join('\t'))].join('\n');
}
