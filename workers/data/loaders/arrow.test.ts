/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  Dictionary,
  Float64,
  Int32,
  RecordBatchFileWriter,
  Utf8,
  makeData,
  makeVector,
  tableFromArrays,
  tableToIPC,
  vectorFromArray,
  Table,
} from 'apache-arrow';
import type { DuckDBConnection } from '@duckdb/duckdb-wasm/blocking';
import { convertArrow } from './arrow';
import { insertConverted, nativeRows, openWasmDuckDB, queryRows, vegaDataset } from './testing/duckdbHarness';

let conn: DuckDBConnection;
beforeAll(async () => {
  conn = await openWasmDuckDB();
}, 60_000);

async function collect(table: { batches: AsyncIterable<Uint8Array> }): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const ipc of table.batches) out.push(ipc);
  return out;
}

describe('convertArrow', () => {
  it('streams the flights-200k Arrow file into DuckDB-WASM with the same values as the JSON version', async () => {
    const progress: number[] = [];
    const [table] = await convertArrow(new Blob([readFileSync(vegaDataset('flights-200k.arrow'))]), {
      onProgress: (f) => progress.push(f),
    });
    await insertConverted(conn, 'flights_arrow', table!);
    expect(progress.at(-1)).toBe(1);
    const sql = (from: string) =>
      `select count(*)::varchar n, sum(delay)::varchar delay, sum(distance)::varchar distance from ${from}`;
    const wasm = queryRows(conn, sql('flights_arrow'));
    expect(wasm[0]!.n).toBe('200000');
    // The vega-datasets JSON copy of the same flights, read by native DuckDB, is the oracle.
    expect(wasm).toEqual(await nativeRows(sql(`read_json('${vegaDataset('flights-200k.json')}')`)));
    expect(queryRows(conn, `select typeof(delay) d, typeof(time) t from flights_arrow limit 1`)).toEqual([
      { d: 'SMALLINT', t: 'FLOAT' },
    ]);
  });

  it('reads the stream format and dictionary-encoded strings', async () => {
    const city = vectorFromArray(['Oslo', 'Lima', 'Oslo', null], new Dictionary(new Utf8(), new Int32()));
    const source = new Table({ city, n: vectorFromArray([1, 2, 3, 4], new Int32()) });
    const [table] = await convertArrow(new Blob([tableToIPC(source, 'stream').slice()]), {});
    await insertConverted(conn, 'dict_stream', table!);
    expect(queryRows(conn, `select city, sum(n)::int s from dict_stream group by city order by city nulls last`)).toEqual([
      { city: 'Lima', s: 2 },
      { city: 'Oslo', s: 4 },
      { city: null, s: 4 },
    ]);
  });

  it('splits a huge record batch into bounded streams without losing rows', async () => {
    const rows = 3_000_000;
    const values = new Float64Array(rows).map((_, i) => i % 1000);
    // A null every 7th row: slices start at offsets that are not byte-aligned in the validity bitmap.
    const validity = new Uint8Array(Math.ceil(rows / 8));
    for (let i = 0; i < rows; i++) if (i % 7 !== 0) validity[i >> 3]! |= 1 << (i & 7);
    const w = makeData({ type: new Int32(), length: rows, nullCount: Math.ceil(rows / 7), nullBitmap: validity, data: new Int32Array(rows).fill(2) });
    const source = new Table({ v: makeVector({ type: new Float64(), data: values }), w: makeVector(w) });
    const file = RecordBatchFileWriter.writeAll(source).toUint8Array(true);
    const streams = await collect((await convertArrow(new Blob([file.slice()]), {}))[0]!);
    expect(streams.length).toBeGreaterThan(1);
    for (let i = 0; i < streams.length; i++) conn.insertArrowFromIPCStream(streams[i]!, { name: 'big_arrow', create: i === 0 });
    expect(queryRows(conn, 'select count(*)::varchar n, sum(v)::bigint::varchar s, count(w)::varchar w from big_arrow')).toEqual([
      { n: String(rows), s: String((rows / 1000) * ((999 * 1000) / 2)), w: String(rows - Math.ceil(rows / 7)) },
    ]);
  }, 60_000);

  it('creates an empty table from a schema with no batches and fixes clashing names', async () => {
    const source = tableFromArrays({ a: new Int32Array(0), A: new Int32Array(0) });
    const [table] = await convertArrow(new Blob([tableToIPC(source, 'file').slice()]), {});
    await insertConverted(conn, 'empty_arrow', table!);
    expect(
      queryRows(conn, `select column_name from information_schema.columns where table_name = 'empty_arrow' order by ordinal_position`),
    ).toEqual([{ column_name: 'a' }, { column_name: 'A_2' }]);
  });

  it('rejects bytes that are not Arrow, and Feather v1', async () => {
    await expect(convertArrow(new Blob(['{"not": "arrow"}']), {})).rejects.toThrow(/Arrow IPC/);
    await expect(convertArrow(new Blob(['FEA1xxxxxxxxxxxxxx']), {})).rejects.toThrow(/Feather v1/);
    const whole = tableToIPC(tableFromArrays({ x: new Int32Array([1, 2, 3]) }), 'file');
    await expect(
      convertArrow(new Blob([whole.slice(0, whole.length - 20)]), {}).then((t) => collect(t[0]!)),
    ).rejects.toThrow(/Arrow IPC/);
  });
});
