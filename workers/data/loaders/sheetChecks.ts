/**
 * The load report's layout checks for an Excel sheet, run on its cells while the reader has them:
 * a title or notes above the real header (the header is not row 1), notes or source lines below
 * the data, empty or repeated headers, columns whose cells mix kinds (dates and text, say). A fix is offered only when the reader itself, planning the
 * sheet again with the fix's options (sheetLayout.ts), gives the header and column types the
 * finding promises. Values inside the table (placeholders, numbers or dates as text) are checked
 * by DuckDB on the loaded table (checks/tableChecks.ts). It lives with the readers because the
 * cells are theirs; columns of mixed kinds are handed on as facts, which the checks put in words.
 */
import type { LoadFinding, TableReadOverrides } from '../../../protocol/loadReport';
import { asText, mixedColumns, type ColumnPlan } from './inferredColumns';
import { isBlank, isBlankRow, planSheet, type Row, type SheetLayout } from './sheetLayout';
import type { MixedColumn } from './types';

/** Rows below the taken header searched for the real one: government and finance workbooks put up to a dozen lines of notes above it. */
const MAX_HEADER_SEARCH = 20;
/** Note rows looked for below the data. */
const MAX_NOTE_ROWS = 10;
const GENERIC_NAME = /^column_\d+$/;

const list = (names: readonly string[]) => names.map((n) => `"${n}"`).join(', ');
const clip = (text: string, n = 60) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);
const filled = (row: Row | undefined) => (row ?? []).filter((c) => !isBlank(c)).length;
const typed = (plan: readonly ColumnPlan[]) => plan.filter((p) => p.kind !== 'string');
const firstText = (row: Row | undefined) => asText((row ?? []).find((c) => !isBlank(c)) ?? '');
const layoutOnly = (read: TableReadOverrides): TableReadOverrides => ({
  ...(read.headerRow !== undefined ? { headerRow: read.headerRow } : {}),
  ...(read.lastRow !== undefined ? { lastRow: read.lastRow } : {}),
});
/** What the typed columns of a plan hold, in words ("hold numbers", "hold numbers or dates"). */
function kindWords(plan: readonly ColumnPlan[]): string {
  const words = new Set(typed(plan).map((p) => (p.kind === 'int' || p.kind === 'float' ? 'numbers' : p.kind === 'bool' ? 'true/false values' : 'dates')));
  return `${typed(plan).length === 1 ? 'holds' : 'hold'} ${[...words].join(' or ')}`;
}
const rowSpan = (from: number, to: number) => (from === to ? `Row ${from + 1}` : `Rows ${from + 1}–${to + 1}`);

/**
 * The header was taken from a row that fills less than half the table's width (a title), and a
 * row below it fills the width: read with that row as header, more columns get their types (or,
 * on an all-text sheet, the columns get names instead of column_2, column_3…).
 */
function titleRows(data: readonly Row[], layout: SheetLayout, read: TableReadOverrides): LoadFinding | undefined {
  const header = data[layout.headerIndex];
  const width = layout.plan.length;
  if (width < 2 || filled(header) * 2 > width) return undefined;
  const before = typed(layout.plan).length;
  const namesGeneric = layout.plan.slice(1).every((p) => GENERIC_NAME.test(p.name));
  for (let i = layout.headerIndex + 1; i < data.length && i <= layout.headerIndex + MAX_HEADER_SEARCH; i++) {
    const row = data[i];
    if (filled(row) < 2) continue;
    const options = { ...layoutOnly(read), headerRow: i + 1 };
    if (read.lastRow !== undefined && read.lastRow <= i + 1) break;
    const candidate = planSheet(data, options);
    if (!candidate || candidate.rows.length === 0 || filled(row) * 2 < candidate.plan.length) continue;
    const gained = typed(candidate.plan).length > before;
    const named = namesGeneric && filled(row) === candidate.plan.length && row!.every((c) => isBlank(c) || typeof c === 'string');
    if (!gained && !named) continue;
    let lastAbove = i - 1;
    while (lastAbove > layout.headerIndex && isBlankRow(data[lastAbove])) lastAbove--;
    const above = data.slice(layout.headerIndex, i).filter((r) => !isBlankRow(r)).length;
    const names = candidate.plan.map((p) => p.name);
    const gainedNames = typed(candidate.plan).map((p) => p.name);
    return {
      kind: 'title_line',
      columns: [],
      message:
        `${rowSpan(layout.headerIndex, lastAbove)} ${above === 1 ? 'is a title' : 'are a title or notes'} above the header ("${clip(firstText(header))}"), so the header was taken from row ${layout.headerIndex + 1}` +
        `${before === 0 ? ' and every column was read as text' : ''}; the header is row ${i + 1} (${list(names.slice(0, 4))}${names.length > 4 ? '…' : ''})` +
        `${gainedNames.length > 0 ? `: read from there, ${list(gainedNames.slice(0, 4))}${gainedNames.length > 4 ? '…' : ''} ${kindWords(candidate.plan)}` : ''}.`,
      fix: { label: `Read with the header at row ${i + 1}`, options },
    };
  }
  return undefined;
}

