import type { ColumnProfile, DatasetInfo } from '../../protocol/data';
import { plural } from '../../shared/text';

const n = (x: number) => x.toLocaleString('en-US');

/** One line about a column from its profile: how many distinct and missing values, and its range. */
export function columnSummary(c: ColumnProfile, rowCount: number): string {
  const parts: string[] = [];
  parts.push(`${n(c.distinct)} distinct`);
  if (c.nulls > 0) parts.push(`${n(c.nulls)} missing${rowCount > 0 ? ` (${Math.round((c.nulls / rowCount) * 100)}%)` : ''}`);
  const short = (v: number | string) => {
    if (typeof v === 'number') return Number.isInteger(v) ? n(v) : String(Number(v.toPrecision(4)));
    return v.length > 16 ? `${v.slice(0, 15)}…` : v;
  };
  if (c.min !== undefined && c.max !== undefined) parts.push(`${short(c.min)} – ${short(c.max)}`);
  else if (c.top?.[0]) parts.push(`most often ${short(c.top[0].value)}`);
  return parts.join(' · ');
}

/** "344 rows × 7 columns" — singular where it reads better. */
export function describeSize(d: Pick<DatasetInfo, 'rowCount' | 'columns'>): string {
  return `${plural(d.rowCount, 'row')} × ${plural(d.columns.length, 'column')}`;
}

/** The file name to give pasted text, so the worker picks the right delimiter. */
export function pastedFileName(text: string): string {
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  const tabs = first.split('\t').length - 1;
  const commas = first.split(',').length - 1;
  return tabs > 0 && tabs >= commas ? 'pasted.tsv' : 'pasted.csv';
}
