/// <reference types="node" />
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/duckdb-wasm/blocking';
import { Field, Int32, RecordBatch, Schema, Struct, Table, makeData, tableToIPC } from 'apache-arrow';
import { Table as WasmTable, writeParquet } from 'parquet-wasm/esm';
import { convertParquet } from './parquet';
import { setParquetWasmSource } from './parquetWasm';
import { insertConverted, nativeRows, openWasmDuckDB, queryRows, vegaDataset } from './testing/duckdbHarness';

const require = createRequire(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'readers-parquet-'));
let conn: DuckDBConnection;

beforeAll(async () => {
  setParquetWasmSource(readFileSync(require.resolve('parquet-wasm/esm/parquet_wasm_bg.wasm')));
  conn = await openWasmDuckDB();
}, 60_000);

function fileBlob(path: string): Blob {
  return new Blob([readFileSync(path)]);
}

describe('convertParquet', () => {
  it('converts the 3-million-row flights file quickly, and DuckDB-WASM agrees with native DuckDB', async () => {
    const path = vegaDataset('flights-3m.parquet');
    const progress: number[] = [];
    const started = performance.now();
    const [table] = await convertParquet(fileBlob(path), { onProgress: (f) => progress.push(f) });
    let streams = 0;
    let bytes = 0;
    for await (const ipc of table!.batches) {
      streams++;
      bytes += ipc.byteLength;
    }
    const convertMs = performance.now() - started;
    console.log(`flights-3m.parquet → ${streams} IPC streams, ${(bytes / 1e6).toFixed(0)} MB in ${convertMs.toFixed(0)} ms`);
    expect(convertMs).toBeLessThan(20_000);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const [again] = await convertParquet(fileBlob(path), {});
    await insertConverted(conn, 'flights', again!);
    const sql = (from: string) =>
      `select count(*)::varchar n, sum(delay)::varchar delay, sum(distance)::varchar distance,
       count(distinct origin)::varchar origins, min(date)::varchar AS first_date, max(date)::varchar AS last_date,
       typeof(any_value(date)) date_type, typeof(any_value(delay)) delay_type, typeof(any_value(origin)) origin_type
       from ${from}`;
    const wasm = queryRows(conn, sql('flights'));
    expect(wasm[0]!.n).toBe('3000000');
    expect(wasm).toEqual(await nativeRows(sql(`read_parquet('${path}')`)));
  }, 120_000);

  it('keeps column types DuckDB-WASM can ingest, across compression codecs', async () => {
    const select = `select (i % 100)::TINYINT AS i8, i::INTEGER AS i32, (i * 1e12)::BIGINT AS i64, i::UINTEGER AS u32,
      (i / 4)::DOUBLE AS f64, (i / 4)::FLOAT AS f32, (i * 1.25)::DECIMAL(10, 2) AS dec, i % 2 = 0 AS flag,
      'row ' || i || ' é ☕' AS txt, DATE '2024-02-28' + i::INTEGER AS day,
      TIMESTAMP '2024-01-01 10:00:00.123456' + to_hours(i::INTEGER) AS ts,
      TIMESTAMPTZ '2024-01-01 10:00:00+00' + to_hours(i::INTEGER) AS tstz,
      [i, i + 1] AS list, {'a': i, 'b': 'x'} AS rec,
      CASE WHEN i % 3 = 0 THEN NULL ELSE i END AS sparse
      from range(1000) t(i)`;
    const summary = (from: string) =>
      `select count(*)::varchar n, sum(i8)::varchar a, sum(i64)::varchar b, sum(u32)::varchar c, sum(f64)::varchar d,
       sum(f32)::varchar e, sum(dec)::varchar f, count_if(flag)::varchar g, max(txt) h, max(day)::varchar j,
       max(ts)::varchar k, max(tstz)::varchar l, sum(list[2])::varchar m, max(rec.a)::varchar o,
       count(sparse)::varchar p, string_agg(DISTINCT typeof(i32) || typeof(day) || typeof(ts) || typeof(dec) || typeof(flag) || typeof(txt), ',') AS types
       from ${from}`;
    for (const codec of ['uncompressed', 'snappy', 'gzip', 'zstd', 'lz4', 'brotli']) {
      const path = join(dir, `types-${codec}.parquet`);
      await nativeRows(`COPY (${select}) TO '${path}' (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE 300)`);
      const [table] = await convertParquet(fileBlob(path), {});
      const name = `types_${codec}`;
      await insertConverted(conn, name, table!);
      const wasm = queryRows(conn, summary(name));
      expect(wasm[0]!.types).toBe('INTEGERDATETIMESTAMPDECIMAL(10,2)BOOLEANVARCHAR');
      expect(wasm, codec).toEqual(await nativeRows(summary(`read_parquet('${path}')`)));
    }
  }, 60_000);

  it('creates an empty table from a file with no rows', async () => {
    const path = join(dir, 'empty.parquet');
    await nativeRows(`COPY (select 1::INTEGER a, 'x' b where false) TO '${path}' (FORMAT parquet)`);
    const [table] = await convertParquet(fileBlob(path), {});
    await insertConverted(conn, 'empty_parquet', table!);
    expect(queryRows(conn, `select column_name, data_type from information_schema.columns where table_name = 'empty_parquet' order by ordinal_position`))
      .toEqual([{ column_name: 'a', data_type: 'INTEGER' }, { column_name: 'b', data_type: 'VARCHAR' }]);
    expect(queryRows(conn, 'select count(*)::varchar n from empty_parquet')).toEqual([{ n: '0' }]);
  });

  it('renames blank and clashing column names, keeping the rest verbatim', async () => {
    // DuckDB refuses to write such names, so build the file from an Arrow table.
    const fields = ['A', 'a', '', 'say "hi" <script>', 'café'].map((name) => new Field(name, new Int32(), true));
    const schema = new Schema(fields);
    const children = fields.map((_, i) => makeData({ type: new Int32(), length: 1, data: Int32Array.of(i + 1) }));
    const arrowTable = new Table([new RecordBatch(schema, makeData({ type: new Struct(fields), length: 1, nullCount: 0, children }))]);
    const parquet = writeParquet(WasmTable.fromIPCStream(tableToIPC(arrowTable, 'stream')));
    const [table] = await convertParquet(new Blob([parquet.slice()]), {});
    await insertConverted(conn, 'names_parquet', table!);
    const columns = queryRows(conn, `select column_name from information_schema.columns where table_name = 'names_parquet' order by ordinal_position`);
    expect(columns.map((c) => c.column_name)).toEqual(['A', 'a_2', 'column_3', 'say "hi" <script>', 'café']);
    expect(queryRows(conn, 'select "a_2" + "column_3" s from names_parquet')).toEqual([{ s: 5 }]);
  });

  it('rejects a truncated file with a clear cause', async () => {
    const bytes = readFileSync(vegaDataset('flights-3m.parquet'));
    const cut = new Blob([bytes.subarray(0, Math.floor(bytes.length / 2))]);
    await expect(convertParquet(cut, {})).rejects.toThrow(/^truncated or corrupt Parquet file: .*cut short/);
    await expect(convertParquet(new Blob(['a,b\n1,2\n']), {})).rejects.toThrow(/^truncated or corrupt Parquet file: /);
  });

  it('rejects a file whose footer is damaged', async () => {
    const path = join(dir, 'footer.parquet');
    await nativeRows(`COPY (select range i from range(100)) TO '${path}' (FORMAT parquet)`);
    const bytes = new Uint8Array(readFileSync(path));
    // Scribble over the Thrift footer but keep its length and the PAR1 framing intact.
    const footerLength = new DataView(bytes.buffer).getUint32(bytes.length - 8, true);
    bytes.fill(0xff, bytes.length - 8 - footerLength, bytes.length - 8);
    await expect(convertParquet(new Blob([bytes]), {})).rejects.toThrow(/^truncated or corrupt Parquet file: /);
  });
});
