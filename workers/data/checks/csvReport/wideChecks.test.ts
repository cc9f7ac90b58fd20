/**
 * Issue 37: the load report's CSV checks on a wide survey file (600 columns × 5,000 rows, every
 * column text because of a "-" placeholder). Before, they cost 374 s: 161 identical DESCRIBEs (a
 * sniff of the file each), a statement per text column, and a FILTERed aggregate per column in
 * the fix's verification. Counted here by statements, not timed (the times are in
 * docs/ARCHITECTURE.md).
 */
import { describe, expect, it } from 'vitest';
import { csvFindings } from '../csvChecks';
import { ingestCsv } from '../../loaders/csvIngest';
import { columnTypes } from '../../engine/catalog';
import { REGISTERED_DIR } from '../../engine/duckdbEngine';
import { countingEngine } from '../../testing/countingEngine';
import { NodeEngine } from '../../testing/nodeEngine';
import { checkRowsFor } from '../valueBatches';

/** Numbers with a "-" here and there in every column, day/month dates in one column in ten. */
function surveyCsv(columns: number, rows: number): string {
  const lines = [Array.from({ length: columns }, (_, c) => `q${c + 1}`).join(',')];
  for (let r = 0; r < rows; r++) {
    lines.push(Array.from({ length: columns }, (_, c) => (r % 17 === c % 17 ? '-' : c % 10 === 2 ? `${(r % 28) + 1}/${(r % 12) + 1}/2024` : String((r * (c + 7)) % 97))).join(','));
  }
  return `${lines.join('\n')}\n`;
}

describe('CSV checks on a 600-column × 5,000-row survey file', { timeout: 600_000 }, () => {
  it('find the placeholders of every column in a few dozen statements, and say how many rows they looked at', async () => {
    const engine = await NodeEngine.open();
    const seen: string[] = [];
    let checks: Awaited<ReturnType<typeof csvFindings>> | undefined;
    const r = await ingestCsv({
      engine,
      blob: new Blob([surveyCsv(600, 5000)]),
      fileName: 'survey.csv',
      tsv: false,
      encoding: { encoding: 'utf-8', bom: 0 },
      table: 'survey',
      path: `${REGISTERED_DIR}survey.csv`,
      whileRegistered: async (path, read) => {
        checks = await csvFindings(countingEngine(engine, seen), 'survey', await columnTypes(engine, 'survey'), path, read);
      },
    });
    expect(r.ok).toBe(true);
    const placeholders = checks?.findings.find((f) => f.kind === 'placeholders');
    // Every number column (not the date ones) is one finding with one fix.
    expect(placeholders?.columns).toHaveLength(540);
    expect(placeholders?.fix?.options).toMatchObject({ nullstr: ['', '-'] });
    // Each distinct read described once (was 161 DESCRIBEs of one read).
    const describes = seen.filter((s) => s.startsWith('DESCRIBE'));
    expect(new Set(describes).size).toBe(describes.length);
    // Batches of columns, not a statement per column: 600 text columns in a few dozen statements.
    expect(seen.length).toBeLessThan(40);
    // A wide file is checked on fewer rows, and the report says so.
    expect(checkRowsFor(600)).toBe(4166);
    expect(checks?.sampled).toBe('The value checks looked at the first 4,166 of 5,000 rows; each fix was tried by DuckDB on the file before it was offered.');
  });
});
