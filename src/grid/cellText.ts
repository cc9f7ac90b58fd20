import type { CellValue } from '../../shared/arrowDecode';

/** How a cell reads on screen. Always plain text: values are never parsed as HTML. */
export function cellText(v: CellValue | undefined): string {
  if (v === undefined) return '';
  if (v === null) return 'NULL';
  if (typeof v === 'number') return Number.isInteger(v) || !Number.isFinite(v) ? String(v) : String(Number(v.toPrecision(12)));
  return String(v);
}

const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|INT|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|REAL|DOUBLE|DECIMAL|NUMERIC)\b/i;

export function isNumericType(type: string): boolean {
  return NUMERIC.test(type.trim());
}

/** Column width in px from its header and type; data is not measured (it is not all loaded). */
export function columnWidth(name: string, type: string): number {
  const base = isNumericType(type) ? 110 : 170;
  return Math.min(320, Math.max(base, name.length * 8 + 36));
}
