import type { DatasetInfo } from '../../workers/protocol/data';

const n = (x: number) => x.toLocaleString('en-US');

/** "344 rows × 7 columns" — singular where it reads better. */
export function describeSize(d: Pick<DatasetInfo, 'rowCount' | 'columns'>): string {
  const rows = `${n(d.rowCount)} ${d.rowCount === 1 ? 'row' : 'rows'}`;
  const cols = `${n(d.columns.length)} ${d.columns.length === 1 ? 'column' : 'columns'}`;
  return `${rows} × ${cols}`;
}

/** The file name to give pasted text, so the worker picks the right delimiter. */
export function pastedFileName(text: string): string {
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  const tabs = first.split('\t').length - 1;
  const commas = first.split(',').length - 1;
  return tabs > 0 && tabs >= commas ? 'pasted.tsv' : 'pasted.csv';
}
