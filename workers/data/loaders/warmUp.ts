import { Bool, DateDay, Dictionary, Float64, Int32, Int64, makeData, makeVector, Table, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';
import { columnTypes, memoryUsed, tableNames } from '../engine/catalog';
import { readCsvSql } from '../engine/csvOptions';
import { REGISTERED_DIR, type Engine } from '../engine/duckdbEngine';

/**
 * V8 compiles each function of DuckDB's 34 MB module the first time it runs, so a tab's first CSV
 * load pays for compiling the CSV reader: 98 MB took 970 ms as a tab's first read_csv and 600 ms
 * after (bench/harness/bare.html). Reading a small CSV of the usual shapes (quoted text with
 * commas, integers, decimals, dates, booleans, empty fields) while the engine is idle after its
 * start compiles those paths beforehand, and the user's first load ran in 730 ms instead. The
 * catalog lookups a load makes (its names, memory, column types) are warmed the same way, and so
 * is the Arrow insert that Parquet, JSON and Excel loads go through (3M-row Parquet: 1.13 s as the
 * engine's first Arrow insert, 0.87 s after). It runs once, through the engine's queue: a load
 * that arrives meanwhile waits for it (tens of ms).
 */

const WARM_ROWS = 20_000;
const TABLE = 'dataseer_warm_up';

export function warmUpCsv(rows = WARM_ROWS): string {
  const lines = ['id,qty,price,score,category,event_date,flag,note,empty'];
  for (let i = 0; i < rows; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    lines.push(`${i},${i % 1000},${(i % 500) + 0.25},${((i % 200) - 100) / 100},cat${i % 8},2020-01-${day},${i % 2 === 0},"w ${i}, no. ${i % 97}",`);
  }
  return `${lines.join('\n')}\n`;
}

/** A small Arrow table of the column kinds the readers produce, as one IPC stream. */
export function warmUpArrow(rows = WARM_ROWS): Uint8Array {
  const ids = Int32Array.from({ length: rows }, (_, i) => i);
  const words = ['alpha', 'bravo', 'charlie', 'delta'];
  const dictionary = makeData({
    type: new Dictionary(new Utf8(), new Int32()),
    length: rows,
    data: Int32Array.from({ length: rows }, (_, i) => i % words.length),
    dictionary: vectorFromArray(words, new Utf8()),
  });
  const table = new Table({
    id: makeVector(ids),
    big: vectorFromArray(Array.from({ length: rows }, (_, i) => BigInt(i) * 1_000_003n), new Int64()),
    value: vectorFromArray(Array.from({ length: rows }, (_, i) => (i % 1000) / 7), new Float64()),
    label: vectorFromArray(Array.from({ length: rows }, (_, i) => (i % 5 === 0 ? null : `row ${i}`)), new Utf8()),
    kind: makeVector(dictionary),
    day: vectorFromArray(Array.from({ length: rows }, (_, i) => new Date(Date.UTC(2020, 0, 1 + (i % 365)))), new DateDay()),
    flag: vectorFromArray(Array.from({ length: rows }, (_, i) => i % 2 === 0), new Bool()),
  });
  return tableToIPC(table, 'stream');
}

export async function warmUpEngine(engine: Engine): Promise<void> {
  await readCsv(engine);
  await insertArrow(engine);
}

const ARROW_TABLE = 'dataseer_warm_up_arrow';

/** Creates a table from one stream and appends another, as a reader's batches do. */
async function insertArrow(engine: Engine): Promise<void> {
  try {
    await engine.insertArrowStream(warmUpArrow(), ARROW_TABLE, true);
    await engine.insertArrowStream(warmUpArrow(), ARROW_TABLE, false);
  } finally {
    await engine.query(`DROP TABLE IF EXISTS ${ARROW_TABLE}`).catch(() => undefined);
  }
}

async function readCsv(engine: Engine): Promise<void> {
  const path = `${REGISTERED_DIR}warm_up.csv`;
  await engine.registerBlob(path, new Blob([warmUpCsv()], { type: 'text/csv' }));
  try {
    // A temporary table: never listed as a dataset, gone with the engine.
    const { batches } = await engine.send(`CREATE TEMP TABLE ${TABLE} AS SELECT * FROM ${readCsvSql(path, { encoding: 'utf-8', tsv: false, fullSample: false })}`);
    for await (const _ of batches) {
      // Drained like a load's statement, which completes it.
    }
    await tableNames(engine);
    await memoryUsed(engine);
    await columnTypes(engine, TABLE);
    await engine.query(`SELECT count(*)::DOUBLE AS n FROM ${TABLE}`);
    // The shape of most first questions: a grouped aggregate, sorted.
    await engine.query(`SELECT category, count(*) AS n, sum(qty) AS qty, avg(price) AS price, min(event_date) AS first FROM ${TABLE} GROUP BY category ORDER BY n DESC`);
  } finally {
    await engine.query(`DROP TABLE IF EXISTS temp.${TABLE}`).catch(() => undefined);
    await engine.dropFile(path).catch(() => undefined);
  }
}
