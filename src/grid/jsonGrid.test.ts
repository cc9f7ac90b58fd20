import { describe, expect, it } from 'vitest';
import { jsonGrid } from './jsonGrid';

describe('jsonGrid', () => {
  it('types number columns DOUBLE and others VARCHAR, nulls aside, and writes nested values as JSON', () => {
    const g = jsonGrid(['n', 'name', 'tags', 'empty'], [
      [1, 'a', ['x'], null],
      [null, 'b', { k: 1 }],
      [2.5, 3, null, null],
    ]);
    expect(g.columns).toEqual([
      { name: 'n', type: 'DOUBLE' },
      { name: 'name', type: 'VARCHAR' },
      { name: 'tags', type: 'VARCHAR' },
      { name: 'empty', type: 'VARCHAR' },
    ]);
    expect(g.rows).toEqual([
      [1, 'a', '["x"]', null],
      [null, 'b', '{"k":1}', null],
      [2.5, 3, null, null],
    ]);
  });
});
