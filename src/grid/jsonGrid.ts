/**
 * Rows that arrive as JSON (a tool's output, Python's `result`) as the grid takes them: each
 * column typed from its values (numbers → DOUBLE, so they align and sort as numbers; anything
 * else → VARCHAR), and nested values written out as JSON text.
 */
import type { CellValue } from '../../shared/arrowDecode';
import type { ColumnInfo } from '../../protocol/data';

export function jsonGrid(names: readonly string[], rows: readonly (readonly unknown[])[]): { columns: ColumnInfo[]; rows: CellValue[][] } {
  const cells = rows.map((r) => names.map((_, c): CellValue => {
    const v = r[c];
    if (v === undefined || v === null) return null;
    if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
    return JSON.stringify(v);
  }));
  const columns = names.map((name, c): ColumnInfo => {
    const values = cells.map((r) => r[c]).filter((v) => v !== null);
    return { name, type: values.length > 0 && values.every((v) => typeof v === 'number') ? 'DOUBLE' : 'VARCHAR' };
  });
  return { columns, rows: cells };
}
