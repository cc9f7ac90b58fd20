/** A result table as plain text, escaped HTML and a GFM table, for the exports. */
import type { TableData } from './outline';
import { escapeHtml, plural } from '../../shared/text';

/** How a value reads in a cell: NULL for missing, JSON for nested values. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

const rowsLabel = (t: TableData) => `${plural(t.rowCount, 'row')} × ${plural(t.columns.length, 'column')}`;

/** What the table leaves out, or '' when it is whole. */
export function tableFootnote(t: TableData, shown: number): string {
  if (t.rowCount > shown || t.truncated) return `${rowsLabel(t)} (first ${Math.min(shown, t.rows.length).toLocaleString('en-US')} shown)`;
  return rowsLabel(t);
}

/** Like a DataFrame's repr: an index column, right-aligned values, a size line when cut. */
export function textTable(t: TableData, maxRows = 60): string {
  const shown = t.rows.slice(0, maxRows);
  const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ');
  const header = ['', ...t.columns.map(oneLine)];
  const body = shown.map((r, i) => [String(i), ...t.columns.map((_, c) => oneLine(cellText(r[c])))]);
  const widths = header.map((h, c) => Math.max(h.length, ...body.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) => cells.map((s, c) => s.padStart(widths[c] ?? 0)).join('  ').trimEnd();
  const lines = [line(header), ...body.map(line)];
  if (t.rowCount > shown.length || t.truncated) lines.push('...', '', `[${t.rowCount} rows x ${t.columns.length} columns]`);
  return lines.join('\n');
}

/** An HTML table with every header and value escaped. */
export function htmlTable(t: TableData, maxRows = 500): string {
  const head = t.columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('');
  const body = t.rows
    .slice(0, maxRows)
    .map((r) => `<tr>${t.columns.map((_, c) => `<td>${escapeHtml(cellText(r[c]))}</td>`).join('')}</tr>`)
    .join('\n');
  return `<table class="dataframe">\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/** Backslash-escapes what GFM would read as table syntax, formatting or HTML in a cell. */
export function escapeMarkdownCell(text: string): string {
  return text.replace(/\r?\n|\r/g, ' ').replace(/[\\`*_[\]<>|&~]/g, (c) => `\\${c}`);
}

export function gfmTable(t: TableData, maxRows = 100): string {
  if (t.columns.length === 0) return '';
  const row = (cells: string[]) => `| ${cells.map(escapeMarkdownCell).join(' | ')} |`;
  const lines = [row(t.columns), `| ${t.columns.map(() => '---').join(' | ')} |`];
  for (const r of t.rows.slice(0, maxRows)) lines.push(row(t.columns.map((_, c) => cellText(r[c]))));
  return lines.join('\n');
}
