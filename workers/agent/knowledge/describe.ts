/**
 * `describe_columns`: what the prompt's compact index leaves out, for the columns the model asks
 * for — the dictionary's meaning, unit, codes and placeholders beside the profile's counts and
 * range. Without `columns` it lists every column (name, type, one-line description), so a table
 * listed as one line in the prompt can still be explored.
 */
import type { DescribeColumnsArgs, DescribeColumnsResult, DescribedColumn } from '../../../protocol/agent/tools';
import type { DataDictionary } from '../../../protocol/agent/knowledge';
import type { DatasetInfo } from '../../../protocol/data';
import type { DataClient } from '../tools/workerHost';
import type { HostResult } from '../tools/execute';
import { messageOf } from '../../../shared/errors';
import { quoteIdent } from '../../../shared/sql';
import { decodeIpc } from '../../../shared/arrowDecode';

/** Columns described in full per call; a listing returns at most LIST_LIMIT. */
export const DETAIL_LIMIT = 40;
export const LIST_LIMIT = 150;

export interface DescribeSources {
  data: DataClient;
  /** The dataset's own accepted dictionary (bound by content: `shared/knowledge/identity.ts`). */
  dictionary(dataset: DatasetInfo, all: readonly DatasetInfo[]): Promise<DataDictionary | undefined>;
  /** False under "No raw rows": no top values (they are rows' values). */
  rawValues?: boolean;
}

interface Stats {
  nulls?: number;
  distinct?: number;
  min?: number | string;
  max?: number | string;
  mean?: number;
  top?: { value: string; count: number }[];
}

const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL.*)$/i;
/** Text columns whose most frequent values are listed (one query each). */
const TOP_COLUMNS = 10;

const scalar = (v: unknown): number | string | undefined =>
  v === null || v === undefined ? undefined : typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : v instanceof Date ? v.toISOString() : String(v);

/**
 * Counts, range and mean of just the asked columns in one scan (the data worker's profile reads
 * every column, which a 500-column table cannot afford), and the top values of text columns.
 */
async function statsOf(data: DataClient, table: string, columns: readonly { name: string; type: string }[], rawValues: boolean): Promise<Map<string, Stats>> {
  const out = new Map<string, Stats>();
  const exprs = columns.flatMap((c, i) => {
    const q = quoteIdent(c.name);
    const num = NUMERIC.test(c.type);
    return [
      `count(*) - count(${q}) AS n${i}`,
      `approx_count_distinct(${q}) AS d${i}`,
      num || rawValues ? `CAST(min(${q}) AS VARCHAR) AS lo${i}` : `NULL AS lo${i}`,
      num || rawValues ? `CAST(max(${q}) AS VARCHAR) AS hi${i}` : `NULL AS hi${i}`,
      num ? `avg(${q}) AS m${i}` : `NULL AS m${i}`,
    ];
  });
  const res = await data.call('modelQuery', { sql: `SELECT ${exprs.join(', ')} FROM ${quoteIdent(table)}`, maxRows: 1 });
  if (!res.ok) return out;
  const row = decodeIpc(res.result.ipc).rows[0] ?? [];
  columns.forEach((c, i) => {
    const num = NUMERIC.test(c.type);
    const s: Stats = { nulls: Number(row[i * 5] ?? 0), distinct: Number(row[i * 5 + 1] ?? 0) };
    const lo = scalar(row[i * 5 + 2]);
    const hi = scalar(row[i * 5 + 3]);
    const mean = scalar(row[i * 5 + 4]);
    if (lo !== undefined) s.min = num && typeof lo === 'string' && lo.trim() !== '' && Number.isFinite(Number(lo)) ? Number(lo) : lo;
    if (hi !== undefined) s.max = num && typeof hi === 'string' && hi.trim() !== '' && Number.isFinite(Number(hi)) ? Number(hi) : hi;
    if (typeof mean === 'number') s.mean = mean;
    out.set(c.name, s);
  });
  if (rawValues) {
    for (const c of columns.filter((c) => !NUMERIC.test(c.type)).slice(0, TOP_COLUMNS)) {
      const q = quoteIdent(c.name);
      const top = await data.call('modelQuery', { sql: `SELECT CAST(${q} AS VARCHAR) AS v, count(*) AS n FROM ${quoteIdent(table)} WHERE ${q} IS NOT NULL GROUP BY ALL ORDER BY n DESC, v LIMIT 8`, maxRows: 8 });
      if (!top.ok) continue;
      const s = out.get(c.name);
      if (s) s.top = decodeIpc(top.result.ipc).rows.map((r) => ({ value: String(r[0]), count: Number(r[1]) }));
    }
  }
  return out;
}

const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

export async function describeColumns(src: DescribeSources, args: DescribeColumnsArgs): Promise<HostResult<DescribeColumnsResult>> {
  try {
    const list = await src.data.call('list', {});
    const ds = list.find((d) => d.name === args.dataset);
    if (!ds) return { ok: false, message: `there is no dataset named ${args.dataset}; the datasets are: ${list.map((d) => d.name).join(', ') || '(none loaded)'}` };
    const dict = await src.dictionary(ds, list).catch(() => undefined);
    const entries = new Map((dict?.columns ?? []).map((c) => [c.name, c]));
    const notes: string[] = [];
    if (dict?.row_meaning.trim()) notes.push(`One row: ${dict.row_meaning.trim()}`);
    if (dict?.grain.trim()) notes.push(`Grain: ${dict.grain.trim()}`);
    for (const c of dict?.caveats ?? []) notes.push(`Caveat: ${c}`);
    for (const j of dict?.joins ?? []) notes.push(`Joins: ${ds.name}.${j.column} = ${j.other_dataset}.${j.other_column}`);

    const all = ds.columns;
    const asked = args.columns?.length ? args.columns : null;
    const missing = asked ? asked.filter((c) => !all.some((a) => a.name === c)) : [];
    let chosen = asked ? all.filter((c) => asked.includes(c.name)) : all;
    if (args.search?.trim()) {
      const want = words(args.search);
      chosen = chosen.filter((c) => {
        const hay = new Set([...words(c.name), ...words(entries.get(c.name)?.description ?? '')]);
        const text = `${c.name} ${entries.get(c.name)?.description ?? ''}`.toLowerCase();
        return want.some((w) => hay.has(w) || text.includes(w));
      });
    }
    const detailed = asked !== null;
    const limit = detailed ? DETAIL_LIMIT : LIST_LIMIT;
    const truncated = chosen.length > limit;
    chosen = chosen.slice(0, limit);

    const stats = detailed && chosen.length ? await statsOf(src.data, ds.name, chosen, src.rawValues !== false) : new Map<string, Stats>();
    const columns = chosen.map((c): DescribedColumn => {
      const e = entries.get(c.name);
      const out: DescribedColumn = { name: c.name, type: c.type };
      if (!detailed) {
        if (e?.description) out.description = e.description.length > 100 ? `${e.description.slice(0, 99)}…` : e.description;
        return out;
      }
      if (e) {
        if (e.description) out.description = e.description;
        if (e.unit) out.unit = e.unit;
        if (e.role !== 'other') out.role = e.role;
        if (e.codes.length) out.codes = e.codes;
        if (e.missing.length) out.missing = e.missing;
      }
      const p = stats.get(c.name);
      if (p) Object.assign(out, p);
      return out;
    });
    return { ok: true, value: { dataset: ds.name, row_count: ds.rowCount, total_columns: all.length, columns, columns_missing: missing, truncated, notes } };
  } catch (e) {
    return { ok: false, message: messageOf(e) };
  }
}
