import type { ColumnInfo, ColumnProfile, DatasetProfile, HistogramBin, ProfileSample } from '../../protocol/data';
import { rowsOf, type Engine } from './duckdbEngine';
import { collectRows } from './queryRunner';
import { quoteIdent } from '../../shared/sql';

/**
 * Per-column profile of a table, computed in SQL with few queries regardless of width: one
 * aggregate pass per block of columns (nulls, distinct, min/max/mean/std), then one UNION ALL
 * query per block for numeric histograms and one for top text values.
 */

export const HISTOGRAM_BINS = 12;
export const TOP_VALUES = 5;
/** Columns per generated query, so a 5,000-column table does not make one enormous statement. */
const BLOCK = 150;
/** Below this many rows distinct counts are exact; above, HyperLogLog estimates. */
const EXACT_DISTINCT_ROWS = 200_000;

export type ColumnKind = 'numeric' | 'text' | 'temporal' | 'other';

export function columnKind(type: string): ColumnKind {
  const t = type.toUpperCase();
  if (/^(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|FLOAT|DOUBLE|REAL|DECIMAL.*)$/.test(t)) return 'numeric';
  if (/^(VARCHAR|BOOLEAN|UUID|ENUM.*)$/.test(t)) return 'text';
  if (/^(DATE|TIME.*|TIMESTAMP.*)$/.test(t)) return 'temporal';
  return 'other';
}

function blocks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += BLOCK) out.push(items.slice(i, i + BLOCK));
  return out;
}

interface Indexed {
  index: number;
  col: ColumnInfo;
  kind: ColumnKind;
}

function aggregateSql(table: string, cols: Indexed[], exact: boolean): string {
  const parts = ['count(*)::DOUBLE AS n'];
  for (const { index: i, col, kind } of cols) {
    const c = quoteIdent(col.name);
    const scalar = kind === 'other' ? `${c}::VARCHAR` : c;
    parts.push(`count(${c})::DOUBLE AS nn_${i}`);
    parts.push(exact ? `count(DISTINCT ${scalar})::DOUBLE AS d_${i}` : `approx_count_distinct(${scalar})::DOUBLE AS d_${i}`);
    if (kind === 'numeric') {
      // NaN and ±inf would poison min/max/mean and make stddev fail: they count as values, not statistics.
      const d = `${c}::DOUBLE`;
      const finite = `FILTER (WHERE isfinite(${d}))`;
      parts.push(`min(${d}) ${finite} AS lo_${i}`, `max(${d}) ${finite} AS hi_${i}`, `avg(${d}) ${finite} AS mean_${i}`, `stddev_samp(${d}) ${finite} AS std_${i}`);
    } else if (kind === 'temporal' || kind === 'text') {
      parts.push(`min(${c})::VARCHAR AS lo_${i}`, `max(${c})::VARCHAR AS hi_${i}`);
    }
  }
  return `SELECT ${parts.join(', ')} FROM ${quoteIdent(table)}`;
}

function histogramSql(table: string, cols: { index: number; name: string; lo: number; width: number }[]): string {
  return cols
    .map(({ index, name, lo, width }) => {
      const c = `${quoteIdent(name)}::DOUBLE`;
      return `(SELECT ${index} AS i, least(floor((${c} - ${lo}) / ${width}), ${HISTOGRAM_BINS - 1})::INTEGER AS b, count(*)::DOUBLE AS n FROM ${quoteIdent(table)} WHERE isfinite(${c}) GROUP BY 2)`;
    })
    .join(' UNION ALL ');
}

function topSql(table: string, cols: Indexed[]): string {
  return cols
    .map(({ index, col }) => {
      const c = quoteIdent(col.name);
      return `(SELECT ${index} AS i, ${c}::VARCHAR AS v, count(*)::DOUBLE AS n FROM ${quoteIdent(table)} WHERE ${c} IS NOT NULL GROUP BY 2 ORDER BY 3 DESC, 2 LIMIT ${TOP_VALUES})`;
    })
    .join(' UNION ALL ');
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** `distributions: false` leaves out histograms and top values (one aggregate pass per block only). */
export async function profileTable(engine: Engine, table: string, columns: ColumnInfo[], rowCountHint?: number, options: { distributions?: boolean } = {}): Promise<DatasetProfile> {
  const started = performance.now();
  const indexed: Indexed[] = columns.map((col, index) => ({ index, col, kind: columnKind(col.type) }));
  const profiles: ColumnProfile[] = columns.map((c) => ({ name: c.name, type: c.type, nulls: 0, distinct: 0 }));
  const exact = (rowCountHint ?? Infinity) <= EXACT_DISTINCT_ROWS;
  let rowCount = rowCountHint ?? 0;

  const blockList = indexed.length > 0 ? blocks(indexed) : [[]];
  for (const block of blockList) {
    const row = rowsOf(await engine.query(aggregateSql(table, block, exact)))[0] ?? {};
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

  if (options.distributions === false) return { name: table, rowCount, columns: profiles, elapsedMs: performance.now() - started };

  const numeric = indexed
    .filter((c) => c.kind === 'numeric')
    .map(({ index, col }) => ({ index, name: col.name, p: profiles[index] }))
    .filter((c): c is { index: number; name: string; p: ColumnProfile } => c.p !== undefined && typeof c.p.min === 'number' && typeof c.p.max === 'number');
  for (const block of blocks(numeric)) {
    const specs = block.map(({ index, name, p }) => {
      const lo = p.min as number;
      const hi = p.max as number;
      // A constant column gets one bin; width 1 keeps the SQL arithmetic finite.
      return { index, name, lo, hi, width: hi > lo ? (hi - lo) / HISTOGRAM_BINS : 1 };
    });
    const counts = rowsOf(await engine.query(histogramSql(table, specs)));
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
        if (Number(r.i) !== s.index) continue;
        const bin = bins[Math.min(Number(r.b), nbins - 1)];
        if (bin) bin.count += Number(r.n);
      }
      p.histogram = bins;
    }
  }

  const textCols = indexed.filter((c) => c.kind === 'text');
  for (const block of blocks(textCols)) {
    const rows = rowsOf(await engine.query(topSql(table, block)));
    for (const { index } of block) {
      const p = profiles[index];
      if (!p) continue;
      p.top = rows
        .filter((r) => Number(r.i) === index)
        .map((r) => ({ value: String(r.v), count: Number(r.n) }))
        .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
    }
  }

  return { name: table, rowCount, columns: profiles, elapsedMs: performance.now() - started };
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
