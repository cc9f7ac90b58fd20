import type { ColumnInfo, ColumnProfile, DatasetProfile, HistogramBin, ProfileSample } from '../../../protocol/data';
import { Table, type RecordBatch } from 'apache-arrow';
import { rowsOf, type Engine } from '../engine/duckdbEngine';
import { collectRows } from '../engine/queryRunner';
import { quoteIdent } from '../../../shared/sql';

/**
 * Per-column profile of a table, computed in SQL a block of columns at a time: one aggregate pass
 * per block (nulls, distinct, min/max/mean/std), then one UNION ALL query per block for numeric
 * histograms and one for top text values.
 *
 * Measured on DuckDB-WASM (Node build, 50 rows): the old single pass of 150 columns with
 * `FILTER (WHERE isfinite(x))` on every numeric aggregate next to `count(DISTINCT …)` failed with
 * "Out of Memory Error: Allocation failure" (100 columns took 12.7 s): each distinct aggregate
 * under a filter gets its own hash tables. The same statistics written with `CASE WHEN` (the
 * aggregates skip NULLs) take 0.1 s for 50 columns, 0.56 s for 150; blocks of 50 keep every
 * statement small at any width.
 */

export const HISTOGRAM_BINS = 12;
export const TOP_VALUES = 5;
/** Columns per generated statement. */
export const BLOCK = 50;
/**
 * Columns per statement over a view with approximate distinct counts. A view reads its file again
 * for every statement, so each statement should cover as many columns as it can: with HyperLogLog
 * (no exact distinct hash tables) a statement over 300 columns stays small.
 */
export const VIEW_BLOCK = 300;
/** Up to this many rows distinct counts are exact; above, HyperLogLog estimates. */
export const EXACT_DISTINCT_ROWS = 200_000;
/**
 * Above this many rows, top values are counted in a reservoir sample of TOP_SAMPLE_ROWS rows
 * (grouping a high-cardinality text column of 10M rows needs a hash table of 10M strings).
 */
export const EXACT_TOP_ROWS = 1_000_000;
export const TOP_SAMPLE_ROWS = 100_000;
/**
 * Over a view of more rows than this, a block's histograms and top values are counted in one
 * reservoir sample of this many rows (said in the profile's `approximate`): exact ones took a
 * second and a third read of the file. Measured on DuckDB-WASM's Node build, 300 columns of a
 * 500 × 100k CSV view: exact histograms 27 s + sampled top values 10 s, against 24 s for both
 * from one sample, the aggregate pass being 22 s and a bare count(*) 13 s (load average ~15).
 */
export const SAMPLE_ROWS = 100_000;

export type ColumnKind = 'numeric' | 'text' | 'temporal' | 'other';

/** Integers have no NaN or infinity: their statistics need no isfinite() guard. */
const isInteger = (type: string): boolean => /^U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)$/.test(type.toUpperCase());

export function columnKind(type: string): ColumnKind {
  const t = type.toUpperCase();
  if (/^(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|FLOAT|DOUBLE|REAL|DECIMAL.*)$/.test(t)) return 'numeric';
  if (/^(VARCHAR|BOOLEAN|UUID|ENUM.*)$/.test(t)) return 'text';
  if (/^(DATE|TIME.*|TIMESTAMP.*)$/.test(t)) return 'temporal';
  return 'other';
}

