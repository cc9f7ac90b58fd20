/// <reference types="node" />
/**
 * Issue 37: the load report's checks on a 2,000-column table and on a long one, for each path
 * that makes them (CSV read by DuckDB; JSON and Excel made by the JS readers, as Arrow), with
 * DuckDB's memory_limit set as the browser sets it. Bounded means: statements counted (a batch of
 * columns each, never one per column), each scan over every row within SCAN_VALUES, the report
 * saying what it looked at (`sampled`), and no out-of-memory below the limit. Times are printed,
 * not asserted (CHECKS_LONG_ROWS=10000000 runs the long table at real size).
 */
import { describe, expect, it } from 'vitest';
import { convertJson } from '../loaders/json';
import { convertExcel } from '../loaders/excel';
import { ingestArrowStreams } from '../loaders/arrowIngest';
import { ingestCsv } from '../loaders/csvIngest';
import { columnTypes } from '../engine/catalog';
import { REGISTERED_DIR, type Engine } from '../engine/duckdbEngine';
import { NodeEngine } from '../testing/nodeEngine';
import { countingEngine } from '../testing/countingEngine';
import { checkReaderTable } from './tableReport';
import { csvFindings } from './csvChecks';
import { COMPARE_BATCH } from './csvReport/verify';
import { SCAN_VALUES, STATS_BATCH, checkRowsFor } from './valueBatches';

interface FixtureScript {
  xlsxBytes(sheets: { name: string; rows: readonly (readonly (string | number | null)[])[] }[]): Uint8Array;
}
const { xlsxBytes } = (await import(/* @vite-ignore */ new URL('../../../scripts/make-bad-fixtures.mjs', import.meta.url).href)) as FixtureScript;

const LONG_ROWS = Number(process.env.CHECKS_LONG_ROWS ?? 1_000_000);
const WIDE = 2_000;
/** As the browser boot sets it on a small device (memoryBudget.ts): the checks must fit. */
const MEMORY_LIMIT = 2 * 1024 ** 3;

/** Numbers with a "-" here and there in every column. */
const wideCell = (r: number, c: number): string | number => (r % 17 === c % 17 ? '-' : (r * (c + 7)) % 97);
const names = (n: number) => Array.from({ length: n }, (_, c) => `q${c + 1}`);

/** A long table's row: an id, amounts with "-", ISO days with "n/a", labels. */
const longRow = (r: number) => [r, r % 1000 === 7 ? '-' : String(r % 9973), r % 5000 === 3 ? 'n/a' : new Date(Date.UTC(2000, 0, 1 + (r % 9000))).toISOString().slice(0, 10), `item ${r % 50}`] as const;
const LONG_COLUMNS = ['id', 'amount', 'day', 'label'];

const mb = (bytes: number) => `${Math.round(bytes / 1024 ** 2)} MB`;

/** The checks run through a counting engine: statements, time, and the process's memory after (WebAssembly memory only grows, so it bounds the peak). */
async function measured<T>(label: string, engine: Engine, run: (e: Engine) => Promise<T>): Promise<{ out: T; seen: string[] }> {
  const seen: string[] = [];
  const took: number[] = [];
  const started = performance.now();
  const out = await run(countingEngine(engine, seen, took));
  if (process.env.CHECKS_TRACE) seen.forEach((q, i) => console.log(`  ${Math.round(took[i]!)} ms ${q.slice(0, 90).replace(/\s+/g, ' ')}`));
  console.log(`${label}: ${seen.length} statements, ${Math.round(performance.now() - started)} ms (longest ${Math.round(Math.max(0, ...took))} ms), rss ${mb(process.memoryUsage().rss)}`);
  return { out, seen };
}

/** The sheet or JSON path: the reader's Arrow into DuckDB, then its checks. */
async function readerTable(ct: Awaited<ReturnType<typeof convertJson>>[number], label: string, format: 'json' | 'xlsx') {
  const engine = await NodeEngine.open({ memoryLimitBytes: MEMORY_LIMIT });
  await ingestArrowStreams(engine, ct, 't', 't_in', () => undefined);
  return measured(label, engine, (e) => checkReaderTable(e, 't', ct, format, undefined));
}

/**
 * Each text column's values looked at in batches: stats, then a few statements of fixes; a CSV
 * fix's comparison with the first read is COMPARE_BATCH checks a statement, with its re-read made
 * and dropped once (`compared`: how many fixes were so compared).
 */
const boundedWide = (seen: readonly string[], compared = 0) => expect(seen.length).toBeLessThan((WIDE / STATS_BATCH) * 2 + 10 + compared * (Math.ceil(WIDE / COMPARE_BATCH) + 2));

