import { describe, expect, it } from 'vitest';
import { fitsAsBuffer } from './csvSource';
import { ingestCsv } from './csvIngest';
import { HEADROOM_BYTES } from './footprint';
import { NodeEngine } from './testing/nodeEngine';
import { rowsOf } from './duckdbEngine';

const MB = 1024 ** 2;

describe('buffer or file', { timeout: 60_000 }, () => {
  it('copies a file into DuckDB only when the copy and the table it becomes both fit', () => {
    const ceiling = HEADROOM_BYTES + 250 * MB;
    // 100 MB of CSV: about 150 MB of table (footprint.ts) plus the 100 MB copy.
    expect(fitsAsBuffer('csv', 100 * MB, 0, ceiling)).toBe(true);
    expect(fitsAsBuffer('csv', 100 * MB, 1, ceiling)).toBe(false);
    expect(fitsAsBuffer('csv', 101 * MB, 0, ceiling)).toBe(false);
    expect(fitsAsBuffer('tsv', 98 * 1e6, 0)).toBe(true);
  });

  it('reads the same table from a buffer as from a registered file', async () => {
    const text = 'id,when,price,note\n1,2024-01-02,3.5,"a, b"\n2,2024-02-03,,"line\nbreak"\n3,2024-03-04,7,plain\n';
    const engine = await NodeEngine.open();
    const kinds: string[] = [];
    const registerBlob = engine.registerBlob.bind(engine);
    const registerBuffer = engine.registerBuffer.bind(engine);
    engine.registerBlob = async (name, blob) => {
      kinds.push('file');
      return registerBlob(name, blob);
    };
    engine.registerBuffer = async (name, bytes) => {
      kinds.push('buffer');
      return registerBuffer(name, bytes);
    };
    const read = (table: string, memoryCeilingBytes?: number) =>
      ingestCsv({ engine, blob: new Blob([text]), fileName: 'x.csv', tsv: false, encoding: { encoding: 'utf-8', bom: 0 }, table, path: `/dataseer/${table}.csv`, ...(memoryCeilingBytes ? { memoryCeilingBytes } : {}) });
    const fast = await read('fast');
    // A ceiling below the headroom leaves no room for a copy: the File path.
    const byRef = await read('by_ref', HEADROOM_BYTES);
    expect([fast.ok, byRef.ok]).toEqual([true, true]);
    expect(kinds).toEqual(['buffer', 'file']);
    const rows = (t: string) => engine.query(`SELECT * FROM ${t} ORDER BY id`).then(rowsOf);
    const types = (t: string) => engine.query(`SELECT column_name, data_type FROM information_schema.columns WHERE table_name = '${t}' ORDER BY ordinal_position`).then(rowsOf);
    expect(await rows('fast')).toEqual(await rows('by_ref'));
    expect(await types('fast')).toEqual(await types('by_ref'));
    expect((await rows('fast')).length).toBe(3);
    // The registration is gone after the read either way.
    await expect(engine.query("SELECT * FROM read_csv('/dataseer/fast.csv')")).rejects.toThrow();
  });
});
