import type { CellValue } from '../../shared/arrowDecode';
import { formatCell, fullText, type ColumnFormat } from './format';

/**
 * Indices of the rows where some cell contains `text`, case-insensitively — as shown (12,345) or
 * in full (12345), so what the user reads or copies both find it. Blank text keeps every row.
 */
export function filterRows(rows: readonly (readonly CellValue[])[], formats: readonly ColumnFormat[], text: string): number[] {
  const needle = text.trim().toLowerCase();
  const all = rows.map((_, i) => i);
  if (!needle) return all;
  return all.filter((i) => {
    const row = rows[i] ?? [];
    return row.some((v, c) => {
      if (v === null) return false;
      const f = formats[c] ?? { kind: 'text' as const };
      return fullText(v, f).toLowerCase().includes(needle) || formatCell(v, f).toLowerCase().includes(needle);
    });
  });
}
