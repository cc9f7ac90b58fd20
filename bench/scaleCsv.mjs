// Writes the scale matrix's wide CSVs (10 / 150 / 500 / 2,000 columns × up to 10M rows): the rows
// of columnSql over range(rows), byte for byte what DuckDB's `COPY (SELECT … FROM range(n)) TO …`
// writes (scaleCsv.test.ts compares them). COPY itself wrote them at ~3 MB/s on the loaded 2-core
// machine (a 6.3 GB file ~32 min, a 4.7 GB one ~24 min). Every value depends on the row index only
// through i mod 8, 13, 97 or 1000, so each run of neighbouring columns with the same modulus takes
// one of at most 1,000 strings, made once (a decimal's text from DuckDB's own CSV writer); a row is
// the strings of its residues joined. With BENCH_SCALE_CACHE=<folder> a file is also kept there and
// reused by the next run (stamped with its rows and the generating SQL). Generation is not timed
// and runs before the cell; the timed steps are untouched.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const sqlString = (s) => `'${s.replaceAll("'", "''")}'`;

/** Column i: nine in ten small integers, then a decimal, and every tenth a text category. */
export function columnSql(i) {
  if (i === 0) return `(i % 8)::VARCHAR || '_cat' AS c0`;
  if (i % 10 === 0) return `'v' || ((i * ${i + 3}) % 13) AS c${i}`;
  if (i % 10 === 5) return `round(((i * ${i + 11}) % 1000) / 10.0, 1) AS c${i}`;
  return `(i * ${i + 7}) % 97 AS c${i}`;
}

const selectSql = (cols) => Array.from({ length: cols }, (_, i) => columnSql(i)).join(', ');

/** The same file by DuckDB's COPY (the reference scaleCsv.test.ts holds writeWideCsv to). */
export async function copyWideCsv(cols, rows, path) {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    await conn.run(`COPY (SELECT ${selectSql(cols)} FROM range(${rows}) t(i)) TO ${sqlString(path)} (HEADER, DELIMITER ',')`);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** The modulus column c's value depends on the row index through (columnSql). */
const modulus = (c) => (c === 0 ? 8 : c % 10 === 0 ? 13 : c % 10 === 5 ? 1000 : 97);

/** The text of round(n / 10.0, 1) for n in 0..999 as DuckDB's CSV writer prints it ("5.0", "12.3"). */
async function decimalTexts(dir) {
  const path = join(dir, `decimals-${process.pid}.csv`);
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    await conn.run(`COPY (SELECT round(n / 10.0, 1) AS d FROM range(1000) t(n)) TO ${sqlString(path)} (HEADER, DELIMITER ',')`);
    const lines = readFileSync(path, 'utf8').split('\n').slice(1, 1001);
    if (lines.length !== 1000) throw new Error(`DuckDB wrote ${lines.length} decimals, not 1,000`);
    return lines;
  } finally {
    conn.closeSync();
    instance.closeSync();
    rmSync(path, { force: true });
  }
}

/** Column c's text at residue r of its modulus: columnSql's expression, evaluated. */
function valueText(c, r, decimals) {
  if (c === 0) return `${r}_cat`;
  const m = modulus(c);
  if (m === 13) return `v${(r * (c + 3)) % 13}`;
  if (m === 1000) return decimals[(r * (c + 11)) % 1000];
  return String((r * (c + 7)) % 97);
}

/** Runs of neighbouring columns with the same modulus, each with its text for every residue. */
function columnRuns(cols, decimals) {
  const runs = [];
  for (let c = 0; c < cols; ) {
    const m = modulus(c);
    let end = c + 1;
    while (end < cols && modulus(end) === m) end++;
    const texts = Array.from({ length: m }, (_, r) => Array.from({ length: end - c }, (_, k) => valueText(c + k, r, decimals)).join(','));
    runs.push({ m, texts });
    c = end;
  }
  return runs;
}

const CHUNK_BYTES = 16 * 1024 ** 2;

/** Writes rows [0, rows) of a `cols`-wide table of columnSql to `path`, header first. */
export async function writeWideCsv(cols, rows, path) {
  const runs = columnRuns(cols, await decimalTexts(dirname(path)));
  const fd = openSync(path, 'w');
  try {
    let chunk = `${Array.from({ length: cols }, (_, c) => `c${c}`).join(',')}\n`;
    const parts = new Array(runs.length);
    for (let i = 0; i < rows; i++) {
      for (let k = 0; k < runs.length; k++) parts[k] = runs[k].texts[i % runs[k].m];
      chunk += `${parts.join(',')}\n`;
      if (chunk.length >= CHUNK_BYTES) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
    writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
}

/**
 * A cell's CSV in `dir`, or with BENCH_SCALE_CACHE in that folder, reused when its stamp matches.
 * @returns {Promise<{ path: string, cached: boolean, keep: boolean }>} keep: not to be deleted after the cell
 */
export async function wideCsv(key, cols, rows, dir, cacheDir = process.env.BENCH_SCALE_CACHE) {
  const where = cacheDir || dir;
  mkdirSync(where, { recursive: true });
  const path = join(where, `${key}.csv`);
  const stamp = `${path}.meta.json`;
  const expected = JSON.stringify({ rows, cols, sql: createHash('sha256').update(selectSql(cols)).digest('hex') });
  if (cacheDir && existsSync(path) && existsSync(stamp) && readFileSync(stamp, 'utf8') === expected) return { path, cached: true, keep: true };
  // Written beside and renamed, so a run stopped mid-write leaves no file that looks whole.
  const partial = `${path}.partial`;
  rmSync(stamp, { force: true });
  await writeWideCsv(cols, rows, partial);
  renameSync(partial, path);
  if (cacheDir) writeFileSync(stamp, expected);
  return { path, cached: false, keep: Boolean(cacheDir) };
}
