/**
 * JSON → Arrow IPC streams with inferred column types. Accepts a top-level array of objects,
 * NDJSON (one object per line) or a single object (one row, or its one array of objects when
 * that is plainly the table, or one row per key when it has more keys than a table has columns).
 * Objects become STRUCT and arrays LIST columns (JSON text when their values disagree), ISO
 * dates and timestamps DATE / TIMESTAMP as DuckDB's read_json types them (a time zone's offset
 * applied: the TIMESTAMP holds the UTC instant); missing keys
 * become nulls.
 */
import { uniqueColumnNames } from './columnNames';
import { KindTracker, MAX_STRUCT_FIELDS, mixedColumns, rowsToIPC, type ColumnPlan } from './inferredColumns';
import { jsonErrorAt } from './jsonErrors';
import { textLines } from './textLines';
import type { ConvertOptions, ConvertedTable, Converter, MixedColumn } from './types';

type JsonRecord = Record<string, unknown>;

/** Rows per IPC stream: bounded memory for NDJSON, few enough inserts for DuckDB. */
const BATCH_ROWS = 50_000;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Non-object rows (say `[1, 2, 3]`) become a single `value` column. */
function asRecord(value: unknown): JsonRecord {
  return isRecord(value) ? value : { value };
}

/** Column order is first-seen order across all rows; each column's type fits all its values. */
class SchemaInference {
  private readonly trackers = new Map<string, KindTracker>();

  observe(record: JsonRecord): void {
    for (const key of Object.keys(record)) {
      let tracker = this.trackers.get(key);
      if (!tracker) {
        tracker = new KindTracker({ nested: true, isoStrings: true });
        this.trackers.set(key, tracker);
      }
      tracker.observe(record[key]);
    }
  }

  plan(): { keys: string[]; plan: ColumnPlan[]; mixed: MixedColumn[] } {
    const keys = [...this.trackers.keys()];
    if (keys.length === 0) throw new Error('the JSON holds no records with fields to load');
    const names = uniqueColumnNames(keys);
    const plan = keys.map((key, index) => ({ name: names[index] ?? key, ...this.trackers.get(key)!.type }));
    // Fields whose values were of several kinds across records: the load report names them.
    const mixed = mixedColumns(plan, keys.map((key) => this.trackers.get(key)!.families));
    return { keys, plan, mixed };
  }
}

/** Timestamp columns whose strings had time zones: stored as UTC, and the load report says so. */
function utcColumnsOf(plan: readonly ColumnPlan[]): { utcColumns?: string[] } {
  const zoned = plan.filter((p) => p.kind === 'timestamp' && p.zoned).map((p) => p.name);
  return zoned.length > 0 ? { utcColumns: zoned } : {};
}

function encoder(keys: readonly string[], plan: readonly ColumnPlan[]) {
  return (rows: readonly JsonRecord[]) =>
    rowsToIPC(plan, rows, (row, column) => (Object.hasOwn(row, keys[column]!) ? row[keys[column]!] : null));
}

/** One row per key: `key` then the entry's fields when every entry is an object, else `value`. */
function dictionaryRecords(value: JsonRecord): JsonRecord[] {
  const entries = Object.entries(value);
  const nested = entries.every(([, v]) => isRecord(v));
  return entries.map(([key, v]) => (nested ? { key, ...(v as JsonRecord) } : { key, value: v }));
}

/** The rows of a parsed JSON document. */
function documentRecords(value: unknown): JsonRecord[] {
  if (Array.isArray(value)) return value.map(asRecord);
  if (isRecord(value)) {
    const tables = Object.values(value).filter(
      (child): child is unknown[] => Array.isArray(child) && child.length > 0 && child.every(isRecord),
    );
    if (tables.length === 1) return tables[0]!.map(asRecord);
    // A row of a million columns would hang the engine: a dictionary loads one row per key.
    if (Object.keys(value).length > MAX_STRUCT_FIELDS) return dictionaryRecords(value);
    return [value];
  }
  return [{ value }];
}

