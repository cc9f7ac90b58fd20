/**
 * Issue 37: the CSV checks read the file's first rows once per read options (Reader.firstRows):
 * the layout checks and the column-name check share the read, which on a 500-column file was two
 * statements of ~0.1–0.4 s of CPU each.
 */
import { describe, expect, it } from 'vitest';
import { readCsvSql } from '../../engine/csvOptions';
import { columnTypes } from '../../engine/catalog';
import { NodeEngine } from '../../testing/nodeEngine';
import { countingEngine } from '../../testing/countingEngine';
import { csvFindings } from '../csvChecks';
import { FIRST_ROWS, readerFor } from './kit';

const utf8 = { encoding: 'utf-8' as const, tsv: false, fullSample: false };

describe('the first rows of a CSV, read once', { timeout: 120_000 }, () => {
  it('are the header and the rows as text, read by one statement for every check that asks', async () => {
    const engine = await NodeEngine.open();
    const path = '/dataseer/rows.csv';
    // A repeated header name: the column-name check reads it from the shared rows.
    await engine.registerBlob(path, new Blob([`id,name,Name\n${Array.from({ length: 100 }, (_, i) => `${i},x${i % 3},2024-01-${String((i % 28) + 1).padStart(2, '0')}`).join('\n')}\n`]));
    await engine.query(`CREATE TABLE t AS SELECT * FROM ${readCsvSql(path, utf8)}`);
    const seen: string[] = [];
    const counted = countingEngine(engine, seen);
    const reader = readerFor(counted, path, utf8);
    const rows = await reader.firstRows();
    expect(rows).toHaveLength(FIRST_ROWS);
    expect(rows?.[0]).toEqual(['id', 'name', 'Name']);
    expect(rows?.[1]).toEqual(['0', 'x0', '2024-01-01']);
    expect(await reader.firstRows()).toEqual(rows);
    expect(seen).toHaveLength(1);

    // The whole check run: one read of the first rows, and the empty header found from it.
    seen.length = 0;
    const checks = await csvFindings(counted, 't', await columnTypes(engine, 't'), path, utf8);
    expect(seen.filter((q) => q.includes('all_varchar'))).toHaveLength(1);
    expect(checks.findings.map((f) => f.kind)).toContain('column_names');
  });
});