function blocks<T>(items: T[], size = BLOCK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface Indexed {
  index: number;
  col: ColumnInfo;
  kind: ColumnKind;
}

export function aggregateSql(table: string, cols: Indexed[], exact: boolean): string {
  const parts = ['count(*)::DOUBLE AS n'];
  for (const { index: i, col, kind } of cols) {
    const c = quoteIdent(col.name);
    const scalar = kind === 'other' ? `${c}::VARCHAR` : c;
    parts.push(`count(${c})::DOUBLE AS nn_${i}`);
    parts.push(exact ? `count(DISTINCT ${scalar})::DOUBLE AS d_${i}` : `approx_count_distinct(${scalar})::DOUBLE AS d_${i}`);
    if (kind === 'numeric') {
      // NaN and ±inf would poison min/max/mean and make stddev fail: they count as values, not
      // statistics. CASE rather than FILTER: see the note at the top. An integer column needs no
      // guard, and the CASE of every column costs a third of a wide statement's time (measured on
      // DuckDB-WASM's Node build, 300 columns of a 500 × 100k CSV view; bench/README.md).
      if (isInteger(col.type)) parts.push(`min(${c})::DOUBLE AS lo_${i}`, `max(${c})::DOUBLE AS hi_${i}`, `avg(${c})::DOUBLE AS mean_${i}`, `stddev_samp(${c}) AS std_${i}`);
      else {
        const d = `(CASE WHEN isfinite(${c}::DOUBLE) THEN ${c}::DOUBLE END)`;
        parts.push(`min(${d}) AS lo_${i}`, `max(${d}) AS hi_${i}`, `avg(${d}) AS mean_${i}`, `stddev_samp(${d}) AS std_${i}`);
      }
    } else if (kind === 'temporal' || kind === 'text') {
      parts.push(`min(${c})::VARCHAR AS lo_${i}`, `max(${c})::VARCHAR AS hi_${i}`);
    }
  }
  return `SELECT ${parts.join(', ')} FROM ${quoteIdent(table)}`;
}

interface BinSpec {
  index: number;
  name: string;
  lo: number;
  width: number;
}

const binOf = ({ name, lo, width }: BinSpec): string => `least(floor((${quoteIdent(name)}::DOUBLE - ${lo}) / ${width}), ${HISTOGRAM_BINS - 1})::INTEGER`;

/** Bin counts (i, b, n) of a block of numeric columns, one grouped scan of one column each. */
export function histogramSql(table: string, cols: BinSpec[]): string {
  return cols
    .map((s) => `(SELECT ${s.index} AS i, ${binOf(s)} AS b, count(*)::DOUBLE AS n FROM ${quoteIdent(table)} WHERE isfinite(${quoteIdent(s.name)}::DOUBLE) GROUP BY 2)`)
    .join(' UNION ALL ');
}

/**
 * The same (i, b, n) rows in one scan of the source: a `histogram` aggregate per column, unnested.
 * Over a table it is slower than the grouped scans (measured on DuckDB-WASM, 45 columns × 300k
 * rows: 9.2 s against 5.6–8.4 s), but over a view each of those scans reads the file again.
 */
export function histogramOneScanSql(table: string, cols: BinSpec[]): string {
  const aggregates = cols.map((s) => `histogram(CASE WHEN isfinite(${quoteIdent(s.name)}::DOUBLE) THEN ${binOf(s)} END) AS h_${s.index}`);
  const rows = cols.map((s) => `SELECT ${s.index} AS i, unnest(map_keys(h_${s.index})) AS b, unnest(map_values(h_${s.index}))::DOUBLE AS n FROM h`);
  return `WITH h AS MATERIALIZED (SELECT ${aggregates.join(', ')} FROM ${quoteIdent(table)}) ${rows.join(' UNION ALL ')}`;
}

/**
 * Histograms (rows kind 'h': i, b, n) and top values (kind 't': i, v, n) of a block of columns
 * counted in one reservoir sample of `sampleRows` rows: over a view, one read of the file instead
 * of one for the histograms and one for the top values. The sample is held once
 * (MATERIALIZED); the histograms are `histogram` aggregates in one pass over it.
 */
export function sampledDistributionsSql(table: string, numeric: BinSpec[], text: Indexed[], sampleRows: number): string {
  const names = [...numeric.map((s) => s.name), ...text.map(({ col }) => col.name)];
  const sample = `s AS MATERIALIZED (SELECT ${names.map(quoteIdent).join(', ')} FROM ${quoteIdent(table)} USING SAMPLE reservoir(${sampleRows} ROWS) REPEATABLE (7))`;
  const parts: string[] = [];
  let ctes = sample;
  if (numeric.length > 0) {
    const aggregates = numeric.map((s) => `histogram(CASE WHEN isfinite(${quoteIdent(s.name)}::DOUBLE) THEN ${binOf(s)} END) AS h_${s.index}`);
    ctes += `, h AS MATERIALIZED (SELECT ${aggregates.join(', ')} FROM s)`;
    parts.push(...numeric.map((s) => `SELECT 'h' AS k, ${s.index} AS i, unnest(map_keys(h_${s.index})) AS b, NULL::VARCHAR AS v, unnest(map_values(h_${s.index}))::DOUBLE AS n FROM h`));
  }
  parts.push(
    ...text.map(({ index, col }) => {
      const c = quoteIdent(col.name);
      return `(SELECT 't' AS k, ${index} AS i, NULL::INTEGER AS b, ${c}::VARCHAR AS v, count(*)::DOUBLE AS n FROM s WHERE ${c} IS NOT NULL GROUP BY 4 ORDER BY 5 DESC, 4 LIMIT ${TOP_VALUES})`;
    }),
  );
  return `WITH ${ctes} ${parts.join(' UNION ALL ')}`;
}

/** Top values of a block of text columns; `sampleRows`: counted in a reservoir sample of that many rows. */
export function topSql(table: string, cols: Indexed[], sampleRows?: number): string {
  const source = sampleRows === undefined ? quoteIdent(table) : 's';
  const union = cols
    .map(({ index, col }) => {
      const c = quoteIdent(col.name);
      return `(SELECT ${index} AS i, ${c}::VARCHAR AS v, count(*)::DOUBLE AS n FROM ${source} WHERE ${c} IS NOT NULL GROUP BY 2 ORDER BY 3 DESC, 2 LIMIT ${TOP_VALUES})`;
    })
    .join(' UNION ALL ');
  if (sampleRows === undefined) return union;
  // Only this block's columns are sampled, once for the whole block.
  const select = cols.map(({ col }) => quoteIdent(col.name)).join(', ');
  return `WITH s AS MATERIALIZED (SELECT ${select} FROM ${quoteIdent(table)} USING SAMPLE reservoir(${sampleRows} ROWS) REPEATABLE (7)) SELECT * FROM (${union})`;
}

/**
 * A statement's rows through `send`: DuckDB-WASM's cancel reaches only a streamed statement, so a
 * profile's Cancel stops the statement it is in, not only the next one.
 */
async function streamedRows(engine: Engine, sql: string): Promise<Record<string, unknown>[]> {
  const stream = await engine.send(sql);
  const batches: RecordBatch[] = [];
  for await (const batch of stream.batches) batches.push(batch);
  return rowsOf(new Table(stream.schema, batches));
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export class ProfileCancelled extends Error {
  constructor() {
    super('Profile cancelled.');
    this.name = 'ProfileCancelled';
  }
}

export interface ProfileOptions {
  /** false leaves out histograms and top values (one aggregate pass per block only). */
  distributions?: boolean;
  /** Called after each statement: `done` of `total` statements. */
  onProgress?: (done: number, total: number) => void;
  /** Asked before each statement; true ends the profile with ProfileCancelled. */
  cancelled?: () => boolean;
  /** The source is a view over a file: fewer, wider statements, each one scan (see VIEW_BLOCK). */
  view?: boolean;
}

export async function profileTable(engine: Engine, table: string, columns: ColumnInfo[], rowCountHint?: number, options: ProfileOptions = {}): Promise<DatasetProfile> {
  const started = performance.now();
  const indexed: Indexed[] = columns.map((col, index) => ({ index, col, kind: columnKind(col.type) }));
  const profiles: ColumnProfile[] = columns.map((c) => ({ name: c.name, type: c.type, nulls: 0, distinct: 0 }));
  const exact = (rowCountHint ?? Infinity) <= EXACT_DISTINCT_ROWS;
  let rowCount = rowCountHint ?? 0;
  const distributions = options.distributions !== false;

  // Exact distinct counts keep a hash table per column: those statements stay at BLOCK columns.
  const oneScan = options.view === true && !exact;
  const size = oneScan ? VIEW_BLOCK : BLOCK;
  const blockList = indexed.length > 0 ? blocks(indexed, size) : [[]];
  const numericCount = indexed.filter((c) => c.kind === 'numeric').length;
  const textCols = indexed.filter((c) => c.kind === 'text');
  // The histogram blocks are counted at their most (every numeric column gets a range).
  // Over a long view: one sampled statement a block (see below).
  const sampledView = oneScan && (rowCountHint ?? 0) > SAMPLE_ROWS;
  const total = blockList.length + (distributions ? (sampledView ? blockList.length : Math.ceil(numericCount / size) + Math.ceil(textCols.length / size)) : 0);
  let done = 0;
  const run = async (sql: string): Promise<Record<string, unknown>[]> => {
    if (options.cancelled?.()) throw new ProfileCancelled();
    let rows: Record<string, unknown>[];
    try {
      rows = await streamedRows(engine, sql);
    } catch (e) {
      // An interrupted statement fails with DuckDB's own message: say it was the cancel.
      if (options.cancelled?.()) throw new ProfileCancelled();
      throw e;
    }
    done++;
    options.onProgress?.(done, total);
    return rows;
  };

  for (const block of blockList) {
    const row = (await run(aggregateSql(table, block, exact)))[0] ?? {};
    rowCount = Number(row.n ?? 0);
    for (const { index: i, kind } of block) {
      const p = profiles[i];
      if (!p) continue;
      p.nulls = rowCount - Number(row[`nn_${i}`] ?? 0);
      p.distinct = Number(row[`d_${i}`] ?? 0);
      if (kind === 'numeric') {
        p.min = num(row[`lo_${i}`]);
        p.max = num(row[`hi_${i}`]);
        p.mean = num(row[`mean_${i}`]);
        p.std = num(row[`std_${i}`]);
      } else if (kind === 'temporal' || kind === 'text') {
        const lo = row[`lo_${i}`];
        const hi = row[`hi_${i}`];
        if (typeof lo === 'string') p.min = lo;
        if (typeof hi === 'string') p.max = hi;
      }
    }
  }

  // Over a view (oneScan), histograms and top values come from one reservoir sample per block:
  // each statement reads the file again, and the sample makes it one read instead of two.
  const distSample = oneScan && rowCount > SAMPLE_ROWS ? SAMPLE_ROWS : undefined;
  const topSample = distSample ?? (rowCount > EXACT_TOP_ROWS ? TOP_SAMPLE_ROWS : undefined);
  const sampledTop = distributions && topSample !== undefined && textCols.length > 0;
  const sampledHistograms = distributions && distSample !== undefined && numericCount > 0;
  const approximate =
    !exact || sampledTop || sampledHistograms
      ? { distinct: !exact, ...(sampledTop ? { topSampleRows: topSample } : {}), ...(sampledHistograms ? { histogramSampleRows: distSample } : {}) }
      : undefined;
  const result = (): DatasetProfile => ({ name: table, rowCount, columns: profiles, elapsedMs: performance.now() - started, ...(approximate ? { approximate } : {}) });
  if (!distributions) return result();

  const specOf = ({ index, col }: Indexed): (BinSpec & { hi: number }) | undefined => {
    const p = profiles[index];
    if (typeof p?.min !== 'number' || typeof p.max !== 'number') return undefined;
    const lo = p.min;
    const hi = p.max;
    // A constant column gets one bin; width 1 keeps the SQL arithmetic finite.
    return { index, name: col.name, lo, hi, width: hi > lo ? (hi - lo) / HISTOGRAM_BINS : 1 };
  };
  const numericSpecs = (cols: Indexed[]) => cols.filter((c) => c.kind === 'numeric').flatMap((c) => specOf(c) ?? []);
  // A sample's counts are scaled to the table, so the bars read as the table's.
  const histScale = distSample !== undefined ? rowCount / distSample : 1;
  const topScale = topSample !== undefined ? rowCount / topSample : 1;
  const setHistograms = (specs: (BinSpec & { hi: number })[], counts: Record<string, unknown>[]) => {
    for (const s of specs) {
      const p = profiles[s.index];
      if (!p) continue;
      const nbins = s.hi > s.lo ? HISTOGRAM_BINS : 1;
      const bins: HistogramBin[] = Array.from({ length: nbins }, (_, b) => ({
        lo: s.lo + b * s.width,
        hi: nbins === 1 ? s.hi : b === nbins - 1 ? s.hi : s.lo + (b + 1) * s.width,
        count: 0,
      }));
      for (const r of counts) {
        if (Number(r.i) !== s.index || r.k === 't') continue;
        const bin = bins[Math.min(Number(r.b), nbins - 1)];
        if (bin) bin.count += Number(r.n);
      }
      if (histScale !== 1) for (const bin of bins) bin.count = Math.round(bin.count * histScale);
      p.histogram = bins;
    }
  };
  const setTop = (cols: Indexed[], rows: Record<string, unknown>[]) => {
    for (const { index } of cols) {
      const p = profiles[index];
      if (!p) continue;
      p.top = rows
        .filter((r) => Number(r.i) === index && r.k !== 'h')
        .map((r) => ({ value: String(r.v), count: Math.round(Number(r.n) * topScale) }))
        .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
    }
  };

  if (distSample !== undefined) {
    for (const block of blockList) {
      const specs = numericSpecs(block);
      const text = block.filter((c) => c.kind === 'text');
      if (specs.length === 0 && text.length === 0) continue;
      const rows = await run(sampledDistributionsSql(table, specs, text, distSample));
      setHistograms(specs, rows);
      setTop(text, rows);
    }
  } else {
    for (const block of blocks(numericSpecs(indexed), size)) setHistograms(block, await run(oneScan ? histogramOneScanSql(table, block) : histogramSql(table, block)));
    for (const block of blocks(textCols, size)) setTop(block, await run(topSql(table, block, topSample)));
  }
  if (options.cancelled?.()) throw new ProfileCancelled();
  options.onProgress?.(total, total);
  return result();
}

/**
 * `profileSample`'s answer for a loaded dataset: the asked columns that exist (none asked: the
 * first `maxColumns`) profiled without distributions, and their first `sampleRows` rows.
 */
export async function profileSample(
  engine: Engine,
  dataset: { name: string; columns: ColumnInfo[]; rowCount: number },
  asked: readonly string[] | undefined,
  sampleRows: number,
  maxColumns: number,
): Promise<ProfileSample> {
  const wanted = asked === undefined ? undefined : new Set(asked);
  const columns = wanted ? dataset.columns.filter((c) => wanted.has(c.name)) : dataset.columns.slice(0, maxColumns);
  const profile = await profileTable(engine, dataset.name, columns, dataset.rowCount, { distributions: false });
  const rows = Math.max(0, Math.floor(sampleRows));
  const select = columns.map((c) => quoteIdent(c.name)).join(', ') || '*';
  const started = performance.now();
  const sample = await collectRows(engine, `SELECT ${select} FROM ${quoteIdent(dataset.name)} LIMIT ${rows}`, rows);
  return { columns: dataset.columns.map((c) => c.name), profile, sample: { ...sample, elapsedMs: performance.now() - started } };
}
