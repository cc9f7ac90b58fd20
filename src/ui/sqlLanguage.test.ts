import { describe, expect, it } from 'vitest';
import { CompletionContext, type CompletionResult, type CompletionSource } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import type { DatasetInfo } from '../../protocol/data';
import { catalogMemo, sameCatalog, sqlSchemaOf } from './sqlCatalog';
import { sqlLanguage } from './sqlLanguage';

const wide = (n: number) => Array.from({ length: n }, (_, c) => `item_${c + 1}`);

/** The labels the editor would offer at `|` in `text` (every completion source, as CodeMirror asks them). */
async function offered(schema: Record<string, string[]>, text: string): Promise<string[]> {
  const at = text.indexOf('|');
  const state = EditorState.create({ doc: text.replace('|', ''), extensions: [sqlLanguage(schema)] });
  const sources = state.languageDataAt<CompletionSource>('autocomplete', at);
  const results = await Promise.all(sources.map((s) => s(new CompletionContext(state, at, true))));
  return results.filter((r): r is CompletionResult => r !== null).flatMap((r) => r.options.map((o) => o.label));
}

// Issue 37: the catalog came again on every change to the dataset list, and each time the SQL
// editor rebuilt its completion (quadratic in a table's columns: ~150 ms for 2,000, busy machine).
describe("the SQL editor's completion", () => {
  it('is built once per catalog: an equal catalog in a new object gives back the same language', () => {
    const first = sqlLanguage({ wide: wide(2_000), penguins: ['species', 'island'] });
    expect(sqlLanguage({ penguins: ['species', 'island'], wide: wide(2_000) })).toBe(first);
    expect(sqlLanguage({ wide: wide(2_000), penguins: ['species', 'sex'] })).not.toBe(first);
  });

  it("offers a 2,000-column table's columns after its name, and the tables elsewhere", async () => {
    const schema = { wide: wide(2_000), penguins: ['species', 'Body Mass (g)'] };
    expect(await offered(schema, 'SELECT wide.item_199|')).toContain('item_1999');
    expect(await offered(schema, 'SELECT w.it| FROM wide w')).toContain('item_2000');
    expect(await offered(schema, 'SELECT * FROM pen|')).toEqual(expect.arrayContaining(['wide', 'penguins']));
  });
});

describe('catalogMemo', () => {
  it('builds again only when a table or a column changes, and keeps a few catalogs', () => {
    const built: string[] = [];
    const memo = catalogMemo((s) => (built.push(Object.keys(s).join()), built.length), 2);
    const a = { t: ['x', 'y'] };
    expect(memo(a)).toBe(1);
    expect(memo({ t: ['x', 'y'] })).toBe(1);
    a.t.push('z'); // the caller's object changed after the build: it is a new catalog
    expect(memo(a)).toBe(2);
    expect(memo({ t: ['x', 'y'] })).toBe(1);
    expect(memo({ u: ['x', 'y'] })).toBe(3);
    expect(memo({ t: ['x', 'y'] })).toBe(1);
    expect(memo({ t: ['x', 'y', 'z'] })).toBe(4); // the least recent of the two kept was dropped
    expect(built).toHaveLength(4);
  });

  it('tells catalogs apart by table, column and order', () => {
    expect(sameCatalog({ t: ['a', 'b'] }, { t: ['a', 'b'] })).toBe(true);
    expect(sameCatalog({ t: ['a', 'b'] }, { t: ['b', 'a'] })).toBe(false);
    expect(sameCatalog({ t: ['a'] }, { u: ['a'] })).toBe(false);
    expect(sameCatalog({ t: ['a'] }, { t: ['a'], u: [] })).toBe(false);
  });
});

describe('sqlSchemaOf', () => {
  it("lists each dataset's columns under its name, in order", () => {
    const ds = (name: string, columns: string[]): DatasetInfo => ({ name, fileName: `${name}.csv`, format: 'csv', rowCount: 1, columns: columns.map((c) => ({ name: c, type: 'BIGINT' })), sizeBytes: 1, loadedAt: 0, persisted: true });
    expect(sqlSchemaOf([ds('wide', wide(3)), ds('empty', [])])).toEqual({ wide: ['item_1', 'item_2', 'item_3'], empty: [] });
  });
});
