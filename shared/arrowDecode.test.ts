import { describe, expect, it } from 'vitest';
import { DateDay, Float64, Int64, Table, TimestampMillisecond, Utf8, tableFromArrays, tableToIPC, vectorFromArray } from 'apache-arrow';
import { decodeIpc, decodeResult } from './arrowDecode';

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
});
