// The scale matrix's cells and whether each can run on this machine, decided before it runs and
// said in the printout with the reason (never skipped in silence). A cell's CSV size is estimated
// from the 1k-row file of its width (written first), its time from the cells already measured in
// this round, and whether the app holds it as a table or a view from the app's own rules.

/** Columns × rows of the matrix (issue 37). */
export const WIDTHS = [10, 150, 500, 2000];
export const LENGTHS = [1_000, 1_000_000, 10_000_000];
/** Rows of gen-csv.mjs's generator that make ~1.0 GB (~98 bytes a row). */
export const GB_ROWS = 10_250_000;
/** The Profile tab profiles the first 300 columns (workers/data/host.ts MAX_PROFILE_COLUMNS). */
export const PROFILE_COLUMNS = 300;
/** Columns per profile statement (workers/data/profile.ts BLOCK; VIEW_BLOCK over a view). */
const BLOCK = 50;
const VIEW_BLOCK = 300;

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;

/**
 * The footprint ceiling the app's data worker sets from navigator.deviceMemory
 * (workers/data/memoryBudget.ts, footprint.ts): past it a CSV becomes a view over the file.
 * Only for planning; each cell reads what the app really made.
 */
export function appCeilingBytes(deviceMemoryGiB) {
  const headroom = 768 * MIB;
  const cap = 4 * GIB - headroom - 256 * MIB;
  const limit = Math.min(cap, Math.max(512 * MIB, Math.floor((deviceMemoryGiB * GIB) / 2 / MIB) * MIB));
  return limit + headroom;
}

/** Bytes the app counts a delimited value at once typed (workers/data/footprint.ts BYTES_PER_VALUE). */
const BYTES_PER_VALUE = 12;
const HEADROOM = 768 * MIB;

/** Whether the app will attach a CSV of `bytes` and `values` as a view (footprint.ts's rule). */
export function appMakesView(bytes, values, ceilingBytes) {
  return Math.max(bytes * 1.5, values * BYTES_PER_VALUE) > ceilingBytes - HEADROOM;
}

/** DuckDB's `memory_limit` setting as the app reports it ("3.0 GiB", "512.0 MiB") in bytes. */
export function parseLimit(text) {
  const m = /^([\d.]+)\s*(KiB|MiB|GiB|TiB|KB|MB|GB|TB)$/.exec(text.trim());
  if (!m) return undefined;
  const unit = { KiB: 1024, MiB: MIB, GiB: GIB, TiB: 1024 * GIB, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12 }[m[2]];
  return Number(m[1]) * unit;
}

const short = (rows) => (rows >= 1e6 ? `${rows / 1e6}m` : `${rows / 1e3}k`);

/**
 * @typedef {{ key: string, label: string, cols: number, rows: number, source: 'range' | 'gen', view?: boolean, big: boolean }} Cell
 * @returns {Cell[]} smallest first, so each estimate has a smaller measured cell behind it
 */
export function matrixCells() {
  const wide = (cols, rows) => ({ key: `scale_${cols}c_${short(rows)}`, label: `scale ${cols.toLocaleString('en')} columns × ${rows.toLocaleString('en')} rows`, cols, rows, source: /** @type {const} */ ('range'), big: rows * cols > 150_000_000 || rows > 1_000_000 });
  const gb = (view) => ({ key: 'scale_1gb', label: `scale 1 GB CSV (${GB_ROWS.toLocaleString('en')} rows × 7 columns) as a ${view ? 'view (a 1 GiB device)' : 'table'}`, cols: 7, rows: GB_ROWS, source: /** @type {const} */ ('gen'), view, big: true });
  return [
    ...WIDTHS.map((c) => wide(c, 1_000)),
    wide(10, 1_000_000),
    wide(150, 1_000_000),
    wide(10, 10_000_000),
    gb(false),
    gb(true),
    wide(500, 1_000_000),
    wide(150, 10_000_000),
    wide(2000, 1_000_000),
    wide(500, 10_000_000),
    wide(2000, 10_000_000),
  ];
}

/**
 * Profile statements over at most PROFILE_COLUMNS columns (one in ten text): each is one scan of a
 * view. Over a (long) view a block is one aggregate and one sampled statement (profile.ts
 * SAMPLE_ROWS); over a table, an aggregate, histogram and top-value statement a block.
 */
export function profileStatements(cols, view = false) {
  const n = Math.min(cols, PROFILE_COLUMNS);
  if (view) return 2 * Math.ceil(n / VIEW_BLOCK);
  const text = Math.ceil(n / 10);
  return Math.ceil(n / BLOCK) + Math.ceil((n - text) / BLOCK) + Math.ceil(text / BLOCK);
}

