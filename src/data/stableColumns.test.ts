import { describe, expect, it } from 'vitest';
import type { DatasetInfo } from '../../protocol/data';
import { keepColumnLists, sameColumns } from './stableColumns';

const ds = (name: string, columns: [string, string][], rowCount = 10): DatasetInfo => ({
  name,
  fileName: `${name}.csv`,
  format: 'csv',
  rowCount,
  columns: columns.map(([n, type]) => ({ name: n, type })),
  sizeBytes: 1,
  loadedAt: 0,
  persisted: true,
});

describe('keepColumnLists', () => {
  it("keeps a dataset's column list when an event brings the same columns, and takes the rest of the entry", () => {
    const old = [ds('wide', [['a', 'BIGINT'], ['b', 'VARCHAR']]), ds('other', [['x', 'DATE']])];
    const next = [ds('wide', [['a', 'BIGINT'], ['b', 'VARCHAR']], 99), ds('other', [['x', 'DATE']])];
    const kept = keepColumnLists(old, next);
    expect(kept[0]?.columns).toBe(old[0]?.columns);
    expect(kept[0]?.rowCount).toBe(99);
    expect(kept[1]?.columns).toBe(old[1]?.columns);
  });

  it('takes the new list when a name, a type or the order changed, and for a new dataset', () => {
    const old = [ds('t', [['a', 'BIGINT'], ['b', 'VARCHAR']])];
    for (const cols of [[['a', 'DOUBLE'], ['b', 'VARCHAR']], [['b', 'VARCHAR'], ['a', 'BIGINT']], [['a', 'BIGINT']], [['a', 'BIGINT'], ['c', 'VARCHAR']]] as [string, string][][]) {
      const next = [ds('t', cols)];
      expect(keepColumnLists(old, next)[0]?.columns).toBe(next[0]?.columns);
    }
    const fresh = [ds('u', [['a', 'BIGINT'], ['b', 'VARCHAR']])];
    expect(keepColumnLists(old, fresh)[0]).toBe(fresh[0]);
  });

  it('compares names and types in order', () => {
    expect(sameColumns([{ name: 'a', type: 'X' }], [{ name: 'a', type: 'X' }])).toBe(true);
    expect(sameColumns([{ name: 'a', type: 'X' }], [{ name: 'a', type: 'Y' }])).toBe(false);
    expect(sameColumns([], [])).toBe(true);
  });
});
