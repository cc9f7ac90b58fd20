/**
 * `describe_columns`: what the prompt's compact index leaves out, for the columns the model asks
 * for — the dictionary's meaning, unit, codes and placeholders beside the profile's counts and
 * range. Without `columns` it lists every column (name, type, one-line description), so a table
 * listed as one line in the prompt can still be explored.
 */
import type { DescribeColumnsArgs, DescribeColumnsResult, DescribedColumn } from '../../protocol/agent/tools';
import type { DataDictionary } from '../../protocol/agent/knowledge';
import type { DataClient } from '../tools/workerHost';
import type { HostResult } from '../tools/execute';
import { messageOf } from '../../../shared/errors';

/** Columns described in full per call; a listing returns at most LIST_LIMIT. */
export const DETAIL_LIMIT = 40;
export const LIST_LIMIT = 150;

export interface DescribeSources {
  data: DataClient;
  dictionary(dataset: string): Promise<DataDictionary | undefined>;
  /** False under "No raw rows": no top values (they are rows' values). */
  rawValues?: boolean;
}

const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

export async function describeColumns(src: DescribeSources, args: DescribeColumnsArgs): Promise<HostResult<DescribeColumnsResult>> {
  try {
    const list = await src.data.call('list', {});
    const ds = list.find((d) => d.name === args.dataset);
    if (!ds) return { ok: false, message: `there is no dataset named ${args.dataset}; the datasets are: ${list.map((d) => d.name).join(', ') || '(none loaded)'}` };
    const dict = await src.dictionary(ds.name).catch(() => undefined);
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

    const profile = detailed && chosen.length ? await src.data.call('profile', { name: ds.name }) : undefined;
    const stats = new Map((profile?.columns ?? []).map((c) => [c.name, c]));
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
      if (p) {
        out.nulls = p.nulls;
        out.distinct = p.distinct;
        if (p.min !== undefined) out.min = p.min;
        if (p.max !== undefined) out.max = p.max;
        if (p.mean !== undefined) out.mean = p.mean;
        if (p.top && src.rawValues !== false) out.top = p.top.slice(0, 8);
      }
      return out;
    });
    return { ok: true, value: { dataset: ds.name, row_count: ds.rowCount, total_columns: all.length, columns, columns_missing: missing, truncated, notes } };
  } catch (e) {
    return { ok: false, message: messageOf(e) };
  }
}
