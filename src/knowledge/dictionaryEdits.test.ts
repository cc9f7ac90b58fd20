import { describe, expect, it } from 'vitest';
import { emptyDictionary } from '../../protocol/agent/knowledge';
import { editedColumn, editedDictionary } from './dictionaryEdits';

const wide = () => emptyDictionary('sensors', Array.from({ length: 2_000 }, (_, c) => `item_${c + 1}`));

describe('edits of the dictionary being written', () => {
  it('change one column in a new dictionary, sharing the others and leaving the old one as it was', () => {
    const before = wide();
    const after = editedColumn(before, 1_500, (c) => (c.description = 'Temperature at the mast'));
    expect(after).not.toBe(before);
    expect(after.columns[1_500]?.description).toBe('Temperature at the mast');
    expect(before.columns[1_500]?.description).toBe('');
    expect(after.columns.filter((c, i) => c !== before.columns[i])).toHaveLength(1);
  });

  it('give back the same dictionary for a column that is not there', () => {
    const before = wide();
    expect(editedColumn(before, 2_000, (c) => (c.unit = 'K'))).toBe(before);
  });

  it('set top-level fields on a copy', () => {
    const before = wide();
    const after = editedDictionary(before, (d) => (d.row_meaning = 'one reading'));
    expect([after.row_meaning, before.row_meaning]).toEqual(['one reading', '']);
    expect(after.columns).toBe(before.columns);
  });
});
