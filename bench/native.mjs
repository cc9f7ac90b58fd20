// The same workload in native DuckDB (@duckdb/node-api): the baseline the WASM figures are
// divided by. Every op runs REPEATS times per pass on a fresh instance. The bench makes one pass
// before and one after the browser run and reports the median of all samples, so a burst of
// load on a shared machine skews the baseline less.
import { DuckDBInstance } from '@duckdb/node-api';
import { CSV_GROUP_BY, CSV_GROUP_BY_ROWS, CSV_TABLE, median, PARQUET_AGGREGATE, PARQUET_FILE, PARQUET_TABLE, REPEATS } from './workload.mjs';

async function timed(fn) {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

function sqlString(s) {
  return `'${s.replaceAll("'", "''")}'`;
}

async function rowsOf(conn, sql) {
  const reader = await conn.runAndReadAll(sql);
  return reader.getRowsJS().length;
}

/**
 * @typedef {{ startup: number[], csvIngest: number[], groupBy: number[], parquetLoad: number[], parquetAggregate: number[], csvIngest1: number[], groupBy1: number[], parquetLoad1: number[], parquetAggregate1: number[] }} NativeSamples
 * @typedef {{ samples: NativeSamples, threads: string, version: string, csvRows: number, parquetRows: number, aggregateRows: number }} NativePass
 */

/** Medians (ms) over the samples of every pass. */
export function nativeMedians(passes) {
  const pick = (k) => median(passes.flatMap((p) => p.samples[k]));
  return {
    startup: pick('startup'),
    csvIngest: pick('csvIngest'),
    groupBy: pick('groupBy'),
    parquetLoad: pick('parquetLoad'),
    parquetAggregate: pick('parquetAggregate'),
    oneThread: { csvIngest: pick('csvIngest1'), groupBy: pick('groupBy1'), parquetLoad: pick('parquetLoad1'), parquetAggregate: pick('parquetAggregate1') },
  };
}

/**
 * @param {string} csvPath
 * @returns {Promise<NativePass>} raw timings in ms
 */
export async function runNative(csvPath) {
  /** @type {NativeSamples} */
  const samples = { startup: [], csvIngest: [], groupBy: [], parquetLoad: [], parquetAggregate: [], csvIngest1: [], groupBy1: [], parquetLoad1: [], parquetAggregate1: [] };
  let threads = '';
  let version = '';
  let csvRows = 0;
  let parquetRows = 0;
  let aggregateRows = 0;
  for (let i = 0; i < REPEATS; i++) {
    const start = await timed(async () => {
      const instance = await DuckDBInstance.create(':memory:');
      return { instance, conn: await instance.connect() };
    });
    samples.startup.push(start.ms);
    const { instance, conn } = start.value;
    try {
      if (i === 0) {
        const r = await conn.runAndReadAll("SELECT current_setting('threads')::VARCHAR, version()");
        [[threads, version]] = r.getRowsJS();
      }
      samples.csvIngest.push((await timed(() => conn.run(`CREATE TABLE ${CSV_TABLE} AS SELECT * FROM read_csv(${sqlString(csvPath)})`))).ms);
      csvRows = Number((await conn.runAndReadAll(`SELECT count(*) FROM ${CSV_TABLE}`)).getRowsJS()[0][0]);
      const g = await timed(() => rowsOf(conn, CSV_GROUP_BY));
      if (g.value !== CSV_GROUP_BY_ROWS) throw new Error(`native GROUP BY returned ${g.value} rows, expected ${CSV_GROUP_BY_ROWS}`);
      samples.groupBy.push(g.ms);
      samples.parquetLoad.push((await timed(() => conn.run(`CREATE TABLE ${PARQUET_TABLE} AS SELECT * FROM read_parquet(${sqlString(PARQUET_FILE)})`))).ms);
      parquetRows = Number((await conn.runAndReadAll(`SELECT count(*) FROM ${PARQUET_TABLE}`)).getRowsJS()[0][0]);
      const a = await timed(() => rowsOf(conn, PARQUET_AGGREGATE));
      aggregateRows = a.value;
      samples.parquetAggregate.push(a.ms);
      // The same work on one thread, as DuckDB-WASM runs here (its threaded build is not used):
      // the ratio against this is the engine's own cost, apart from the second core.
      await conn.run('SET threads = 1');
      samples.csvIngest1.push((await timed(() => conn.run(`CREATE TABLE csv_one AS SELECT * FROM read_csv(${sqlString(csvPath)})`))).ms);
      samples.groupBy1.push((await timed(() => rowsOf(conn, CSV_GROUP_BY))).ms);
      samples.parquetLoad1.push((await timed(() => conn.run(`CREATE TABLE parquet_one AS SELECT * FROM read_parquet(${sqlString(PARQUET_FILE)})`))).ms);
      samples.parquetAggregate1.push((await timed(() => rowsOf(conn, PARQUET_AGGREGATE))).ms);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  }
  return {
    samples,
    threads,
    version,
    csvRows,
    parquetRows,
    aggregateRows,
  };
}

/**
 * One CSV ingest in native DuckDB on one thread, in a fresh instance: the bench's CSV floor takes
 * one beside each of the app's loads, so the ratio is taken round by round on a drifting machine.
 * @param {string} csvPath
 * @returns {Promise<number>} ms
 */
export async function nativeOneThreadCsv(csvPath) {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    await conn.run('SET threads = 1');
    return (await timed(() => conn.run(`CREATE TABLE csv_one AS SELECT * FROM read_csv(${sqlString(csvPath)})`))).ms;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
