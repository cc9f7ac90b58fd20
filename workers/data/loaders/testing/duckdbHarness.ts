/// <reference types="node" />
/**
 * Test-only: the real DuckDB-WASM engine (Node blocking build) that the readers' IPC streams are
 * inserted into, so tests prove DuckDB accepts what they produce. Not imported by app code.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/duckdb-wasm/blocking';
import { bootNodeDuckDB } from '../../testing/nodeDuckDB';
import type { ConvertedTable } from '../types';

const require = createRequire(import.meta.url);

export async function openWasmDuckDB(): Promise<DuckDBConnection> {
  return (await bootNodeDuckDB()).connect();
}

/** Inserts a converted table the way the engine does: the first stream creates, the rest append. */
export async function insertConverted(
  conn: DuckDBConnection,
  name: string,
  table: ConvertedTable,
): Promise<number> {
  let streams = 0;
  for await (const ipc of table.batches) {
    conn.insertArrowFromIPCStream(ipc, { name, create: streams === 0 });
    streams++;
  }
  return streams;
}

/** First row of a query as plain JS values (BIGINT → number when safe, else string). */
export function queryRow(conn: DuckDBConnection, sql: string): Record<string, unknown> {
  const row = conn.query(sql).toArray()[0] as { toJSON(): Record<string, unknown> } | undefined;
  if (!row) throw new Error(`no rows from: ${sql}`);
  return Object.fromEntries(Object.entries(row.toJSON()).map(([key, value]) => [key, plain(value)]));
}

export function queryRows(conn: DuckDBConnection, sql: string): Record<string, unknown>[] {
  return conn
    .query(sql)
    .toArray()
    .map((row: { toJSON(): Record<string, unknown> }) =>
      Object.fromEntries(Object.entries(row.toJSON()).map(([key, value]) => [key, plain(value)])),
    );
}

function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
  return value;
}

export function vegaDataset(file: string): string {
  // The package's exports hide package.json; its main entry sits in build/.
  return join(dirname(require.resolve('vega-datasets')), '..', 'data', file);
}

/**
 * Native DuckDB (reads Parquet/JSON itself) as an independent oracle: the same query on the
 * source file must give what DuckDB-WASM gives on the converted table. Cast results to VARCHAR
 * in the SQL so both engines print values the same way.
 */
export async function nativeRows(sql: string): Promise<Record<string, unknown>[]> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