/** NDJSON when the first line is a whole JSON object and another line follows. */
async function looksLikeNdjson(source: Blob): Promise<boolean> {
  // Peek first: a document starting with `[` may be one enormous line not worth splitting.
  const head = (await source.slice(0, 1024).text()).replace(/^\uFEFF/, '').trimStart();
  if (!head.startsWith('{')) return false;
  let first: string | undefined;
  for await (const line of textLines(source)) {
    const text = line.text.trim();
    if (text === '') continue;
    if (first !== undefined) return true;
    if (!text.startsWith('{')) return false;
    try {
      if (!isRecord(JSON.parse(text))) return false;
    } catch {
      return false;
    }
    first = text;
  }
  return false;
}

async function convertDocument(source: Blob, options: ConvertOptions): Promise<ConvertedTable[]> {
  options.onProgress?.(0);
  const text = (await source.text()).replace(/^\uFEFF/, '');
  options.onProgress?.(0.2);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const where = jsonErrorAt(text, error);
    throw new Error(where.startsWith('line ') ? `invalid JSON at ${where}` : `invalid JSON: ${where}`, { cause: error });
  }
  options.onProgress?.(0.4);
  const records = documentRecords(value);
  const inference = new SchemaInference();
  for (const record of records) inference.observe(record);
  const { keys, plan, mixed } = inference.plan();
  const encode = encoder(keys, plan);

  async function* batches(): AsyncGenerator<Uint8Array> {
    for (let start = 0; start < records.length; start += BATCH_ROWS) {
      yield encode(records.slice(start, start + BATCH_ROWS));
      options.onProgress?.(0.4 + 0.6 * Math.min(1, (start + BATCH_ROWS) / records.length));
    }
    options.onProgress?.(1);
  }
  return [{ batches: batches(), ...utcColumnsOf(plan), ...(mixed.length > 0 ? { mixed } : {}) }];
}

async function* ndjsonRecords(source: Blob): AsyncGenerator<{ record: JsonRecord; bytesRead: number }> {
  for await (const line of textLines(source)) {
    const text = line.number === 1 ? line.text.replace(/^\uFEFF/, '') : line.text;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const where = jsonErrorAt(text, error).replace(/^line 1, /, '');
      const detail = where.startsWith('column ') ? `, ${where}` : `: ${where}`;
      throw new Error(`invalid JSON on line ${line.number}${detail}`, { cause: error });
    }
    yield { record: asRecord(value), bytesRead: line.bytesRead };
  }
}

/** Two passes over the lines: the first settles the schema, the second encodes in batches. */
async function convertNdjson(source: Blob, options: ConvertOptions): Promise<ConvertedTable[]> {
  const size = Math.max(1, source.size);
  const inference = new SchemaInference();
  let lastReported = 0;
  const report = (fraction: number) => {
    // One call per ~1% keeps the worker's message traffic small on big files.
    if (fraction - lastReported >= 0.01 || fraction === 1) {
      lastReported = fraction;
      options.onProgress?.(fraction);
    }
  };
  options.onProgress?.(0);
  for await (const { record, bytesRead } of ndjsonRecords(source)) {
    inference.observe(record);
    report(0.5 * (bytesRead / size));
  }
  const { keys, plan, mixed } = inference.plan();
  const encode = encoder(keys, plan);

  async function* batches(): AsyncGenerator<Uint8Array> {
    let rows: JsonRecord[] = [];
    for await (const { record, bytesRead } of ndjsonRecords(source)) {
      rows.push(record);
      if (rows.length >= BATCH_ROWS) {
        yield encode(rows);
        rows = [];
        report(0.5 + 0.5 * (bytesRead / size));
      }
    }
    if (rows.length > 0) yield encode(rows);
    report(1);
  }
  return [{ batches: batches(), ...utcColumnsOf(plan), ...(mixed.length > 0 ? { mixed } : {}) }];
}

export const convertJson: Converter = async (source: Blob, options: ConvertOptions): Promise<ConvertedTable[]> =>
  (await looksLikeNdjson(source)) ? convertNdjson(source, options) : convertDocument(source, options);
