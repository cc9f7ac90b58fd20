/**
 * Turns an Arrow IPC stream from the data worker into plain rows the grid can show.
 * Loaded with dynamic `import()` by DataClient so apache-arrow stays out of the app shell.
 */
import { DataType, Precision, RecordBatchReader, TimeUnit, util, type Data, type Field, type RecordBatch } from 'apache-arrow';
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

const utf8 = new TextDecoder();

/** A column of fixed-width numbers, strings or booleans read straight from its buffers. */
function fastColumn(data: Data, rows: CellValue[][], base: number, c: number): boolean {
  const type = data.type as DataType;
  const n = data.length;
  const nulls = data.nullCount > 0;
  if (DataType.isInt(type) || (DataType.isFloat(type) && type.precision !== Precision.HALF)) {
    const values = data.values as ArrayLike<number | bigint>;
    for (let i = 0; i < n; i++) {
      const row = rows[base + i];
      if (!row) continue;
      if (nulls && !data.getValid(i)) {
        row[c] = null;
        continue;
      }
      const v = values[i] as number | bigint;
      if (typeof v === 'bigint') {
        const num = Number(v);
        row[c] = Number.isSafeInteger(num) ? num : v.toString();
      } else row[c] = v;
    }
    return true;
  }
  if (DataType.isUtf8(type)) {
    const offsets = data.valueOffsets as Int32Array;
    const bytes = data.values as Uint8Array;
    for (let i = 0; i < n; i++) {
      const row = rows[base + i];
      if (row) row[c] = nulls && !data.getValid(i) ? null : utf8.decode(bytes.subarray(offsets[i], offsets[i + 1]));
    }
    return true;
  }
  return false;
}

function decodeColumn(batch: RecordBatch, field: Field, c: number, rows: CellValue[][], base: number, options: DecodeOptions): void {
  const column = batch.getChildAt(c);
  if (!column) return;
  let at = base;
  for (const data of column.data) {
    // Arrow's generic reader costs ~1 µs a cell: 3 M cells of a wide result was a 1.5 s task.
    if (!fastColumn(data, rows, at, c)) {
      const cellOptions = { ...options, utc: options.utcColumns?.includes(field.name) ?? false };
      for (let i = 0; i < data.length; i++) {
        const row = rows[at + i];
        if (row) row[c] = toCell(data.getValid(i) ? column.get(at - base + i) : null, field.type, cellOptions);
      }
    }
    at += data.length;
  }
}

/** Reads the stream's record batches; each becomes `numRows` rows of `fields.length` cells. */
function* batchesOf(ipc: Uint8Array): Generator<{ fields: Field[]; batch: RecordBatch | null }> {
  const reader = RecordBatchReader.from(ipc);
  reader.open();
  let any = false;
  for (const batch of reader) {
    any = true;
    yield { fields: batch.schema.fields, batch };
  }
  if (!any) yield { fields: reader.schema?.fields ?? [], batch: null };
}

export function decodeIpc(ipc: Uint8Array, options: DecodeOptions = {}): { fields: Field[]; rows: CellValue[][] } {
  let fields: Field[] = [];
  const rows: CellValue[][] = [];
  for (const { fields: f, batch } of batchesOf(ipc)) {
    fields = f;
    if (!batch) continue;
    const base = rows.length;
    for (let r = 0; r < batch.numRows; r++) rows.push(new Array<CellValue>(fields.length));
    fields.forEach((field, c) => decodeColumn(batch, field, c, rows, base, options));
  }
  return { fields, rows };
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * `decodeIpc` on the page, in slices of about `sliceMs` of work with the event loop let through
 * between them (a batch, then a column at a time), so a wide or long result never holds the main
 * thread for the whole decode.
 */
export async function decodeIpcSliced(ipc: Uint8Array, options: DecodeOptions = {}, sliceMs = 40): Promise<{ fields: Field[]; rows: CellValue[][] }> {
  let fields: Field[] = [];
  const rows: CellValue[][] = [];
  let sliceStart = performance.now();
  const pause = async () => {
    if (performance.now() - sliceStart < sliceMs) return;
    await nextTask();
    sliceStart = performance.now();
  };
  for (const { fields: f, batch } of batchesOf(ipc)) {
    fields = f;
    if (!batch) continue;
    const base = rows.length;
    for (let r = 0; r < batch.numRows; r++) rows.push(new Array<CellValue>(fields.length));
    for (let c = 0; c < fields.length; c++) {
      const field = fields[c];
      if (field) decodeColumn(batch, field, c, rows, base, options);
      await pause();
    }
  }
  return { fields, rows };
}

export function decodeResult(result: QueryResult, options: DecodeOptions = {}): DecodedRows {
  const { rows } = decodeIpc(result.ipc, options);
  return { columns: result.columns, rows, rowCount: rows.length, truncated: result.truncated, elapsedMs: result.elapsedMs };
}

/** `decodeResult` in slices (`decodeIpcSliced`): for the page, where a big result must not freeze it. */
export async function decodeResultSliced(result: QueryResult, options: DecodeOptions = {}): Promise<DecodedRows> {
  const { rows } = await decodeIpcSliced(result.ipc, options);
  return { columns: result.columns, rows, rowCount: rows.length, truncated: result.truncated, elapsedMs: result.elapsedMs };
}
