import { describe, expect, it } from 'vitest';
import { Bool, DateDay, Float64, Int32, Int64, Table, TimestampMillisecond, Utf8, tableFromArrays, tableToIPC, vectorFromArray } from 'apache-arrow';
import { decodeIpc, decodeIpcSliced, decodeResult } from './arrowDecode';

describe('decodeIpc', () => {
  it('turns an IPC stream into rows of display-ready cells', () => {
    const table = tableFromArrays({
      name: ['Adélie', 'a "quoted" <b>name</b>', null],
      mass: Float64Array.from([3750, 3800.5, NaN]),
    });
    const { rows, fields } = decodeIpc(tableToIPC(table, 'stream'));
    expect(fields.map((f) => f.name)).toEqual(['name', 'mass']);
    expect(rows).toEqual([
      ['Adélie', 3750],
      ['a "quoted" <b>name</b>', 3800.5],
      [null, NaN],
    ]);
  });

  it('keeps big integers exact and formats dates and timestamps', () => {
    const id = vectorFromArray([1n, 9007199254740993n], new Int64());
    const day = vectorFromArray([new Date(Date.UTC(2012, 0, 31))], new DateDay());
    const ts = vectorFromArray([new Date(Date.UTC(2020, 4, 6, 7, 8, 9, 10))], new TimestampMillisecond());
    const t1 = new Table({ id });
    expect(decodeIpc(tableToIPC(t1, 'stream')).rows).toEqual([[1], ['9007199254740993']]);
    const t2 = new Table({ day, ts });
    expect(decodeIpc(tableToIPC(t2, 'stream')).rows).toEqual([['2012-01-31', '2020-05-06 07:08:09.010']]);
  });

  it('carries the worker metadata through decodeResult', () => {
    const table = new Table({ s: vectorFromArray(['x', 'y'], new Utf8()) });
    const decoded = decodeResult({
      columns: [{ name: 's', type: 'VARCHAR' }],
      ipc: tableToIPC(table, 'stream'),
      rowCount: 2,
      truncated: true,
      elapsedMs: 4,
    });
    expect(decoded).toMatchObject({ rowCount: 2, truncated: true, elapsedMs: 4, rows: [['x'], ['y']] });
  });

  it('decodes an empty result with a schema', () => {
    const table = new Table({ a: vectorFromArray([], new Float64()) });
    expect(table.schema.fields.map((f) => f.name)).toEqual(['a']);
    expect(decodeIpc(tableToIPC(table, 'stream')).rows).toEqual([]);
  });

  it('reads numbers and text from their buffers with their missing values, batch after batch', () => {
    const part = (from: number) =>
      new Table({
        n: vectorFromArray([from, null, from + 2], new Int32()),
        big: vectorFromArray([BigInt(from), null, 9007199254740993n], new Int64()),
        s: vectorFromArray([`é${from}`, null, ''], new Utf8()),
        b: vectorFromArray([true, null, false], new Bool()),
      });
    // Two record batches in one stream, as DuckDB sends a result larger than a vector.
    const ipc = tableToIPC(part(1).concat(part(10)), 'stream');
    const { rows, fields } = decodeIpc(ipc);
    expect(fields.map((f) => f.name)).toEqual(['n', 'big', 's', 'b']);
    expect(rows).toEqual([
      [1, 1, 'é1', true],
      [null, null, null, null],
      [3, '9007199254740993', '', false],
      [10, 10, 'é10', true],
      [null, null, null, null],
      [12, '9007199254740993', '', false],
    ]);
  });

  it('decodes in slices to the same rows, letting the event loop through', async () => {
    const columns = Object.fromEntries(Array.from({ length: 300 }, (_, c) => [`c${c}`, vectorFromArray(Array.from({ length: 200 }, (_, r) => (r * c) % 97), new Int32())]));
    const ipc = tableToIPC(new Table(columns), 'stream');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      const sliced = await decodeIpcSliced(ipc, {}, 0);
      expect(sliced.rows).toEqual(decodeIpc(ipc).rows);
      expect(sliced.rows[199]?.[299]).toBe((199 * 299) % 97);
    } finally {
      clearInterval(timer);
    }
    // A 0 ms slice yields after every column: timers ran while it decoded.
    expect(ticks).toBeGreaterThan(0);
    expect((await decodeIpcSliced(tableToIPC(new Table({ a: vectorFromArray([], new Float64()) }), 'stream'))).rows).toEqual([]);
  });
});
