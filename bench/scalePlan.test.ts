import { describe, expect, it } from 'vitest';
import { appCeilingBytes, appMakesView, matrixCells, nativeViewScans, parseLimit, profileStatements, whyNot } from './scalePlan.mjs';

const cells = matrixCells();
const cell = (cols: number, rows: number) => {
  const c = cells.find((x) => x.cols === cols && x.rows === rows);
  if (!c) throw new Error(`no cell ${cols}×${rows}`);
  return c;
};
const ctx = (over: object = {}) => ({ big: true, tmpFreeBytes: 80e9, memAvailableBytes: 20e9, ceilingBytes: appCeilingBytes(4), budgetMs: 20 * 60_000, bytesPerRow: (cols: number) => cols * 3, done: [], ...over });

describe('scale plan', () => {
  it('has every cell of the matrix and the 1 GB file both ways', () => {
    for (const cols of [10, 150, 500, 2000]) for (const rows of [1_000, 1_000_000, 10_000_000]) expect(cell(cols, rows)).toBeDefined();
    expect(cells.filter((c) => c.key === 'scale_1gb').map((c) => c.view)).toEqual([false, true]);
  });
  it('says why a cell does not run instead of leaving it out', () => {
    expect(whyNot(cell(10, 10_000_000), ctx({ big: false }))).toMatch(/--scale-big/);
    expect(whyNot(cell(10, 1_000), ctx({ big: false }))).toBeNull();
    // 2,000 × 10M at 3 bytes a value is 60 GB of CSV: past half the free disk.
    expect(whyNot(cell(2000, 10_000_000), ctx())).toMatch(/more than half the 80.0 GB free/);
  });
  it('estimates from a measured cell of the same kind and holds to the budget', () => {
    const done = [{ cell: cell(150, 1_000_000), mb: 450, view: false, appMs: 60_000, appLoadMs: 20_000, nativeMs: 60_000, nativeLoadMs: 20_000 }];
    // 500 × 1M: 1.5 GB of short values, a view by footprint.ts's rule: ~3.3 × (app 4 scans × 20 s + native 4 × 20 s).
    expect(whyNot(cell(500, 1_000_000), ctx({ done }))).toBeNull();
    expect(whyNot(cell(500, 1_000_000), ctx({ done, budgetMs: 5 * 60_000 }))).toMatch(/estimated ~9 min .* attach as a view/);
    // 150 × 10M (4.5 GB) is a view: each profile statement reads the file again.
    expect(whyNot(cell(150, 10_000_000), ctx({ done }))).toMatch(/as a view, read again by each of ~4 statements/);
  });
  it('scales a view cell from a view measured this round, writing its CSV included', () => {
    // 500 × 1M as a view: 30 s to write, 200 s app, 200 s native; 2,000 × 1M is 4× its values.
    const done = [{ cell: cell(500, 1_000_000), mb: 1564, view: true, appMs: 200_000, appLoadMs: 50_000, nativeMs: 200_000, nativeLoadMs: 40_000, writeMs: 30_000 }];
    expect(whyNot(cell(2000, 1_000_000), ctx({ done, budgetMs: 60 * 60_000 }))).toBeNull();
    expect(whyNot(cell(2000, 1_000_000), ctx({ done, budgetMs: 25 * 60_000 }))).toMatch(/estimated ~29 min for app \+ native, writing its CSV ~2 min of it .*scaled from scale 500 columns × 1,000,000 rows/);
  });
  it('counts the profile statements a view takes', () => {
    expect(profileStatements(500, false)).toBe(6 + 6 + 1);
    // Over a view: one aggregate and one sampled statement for the 300 profiled columns.
    expect(profileStatements(500, true)).toBe(2);
    expect(profileStatements(2000, true)).toBe(2);
  });
  it('counts the reads native makes of a view, with the reference table only where it fits', () => {
    // 300 profiled columns × 1M rows: 2.4 GB, within half of 20 GB; 150 × 10M: 12 GB, not.
    expect(nativeViewScans(cell(2000, 1_000_000), 20e9)).toBe(4);
    expect(nativeViewScans(cell(150, 10_000_000), 20e9)).toBe(3);
  });
});

describe('the app’s table-or-view rule', () => {
  it('reads the memory limit DuckDB reports and applies footprint.ts’s rule', () => {
    expect(parseLimit('3.0 GiB')).toBe(3 * 1024 ** 3);
    expect(parseLimit('512.0 MiB')).toBe(512 * 1024 ** 2);
    expect(parseLimit('lots')).toBeUndefined();
    const ceiling = 3 * 1024 ** 3 + 768 * 1024 ** 2;
    // 500 × 1M small numbers (1.56 GB): a view by its values; 1 GB of 7 columns: a table.
    expect(appMakesView(1.56e9, 500e6, ceiling)).toBe(true);
    expect(appMakesView(1.0e9, 72e6, ceiling)).toBe(false);
  });
});