describe('load-report checks at real size', { timeout: 1_800_000 }, () => {
  it(`JSON, ${WIDE} columns: every column checked in batches`, async () => {
    const rows = 400;
    const keys = names(WIDE);
    const text = `[${Array.from({ length: rows }, (_, r) => JSON.stringify(Object.fromEntries(keys.map((k, c) => [k, wideCell(r, c)])))).join(',\n')}]`;
    const [ct] = await convertJson(new Blob([text]), {});
    const { out, seen } = await readerTable(ct!, `JSON ${WIDE} × ${rows}`, 'json');
    expect(out.findings.find((f) => f.kind === 'placeholders')?.columns).toHaveLength(WIDE);
    boundedWide(seen);
  });

  it(`sheet, ${WIDE} columns: every column checked in batches`, async () => {
    const rows = 300;
    const bytes = xlsxBytes([{ name: 'Wide', rows: [names(WIDE), ...Array.from({ length: rows }, (_, r) => Array.from({ length: WIDE }, (_, c) => wideCell(r, c)))] }]);
    const [ct] = await convertExcel(new Blob([bytes as Uint8Array<ArrayBuffer>]), {});
    const { out, seen } = await readerTable(ct!, `sheet ${WIDE} × ${rows}`, 'xlsx');
    expect(out.findings.find((f) => f.kind === 'placeholders')?.columns).toHaveLength(WIDE);
    boundedWide(seen);
  });

  it(`CSV, ${WIDE} columns: every column checked in batches, on fewer rows, and said`, async () => {
    const rows = 1_500;
    const lines = [names(WIDE).join(','), ...Array.from({ length: rows }, (_, r) => Array.from({ length: WIDE }, (_, c) => wideCell(r, c)).join(','))];
    const engine = await NodeEngine.open({ memoryLimitBytes: MEMORY_LIMIT });
    let seen: string[] = [];
    let checks: Awaited<ReturnType<typeof csvFindings>> | undefined;
    const r = await ingestCsv({
      engine,
      blob: new Blob([`${lines.join('\n')}\n`]),
      fileName: 'wide.csv',
      tsv: false,
      encoding: { encoding: 'utf-8', bom: 0 },
      table: 'wide',
      path: `${REGISTERED_DIR}wide.csv`,
      whileRegistered: async (path, read) => {
        const cols = await columnTypes(engine, 'wide');
        ({ out: checks, seen } = await measured(`CSV ${WIDE} × ${rows}`, engine, (e) => csvFindings(e, 'wide', cols, path, read)));
      },
    });
    expect(r.ok).toBe(true);
    expect(checks?.findings.find((f) => f.kind === 'placeholders')?.columns).toHaveLength(WIDE);
    expect(checks?.sampled).toContain(`first ${checkRowsFor(WIDE).toLocaleString('en-US')} of 1,500 rows`);
    // The placeholders' fix, compared with the first read in batches of columns.
    expect(seen.filter((q) => q.includes('POSITIONAL JOIN'))).toHaveLength(Math.ceil(WIDE / COMPARE_BATCH));
    boundedWide(seen, 1);
  });

  it(`a reader's table of ${LONG_ROWS.toLocaleString('en-US')} rows: statistics on the first rows (said), each fix tried on every row in bounded scans`, async () => {
    const engine = await NodeEngine.open({ memoryLimitBytes: MEMORY_LIMIT });
    // The table the JSON reader makes of such records (amounts and days text: their strings are of two kinds).
    await engine.query(`CREATE TABLE long AS SELECT range::BIGINT AS id, CASE WHEN range % 1000 = 7 THEN '-' ELSE CAST(range % 9973 AS VARCHAR) END AS amount,
      CASE WHEN range % 5000 = 3 THEN 'n/a' ELSE strftime(DATE '2000-01-01' + CAST(range % 9000 AS INTEGER), '%Y-%m-%d') END AS day, 'item ' || (range % 50) AS label FROM range(${LONG_ROWS})`);
    const { out, seen } = await measured(`JSON-made table ${LONG_ROWS.toLocaleString('en-US')} × 4`, engine, (e) => checkReaderTable(e, 'long', {}, 'json', undefined));
    expect(out.findings.find((f) => f.kind === 'placeholders')?.fix?.options).toEqual({ types: { amount: 'BIGINT' }, missing: { amount: ['-'] } });
    expect(out.findings.find((f) => f.kind === 'unparsed_dates')?.fix?.options).toMatchObject({ types: { day: 'DATE' }, missing: { day: ['n/a'] } });
    expect(out.sampled).toContain(`first ${checkRowsFor(4).toLocaleString('en-US')} of ${LONG_ROWS.toLocaleString('en-US')} rows; each fix was tried by DuckDB on every row`);
    // A scan over every row tries as many columns as SCAN_VALUES allows, no more.
    const perScan = Math.max(1, Math.floor(SCAN_VALUES / LONG_ROWS));
    for (const s of seen.filter((q) => q.startsWith('SELECT count_if'))) expect(s.match(/ AS read\d+/g)?.length ?? 0).toBeLessThanOrEqual(perScan);
  });

  it(`CSV of ${LONG_ROWS.toLocaleString('en-US')} rows: checked on the first rows, said, within the memory limit`, async () => {
    const engine = await NodeEngine.open({ memoryLimitBytes: MEMORY_LIMIT });
    const parts: string[] = [`${LONG_COLUMNS.join(',')}\n`];
    for (let r = 0; r < LONG_ROWS; r += 100_000) {
      parts.push(Array.from({ length: Math.min(100_000, LONG_ROWS - r) }, (_, k) => longRow(r + k).join(',')).join('\n') + '\n');
    }
    let checks: Awaited<ReturnType<typeof csvFindings>> | undefined;
    const r = await ingestCsv({
      engine,
      blob: new Blob(parts),
      fileName: 'long.csv',
      tsv: false,
      encoding: { encoding: 'utf-8', bom: 0 },
      table: 'long',
      path: `${REGISTERED_DIR}long.csv`,
      whileRegistered: async (path, read) => {
        const cols = await columnTypes(engine, 'long');
        ({ out: checks } = await measured(`CSV ${LONG_ROWS.toLocaleString('en-US')} × 4`, engine, (e) => csvFindings(e, 'long', cols, path, read)));
      },
    });
    expect(r.ok).toBe(true);
    expect(checks?.findings.find((f) => f.kind === 'placeholders')?.columns).toContain('amount');
    expect(checks?.sampled).toContain(`first ${checkRowsFor(4).toLocaleString('en-US')} of ${LONG_ROWS.toLocaleString('en-US')} rows`);
  });
});
