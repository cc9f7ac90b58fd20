/**
 * Turns an Arrow IPC stream from the data worker into plain rows the grid can show.
 * Loaded with dynamic `import()` by DataClient so apache-arrow stays out of the app shell.
 */
import { DataType, TimeUnit, tableFromIPC, util, type Field } from 'apache-arrow';
import type { ColumnInfo, QueryResult } from '../protocol/data';
import { zonedTimestamp } from './zonedTime';

export interface DecodeOptions {
  /** Where TIMESTAMP WITH TIME ZONE values are shown (IANA name); default UTC. Always with the offset. */
  timeZone?: string;
  /** Plain TIMESTAMP columns that hold UTC instants (converted from a zoned file): shown with +00:00. */
  utcColumns?: readonly string[];
}

/** What a grid cell holds: JSON-safe, display-ready. Large integers stay exact as strings. */
export type CellValue = string | number | boolean | null;

export interface DecodedRows {
  columns: ColumnInfo[];
  rows: CellValue[][];
  rowCount: number;
  truncated: boolean;
  elapsedMs: number;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function isoDate(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(ms) : `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

function isoTimestamp(ms: number): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return String(ms);
  const frac = d.getUTCMilliseconds() ? `.${pad(d.getUTCMilliseconds(), 3)}` : '';
  return `${isoDate(ms)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac}`;
}

function timeOfDay(value: number | bigint, unit: TimeUnit): string {
  const perSecond = unit === TimeUnit.SECOND ? 1 : unit === TimeUnit.MILLISECOND ? 1e3 : unit === TimeUnit.MICROSECOND ? 1e6 : 1e9;
  const seconds = Number(value) / perSecond;
  const whole = Math.floor(seconds);
  const frac = seconds - whole;
  const base = `${pad(Math.floor(whole / 3600))}:${pad(Math.floor((whole % 3600) / 60))}:${pad(whole % 60)}`;
  return frac > 0 ? `${base}.${pad(Math.round(frac * 1000), 3)}` : base;
}

function jsonOf(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : String(v)) : v));
}

/** One Arrow value → a grid cell, using the column's Arrow type to interpret numbers. */
export function toCell(value: unknown, type: DataType, options: DecodeOptions & { utc?: boolean } = {}): CellValue {
  if (value === null || value === undefined) return null;
  if (DataType.isTimestamp(type) && typeof value === 'number' && type.timezone) return zonedTimestamp(value, options.timeZone);
  if (DataType.isTimestamp(type) && typeof value === 'number' && options.utc) return zonedTimestamp(value, 'UTC');
  if (DataType.isDecimal(type)) return util.bigNumToNumber(value as Parameters<typeof util.bigNumToNumber>[0], type.scale);
  if (DataType.isDate(type) && typeof value === 'number') return isoDate(value);
  if (DataType.isTimestamp(type) && typeof value === 'number') return isoTimestamp(value);
  if (DataType.isTime(type) && (typeof value === 'number' || typeof value === 'bigint')) return timeOfDay(value, type.unit);
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Uint8Array) {
    const hex = Array.from(value.subarray(0, 32), (b) => b.toString(16).padStart(2, '0')).join('');
    return value.length > 32 ? `\\x${hex}…` : `\\x${hex}`;
  }
  return jsonOf(value);
}

export function decodeIpc(ipc: Uint8Array, options: DecodeOptions = {}): { fields: Field[]; rows: CellValue[][] } {
  const table = tableFromIPC(ipc);
  const fields = table.schema.fields;
  const rows: CellValue[][] = Array.from({ length: table.numRows }, () => new Array<CellValue>(fields.length));
  fields.forEach((field, c) => {
    const column = table.getChildAt(c);
    if (!column) return;
    const cellOptions = { ...options, utc: options.utcColumns?.includes(field.name) ?? false };
    let r = 0;
    for (const v of column) {
      const row = rows[r++];
      if (row) row[c] = toCell(v, field.type, cellOptions);
    }
  });
  return { fields, rows };
}

export function decodeResult(result: QueryResult, options: DecodeOptions = {}): DecodedRows {
  const { rows } = decodeIpc(result.ipc, options);
  return { columns: result.columns, rows, rowCount: rows.length, truncated: result.truncated, elapsedMs: result.elapsedMs };
}
