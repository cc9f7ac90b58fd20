import { describe, expect, it } from 'vitest';
import { cellName, insertCell, moveCell, newCell, parseNotebookDoc, removeCell, STORED_ROWS, storedOutput } from './model';

const cells = [newCell('sql', 'a', 'a'), newCell('python', 'b', 'b'), newCell('sql', 'c', 'c')];

describe('notebook model', () => {
  it('inserts after a cell, or at the end', () => {
    expect(insertCell(cells, newCell('markdown', '', 'x'), 'a').map((c) => c.id)).toEqual(['a', 'x', 'b', 'c']);
    expect(insertCell(cells, newCell('markdown', '', 'y')).map((c) => c.id)).toEqual(['a', 'b', 'c', 'y']);
  });

  it('moves a cell up or down, and not past an end', () => {
    expect(moveCell(cells, 'b', -1).map((c) => c.id)).toEqual(['b', 'a', 'c']);
    expect(moveCell(cells, 'b', 1).map((c) => c.id)).toEqual(['a', 'c', 'b']);
    expect(moveCell(cells, 'a', -1).map((c) => c.id)).toEqual(['a', 'b', 'c']);
    expect(removeCell(cells, 'b').map((c) => c.id)).toEqual(['a', 'c']);
  });

  it('names cells by kind and position', () => {
    expect(cells.map((c) => cellName(cells, c))).toEqual(['SQL cell 1', 'Python cell 1', 'SQL cell 2']);
  });

  it('keeps a bounded part of a big result for storage', () => {
    const rows = Array.from({ length: STORED_ROWS + 5 }, (_, i) => [i]);
    const out = storedOutput({ kind: 'table', columns: ['n'], types: ['INTEGER'], rows, rowCount: rows.length, truncated: false, elapsedMs: 1 });
    expect(out?.kind === 'table' && [out.rows.length, out.rowCount, out.truncated]).toEqual([STORED_ROWS, STORED_ROWS + 5, true]);
  });

  it('reads a stored notebook, dropping malformed cells', () => {
    const doc = parseNotebookDoc({ id: 'main', cells: [{ id: '1', kind: 'sql', source: 'select 1' }, { id: '2', kind: 'bash', source: 'rm' }, 5], runs: 3 });
    expect(doc?.cells.map((c) => [c.id, c.kind, c.collapsed, c.output])).toEqual([['1', 'sql', false, null]]);
    expect(doc?.runs).toBe(3);
    expect(parseNotebookDoc('nope')).toBeNull();
  });
});
