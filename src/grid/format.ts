/**
 * How a grid shows a value, by its column's DuckDB type: integers of five digits or more with
 * thousands separators (except identifiers and years, which read wrong grouped), FLOAT/REAL at float32's own precision
 * (0.1f is 0.1, not 0.10000000149), DECIMAL(p,s) with its s decimals, DOUBLE to 12 significant
 * digits. The full value is always available beside it (`fullText`).
 */
import type { CellValue } from '../../shared/arrowDecode';
import { cellText } from './cellText';

export type ColumnFormat =
  | { kind: 'int' }
  | { kind: 'plain-int' }
  | { kind: 'float32' }
  | { kind: 'double' }
  | { kind: 'decimal'; scale: number }
  | { kind: 'text' };

const INT = /^(TINYINT|SMALLINT|INTEGER|INT|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|INT1|INT2|INT4|INT8|LONG|SHORT)\b/i;
const FLOAT32 = /^(FLOAT|REAL|FLOAT4)\b/i;
const DOUBLE = /^(DOUBLE|FLOAT8)\b/i;
const DECIMAL = /^(DECIMAL|NUMERIC)\s*\(\s*\d+\s*,\s*(\d+)\s*\)/i;
/** Names whose integers are labels, not quantities: grouping them (2,024; 10,234 as an id) misleads. */
const LABEL_NAME = /(^|[^a-z])(id|year|yr|code|zip|zipcode|postcode|postal|fips|phone|number|no|num|key)$/i;

export function columnFormat(name: string, type: string): ColumnFormat {
  const t = type.trim();
  if (INT.test(t)) return LABEL_NAME.test(name.trim()) || /^id/i.test(name.trim()) ? { kind: 'plain-int' } : { kind: 'int' };
  if (FLOAT32.test(t)) return { kind: 'float32' };
  if (DOUBLE.test(t)) return { kind: 'double' };
  const dec = DECIMAL.exec(t);
  if (dec) return { kind: 'decimal', scale: Number(dec[2]) };
  return { kind: 'text' };
}

/**
 * Digits grouped by three with commas, for an integer held as a number or a digit string — from
 * five digits on (style guides leave 1461 whole; 12,345 is where grouping starts to help).
 */
export function groupDigits(text: string): string {
  const m = /^(-?)(\d+)$/.exec(text);
  if (!m || (m[2] ?? '').length < 5) return text;
  return `${m[1]}${(m[2] ?? '').replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}

/** The shortest decimal that reads back as the same float32. */
export function float32Text(v: number): string {
  if (!Number.isFinite(v) || Number.isInteger(v)) return String(v);
  const target = Math.fround(v);
  for (let p = 1; p <= 9; p++) {
    const s = v.toPrecision(p);
    if (Math.fround(Number(s)) === target) return String(Number(s));
  }
  return String(v);
}

export function formatCell(v: CellValue | undefined, format: ColumnFormat): string {
  if (v === undefined || v === null) return cellText(v);
  switch (format.kind) {
    case 'int':
      return typeof v === 'number' || typeof v === 'string' ? groupDigits(String(v)) : cellText(v);
    case 'float32':
      return typeof v === 'number' ? float32Text(v) : cellText(v);
    case 'decimal':
      return typeof v === 'number' && Number.isFinite(v) ? v.toFixed(format.scale) : cellText(v);
    default:
      return cellText(v);
  }
}

/** The value in full, for the tooltip and the cell detail (what a copy gives). */
export function fullText(v: CellValue | undefined, format: ColumnFormat): string {
  if (typeof v === 'number' && format.kind === 'float32') return float32Text(v);
  if (typeof v === 'number' && format.kind === 'decimal' && Number.isFinite(v)) return v.toFixed(format.scale);
  if (typeof v === 'number') return String(v);
  return cellText(v);
}
