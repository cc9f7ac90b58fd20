/**
 * What a grid's column header says about its column: type, missing values, and min–max (numbers,
 * dates, times) or the most frequent value (text). From a dataset's profile (previews) or from the
 * rows a grid holds (results) — in which case it describes those rows only.
 */
import type { CellValue } from '../../shared/arrowDecode';
import type { ColumnInfo, DatasetProfile } from '../../protocol/data';
import { isNumericType } from './cellText';
import { formatCell, type ColumnFormat } from './format';
import { zonedTimestamp } from '../../shared/zonedTime';

export interface ColumnSummary {
  type: string;
  missing: number;
  /** Rows the summary counts. */
  rows: number;
  min?: CellValue;
  max?: CellValue;
  top?: { value: string; count: number };
}

/** Types whose order means something to a reader, so min–max says more than a top value. */
const ORDERED = /^(DATE|TIME|TIMESTAMP|INTERVAL)/i;
const ordered = (type: string) => isNumericType(type) || ORDERED.test(type.trim());

/** How the grid's cells show instants, so a header's range reads like the cells below it. */
export interface InstantDisplay {
  /** The zone TIMESTAMP WITH TIME ZONE cells are shown in. */
  timeZone: string;
  /** Plain TIMESTAMP columns holding UTC instants from a zoned file (cells show +00:00). */
  utcColumns: readonly string[];
}

const TIMESTAMPTZ = /^TIMESTAMP WITH TIME ZONE$|^TIMESTAMPTZ$/i;

/**
 * A profile's min/max of an instant column is DuckDB's text for it ("2024-03-10 01:30:00+00" in
 * the session's UTC, or without offset for UTC-stored columns); the cells show the instant in the
 * user's zone, or with +00:00. Text that is not such a timestamp (years past 9999, infinity) stays.
 */
function instantText(v: CellValue, zone: string): CellValue {
  if (typeof v !== 'string') return v;
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(?:([+-]\d{2})(?::?(\d{2}))?)?$/.exec(v);
  if (!m) return v;
  const offset = m[3] ? `${m[3]}:${m[4] ?? '00'}` : 'Z';
  const ms = Date.parse(`${m[1]}T${m[2]!.slice(0, 12)}${offset}`);
  return Number.isNaN(ms) ? v : zonedTimestamp(ms, zone);
}

export function summaryFromProfile(columns: readonly ColumnInfo[], profile: DatasetProfile, instants?: InstantDisplay): (ColumnSummary | null)[] {
  const byName = new Map(profile.columns.map((p) => [p.name, p]));
  return columns.map((c) => {
    const p = byName.get(c.name);
    if (!p) return null;
    const s: ColumnSummary = { type: c.type, missing: p.nulls, rows: profile.rowCount };
    const zone = !instants ? undefined : TIMESTAMPTZ.test(c.type.trim()) ? instants.timeZone : instants.utcColumns.includes(c.name) ? 'UTC' : undefined;
    if (p.min !== undefined && p.max !== undefined && ordered(c.type)) {
      s.min = zone ? instantText(p.min, zone) : p.min;
      s.max = zone ? instantText(p.max, zone) : p.max;
    } else if (p.top?.[0]) s.top = { value: p.top[0].value, count: p.top[0].count };
    else if (p.min !== undefined && p.max !== undefined) {
      s.min = p.min;
      s.max = p.max;
    }
    return s;
  });
}

export function summarizeRows(columns: readonly ColumnInfo[], rows: readonly (readonly CellValue[])[]): ColumnSummary[] {
  return columns.map((col, c) => summarizeColumn(col, c, rows));
}

/**
 * `summarizeRows` in slices of about `sliceMs` with the event loop let through between columns, for
 * results of millions of cells; null when `stillWanted()` turns false (a newer result replaced it).
 * The first slice waits a turn too: it ran inside the task that drew the result (issue 37).
 */
export async function summarizeRowsSliced(
  columns: readonly ColumnInfo[],
  rows: readonly (readonly CellValue[])[],
  stillWanted: () => boolean,
  sliceMs = 30,
): Promise<ColumnSummary[] | null> {
  const out: ColumnSummary[] = [];
  await new Promise<void>((resolve) => setTimeout(resolve, 0));
  if (!stillWanted()) return null;
  let sliceStart = performance.now();
  for (let c = 0; c < columns.length; c++) {
    const col = columns[c];
    if (!col) continue;
    out.push(summarizeColumn(col, c, rows));
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      if (!stillWanted()) return null;
      sliceStart = performance.now();
    }
  }
  return stillWanted() ? out : null;
}

function summarizeColumn(col: ColumnInfo, c: number, rows: readonly (readonly CellValue[])[]): ColumnSummary {
  const s: ColumnSummary = { type: col.type, missing: 0, rows: rows.length };
  const isOrdered = ordered(col.type);
  const counts = new Map<string, number>();
  let min: CellValue | undefined;
  let max: CellValue | undefined;
  for (const row of rows) {
    const v = row[c];
    if (v === null || v === undefined) {
      s.missing++;
      continue;
    }
    if (isOrdered) {
      if (min === undefined || less(v, min)) min = v;
      if (max === undefined || less(max, v)) max = v;
    } else {
      const k = String(v);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  }
  if (min !== undefined && max !== undefined) {
    s.min = min;
    s.max = max;
  }
  let best: { value: string; count: number } | undefined;
  for (const [value, count] of counts) if (!best || count > best.count) best = { value, count };
  if (best) s.top = best;
  return s;
}

function less(a: CellValue, b: CellValue): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a < b;
  // ISO dates and times (how the decoder writes them) order as text.
  return String(a) < String(b);
}

const count = (n: number) => n.toLocaleString('en-US');

/** One line for the header, e.g. `DOUBLE · 2 missing · 1.5 – 30` or `VARCHAR · top Adelie (152)`. */
export function summaryText(s: ColumnSummary, format: ColumnFormat): string {
  const parts = [s.type.toUpperCase()];
  if (s.rows > 0) parts.push(s.missing === 0 ? 'none missing' : s.missing === s.rows ? 'all missing' : `${count(s.missing)} missing`);
  if (s.min !== undefined && s.max !== undefined) {
    const lo = formatCell(s.min, format);
    const hi = formatCell(s.max, format);
    parts.push(lo === hi ? lo : `${lo} – ${hi}`);
  } else if (s.top) parts.push(s.top.count > 1 ? `top ${clip(s.top.value)} (${count(s.top.count)})` : 'all distinct');
  return parts.join(' · ');
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 40 ? `${flat.slice(0, 39)}…` : flat;
}