/** A row with one filled cell, holding text that is not a number: a note, a source, a footnote. */
function noteLike(row: Row | undefined): boolean {
  const cells = (row ?? []).filter((c) => !isBlank(c));
  return cells.length === 1 && typeof cells[0] === 'string' && !Number.isFinite(Number(cells[0].trim()));
}

/**
 * Rows of one text cell at the bottom of the sheet, below the data: a finding when they turned a
 * column of numbers into text (the reader, stopping above them, types it), or when a blank row
 * sets them apart from the data.
 */
function notesBelow(data: readonly Row[], layout: SheetLayout, read: TableReadOverrides): LoadFinding | undefined {
  if (layout.plan.length < 2) return undefined;
  let i = Math.min(data.length, read.lastRow ?? data.length) - 1;
  const notes: number[] = [];
  while (i > layout.headerIndex) {
    const row = data[i];
    if (!isBlankRow(row)) {
      if (!noteLike(row) || notes.length === MAX_NOTE_ROWS) break;
      notes.push(i);
    }
    i--;
  }
  if (notes.length === 0 || i <= layout.headerIndex) return undefined;
  const n = notes.length;
  const dataRows = data.slice(layout.headerIndex + 1, i + 1).filter((r) => !isBlankRow(r)).length;
  if (dataRows < 2) return undefined;
  const options = { ...read, lastRow: i + 1 };
  const candidate = planSheet(data, options);
  if (!candidate || candidate.rows.length !== layout.rows.length - notes.length) return undefined;
  const first = notes[n - 1]!;
  // Only blank rows lie between the last data row and the first note: one or more sets them apart.
  const gap = first - i > 1;
  const wasText = new Set(layout.plan.filter((p) => p.kind === 'string').map((p) => p.name));
  const gained = typed(candidate.plan).filter((p) => wasText.has(p.name)).map((p) => p.name);
  if (gained.length === 0 && !gap) return undefined;
  return {
    kind: 'notes_below',
    columns: gained,
    message:
      `${n === 1 ? 'A row' : `${n} rows`} below the data ${n === 1 ? 'is a note' : 'are notes'} (row ${first + 1}: "${clip(firstText(data[first]))}"), read as ${n === 1 ? 'a data row' : 'data rows'}` +
      `${gained.length > 0 ? `, so ${list(gained)} ${gained.length === 1 ? 'was' : 'were'} read as text` : ''}.`,
    fix: { label: `Stop the data at row ${i + 1}`, options },
  };
}

/** Header cells left empty over a column with values, or repeated (DuckDB names are case-insensitive). */
function columnNames(data: readonly Row[], layout: SheetLayout): LoadFinding | undefined {
  const header = data[layout.headerIndex] ?? [];
  const empty: string[] = [];
  const repeated: { raw: string; made: string }[] = [];
  const seen = new Set<string>();
  layout.plan.forEach((p, column) => {
    const cell = header[column];
    if (isBlank(cell)) {
      if (layout.rows.some((r) => !isBlank(r[column]))) empty.push(p.name);
      return;
    }
    const raw = asText(cell);
    if (seen.has(raw.toLowerCase())) repeated.push({ raw, made: p.name });
    seen.add(raw.toLowerCase());
  });
  if (empty.length === 0 && repeated.length === 0) return undefined;
  const parts: string[] = [];
  if (empty.length > 0) parts.push(`${empty.length === 1 ? 'an empty header was' : `${empty.length} empty headers were`} named ${list(empty)}`);
  if (repeated.length > 0) parts.push(`repeated headers were renamed (${repeated.map((r) => `"${r.raw}" → "${r.made}"`).join(', ')})`);
  return { kind: 'column_names', columns: [...empty, ...repeated.map((r) => r.made)], message: `Column names: ${parts.join('; ')}.` };
}

/**
 * The sheet's layout findings and its columns of mixed kinds; under a title only the title (every
 * other check would echo it).
 */
export function sheetFindings(data: readonly Row[], layout: SheetLayout, read: TableReadOverrides): { findings: LoadFinding[]; mixed: MixedColumn[] } {
  const title = titleRows(data, layout, read);
  if (title) return { findings: [title], mixed: [] };
  const notes = notesBelow(data, layout, read);
  // A column the notes made text is that finding's.
  const mixed = mixedColumns(layout.plan, layout.families).filter((m) => !notes?.columns.includes(m.column));
  return { findings: [notes, columnNames(data, layout)].filter((f): f is LoadFinding => f !== undefined), mixed };
}
