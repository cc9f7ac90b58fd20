// The statements both engines run, so the WASM and native figures measure the same work.
import { fileURLToPath } from 'node:url';

export const CSV_TABLE = 'bench_rows';
export { CSV_ROWS } from './gen-csv.mjs';
export const PARQUET_FILE = fileURLToPath(new URL('../node_modules/vega-datasets/data/flights-3m.parquet', import.meta.url));
export const PARQUET_TABLE = 'flights_3m';

export const CSV_GROUP_BY = `SELECT category, count(*) AS n, sum(qty) AS total_qty, avg(price) AS avg_price, avg(score) AS avg_score
FROM ${CSV_TABLE} GROUP BY category ORDER BY category`;
export const CSV_GROUP_BY_ROWS = 8;

export const PARQUET_AGGREGATE = `SELECT origin, count(*) AS flights, avg(delay) AS avg_delay, sum(CASE WHEN delay > 15 THEN 1 ELSE 0 END) AS late
FROM ${PARQUET_TABLE} GROUP BY origin ORDER BY flights DESC`;

/** Timed repetitions for operations cheap enough to repeat; the median is reported. */
export const REPEATS = 3;

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
