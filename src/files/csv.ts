/**
 * A result table as CSV (RFC 4180): comma-separated, CRLF line ends, a field quoted when it
 * holds a comma, quote, CR or LF (or leading/trailing spaces), quotes doubled. NULL is an empty
 * field. A UTF-8 byte-order mark leads the file by default so Excel reads accents correctly
 * (pandas, DuckDB and R skip it).
 *
 * Spreadsheets run a cell starting with `=`, `+`, `-`, `@`, tab or CR as a formula, so such text
 * gets a leading `'` (OWASP's advice against CSV injection); numbers, including negative ones
 * and numeric text, are never changed.
 */

export const CSV_BOM = '\uFEFF';

export interface CsvOptions {
  /** Lead with a UTF-8 byte-order mark (default true). */
  bom?: boolean;
  /** Neutralise text a spreadsheet would run as a formula (default true). */
  protectFormulas?: boolean;
}

const FORMULA_START = /^[=+\-@\t\r]/;
const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Text a spreadsheet would run as a formula (`=HYPERLINK(…)`, DDE `=cmd|…`, `@SUM(…)`), made inert with a leading `'`. */
export function protectFormula(text: string): string {
  return FORMULA_START.test(text) && !NUMERIC.test(text) ? `'${text}` : text;
}

function fieldText(v: unknown, protect: boolean): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return protect ? protectFormula(text) : text;
}

export function csvField(v: unknown, protect = true): string {
  const text = fieldText(v, protect);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(columns: string[], rows: readonly (readonly unknown[])[], options: CsvOptions = {}): string {
  const protect = options.protectFormulas ?? true;
  const line = (cells: readonly unknown[]) => cells.map((c) => csvField(c, protect)).join(',');
  const body = [line(columns), ...rows.map((r) => line(columns.map((_, i) => r[i])))].join('\r\n');
  return `${options.bom === false ? '' : CSV_BOM}${body}\r\n`;
}