/**
 * Scans of the file native makes for a view cell: CREATE VIEW + count(*), SUMMARIZE over the
 * view, the GROUP BY, and the reference table of the profiled columns when it fits in half the
 * available memory (scale.mjs; its SUMMARIZE reads memory).
 */
export function nativeViewScans(cell, memAvailableBytes) {
  const referenceBytes = Math.min(cell.cols, PROFILE_COLUMNS) * cell.rows * 8;
  return 3 + (memAvailableBytes === null || referenceBytes <= memAvailableBytes / 2 ? 1 : 0);
}

/**
 * @typedef {{ cell: Cell, mb: number, view: boolean, appMs: number, appLoadMs: number, nativeMs: number, nativeLoadMs: number, writeMs?: number }} Done
 * @typedef {{ big: boolean, tmpFreeBytes: number, memAvailableBytes: number | null, ceilingBytes: number, budgetMs: number, bytesPerRow: (cols: number) => number | undefined, done: Done[] }} PlanContext
 */

/** Estimated CSV bytes of a cell, or undefined before its width's 1k file is written. */
export function estimatedBytes(cell, ctx) {
  if (cell.source === 'gen') return cell.rows * 98;
  const perRow = ctx.bytesPerRow(cell.cols);
  return perRow === undefined ? undefined : perRow * cell.rows;
}

const gb = (b) => `${(b / 1e9).toFixed(1)} GB`;
const min = (ms) => `${(ms / 60_000).toFixed(0)} min`;

/**
 * Why a cell cannot run here, or null when it can.
 * @param {Cell} cell
 * @param {PlanContext} ctx
 */
export function whyNot(cell, ctx) {
  if (cell.big && !ctx.big) return 'not run: a big cell (pass --scale-big)';
  const bytes = estimatedBytes(cell, ctx);
  if (bytes === undefined) return null;
  const cells = `${((cell.cols * cell.rows) / 1e9).toFixed(2)} G cells`;
  if (bytes > ctx.tmpFreeBytes / 2) return `not run: its CSV would be ~${gb(bytes)} (${cells}), more than half the ${gb(ctx.tmpFreeBytes)} free in the temporary folder`;
  const view = cell.view ?? appMakesView(bytes, cell.rows * cell.cols, ctx.ceilingBytes);
  // Native holds a table of ~8 bytes a value (BIGINT, DOUBLE, short inlined VARCHAR), uncompressed.
  const nativeBytes = view ? 0 : cell.cols * cell.rows * 8;
  if (ctx.memAvailableBytes !== null && nativeBytes > ctx.memAvailableBytes / 2) return `not run: native DuckDB would hold ~${gb(nativeBytes)} beside the app's copy; ${gb(ctx.memAvailableBytes)} is available on this shared machine`;
  // The largest cell measured the same way (table or view), else the largest measured at all:
  // a table's load is one parse of its file, as each statement over a view is.
  const bySize = [...ctx.done].sort((a, b) => b.mb - a.mb);
  const sameKind = bySize.find((d) => d.view === view) ?? bySize[0];
  if (!sameKind) return null;
  // By values (rows × columns): parsing, profiling and SUMMARIZE all go value by value.
  const scale = (cell.rows * cell.cols) / (sameKind.cell.rows * sameKind.cell.cols);
  // A view measured as a view: its whole cell scaled. A view from a table: it reads its file for
  // every statement, the app's load (one scan) times its scans, and native's reads likewise.
  const steps =
    view && !sameKind.view
      ? sameKind.appLoadMs * (2 + profileStatements(cell.cols, true)) + sameKind.nativeLoadMs * nativeViewScans(cell, ctx.memAvailableBytes)
      : sameKind.appMs + sameKind.nativeMs;
  // Writing the CSV is part of the cell's time too.
  const est = scale * (steps + (sameKind.writeMs ?? 0));
  if (est > ctx.budgetMs) {
    const write = sameKind.writeMs === undefined ? '' : `, writing its CSV ~${min(scale * sameKind.writeMs)} of it`;
    // Scaled by all values, while the profile and SUMMARIZE cover the first PROFILE_COLUMNS.
    const bound = cell.cols > PROFILE_COLUMNS && cell.cols > sameKind.cell.cols ? `, an upper bound: the profile covers ${PROFILE_COLUMNS} columns` : '';
    return `not run: estimated ~${min(est)} for app + native${write} (${cells}, a ~${gb(bytes)} CSV${view ? ` the app would attach as a view, read again by each of ~${profileStatements(cell.cols, true) + 2} statements` : ''}; scaled from ${sameKind.cell.label} measured this round${bound}), over the ${min(ctx.budgetMs)} budget a cell has on this shared machine (BENCH_SCALE_CELL_MIN)`;
  }
  return null;
}
