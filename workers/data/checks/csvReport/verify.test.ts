/**
 * Issue 37: a fix compared with the first read in batches of columns on a wide file (COMPARE_BATCH
 * checks a statement, the re-read made once): a change in a column of a later batch is found and
 * said as in one statement, and nothing is left behind.
 */
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../engine/duckdbEngine';
import { readCsvSql } from '../../engine/csvOptions';
import { columnTypes } from '../../engine/catalog';
import { NodeEngine } from '../../testing/nodeEngine';
import { readerFor } from './kit';
import { COMPARE_BATCH, damageOf } from './verify';

const utf8 = { encoding: 'utf-8' as const, tsv: false, fullSample: false };
const COLUMNS = COMPARE_BATCH + 50;

describe('damageOf on a wide file', { timeout: 300_000 }, () => {
  it('finds a value a fix would change in a column past the first batch, and leaves no scratch table', async () => {
    const engine = await NodeEngine.open();
    // Integers everywhere; only the last column holds a 5, which nullstr ['5'] would read as missing.
    const cell = (r: number, c: number) => (c === COLUMNS - 1 ? String(r % 7) : String(10 + ((r + c) % 40)));
    const lines = [Array.from({ length: COLUMNS }, (_, c) => `c${c + 1}`).join(','), ...Array.from({ length: 40 }, (_, r) => Array.from({ length: COLUMNS }, (_, c) => cell(r, c)).join(','))];
    const path = '/dataseer/wide.csv';
    await engine.registerBlob(path, new Blob([`${lines.join('\n')}\n`]));
    await engine.query(`CREATE TABLE wide AS SELECT * FROM ${readCsvSql(path, utf8)}`);
    const before = await columnTypes(engine, 'wide');
    const reader = readerFor(engine, path, utf8);
    const statements: string[] = [];
    const counted = { ...engine, query: (sql: string) => (statements.push(sql), engine.query(sql)) } as typeof engine;

    const why = await damageOf(counted, 'wide', reader, { nullstr: ['5'] }, before, await reader.describe({ nullstr: ['5'] }), 1000);
    expect(why).toBe(` Read with it, 5 values of "c${COLUMNS}" would change, so no re-read is offered.`);
    // One statement makes the re-read, one per batch compares, one drops it.
    expect(statements.filter((s) => s.includes('POSITIONAL JOIN'))).toHaveLength(Math.ceil(COLUMNS / COMPARE_BATCH));
    expect(rowsOf(await engine.query("SELECT count(*)::DOUBLE AS n FROM duckdb_tables() WHERE table_name LIKE '%__compare'"))).toEqual([{ n: 0 }]);

    // The control: a missing string no column holds changes nothing.
    expect(await damageOf(engine, 'wide', reader, { nullstr: ['n/a'] }, before, await reader.describe({ nullstr: ['n/a'] }), 1000)).toBeUndefined();
  });
});
