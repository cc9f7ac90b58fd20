import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyWideCsv, wideCsv, writeWideCsv } from './scaleCsv.mjs';

const dir = mkdtempSync(join(tmpdir(), 'scale-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Both writers' files for `cols` × `rows`, as text. */
async function both(cols: number, rows: number) {
  const ours = join(dir, `ours-${cols}-${rows}.csv`);
  const copy = join(dir, `copy-${cols}-${rows}.csv`);
  await writeWideCsv(cols, rows, ours);
  await copyWideCsv(cols, rows, copy);
  return { ours: readFileSync(ours, 'utf8'), copy: readFileSync(copy, 'utf8') };
}

describe('the scale matrix CSV writer', () => {
  it("writes DuckDB COPY's bytes for a 2,000-column table (every residue of every column kind)", async () => {
    const { ours, copy } = await both(2000, 1_100);
    expect(ours.length).toBeGreaterThan(6_000_000);
    expect(ours === copy).toBe(true);
  }, 60_000);

  it("writes DuckDB COPY's bytes over many rows and a width that ends mid-group", async () => {
    const { ours, copy } = await both(37, 150_000);
    expect(ours.split('\n')).toHaveLength(150_002);
    expect(ours === copy).toBe(true);
  }, 60_000);

  it('reuses a cached file only when its stamp matches', async () => {
    const cache = join(dir, 'cache');
    const first = await wideCsv('k', 12, 100, dir, cache);
    expect(first).toMatchObject({ cached: false, keep: true });
    expect(await wideCsv('k', 12, 100, dir, cache)).toMatchObject({ path: first.path, cached: true });
    // Another length is written again, in place of the stale file.
    expect(await wideCsv('k', 12, 200, dir, cache)).toMatchObject({ cached: false });
    expect(readFileSync(first.path, 'utf8').split('\n')).toHaveLength(202);
    // Without a cache folder it goes into the cell's folder, to be deleted after the cell.
    expect(await wideCsv('k', 12, 100, dir, '')).toMatchObject({ path: join(dir, 'k.csv'), cached: false, keep: false });
  });
});
