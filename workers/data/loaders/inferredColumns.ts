/**
 * Typed Arrow columns from loosely typed JS values (parsed JSON, spreadsheet cells): one pass
 * decides each column's type, then rows are encoded batch by batch as self-contained IPC streams.
 */
import {
  Bool,
  Field,
  Float64,
  Int64,
  RecordBatch,
  Schema,
  Struct,
  Table,
  TimestampMicrosecond,
  Utf8,
  makeBuilder,
  makeData,
  tableToIPC,
  type Data,
  type DataType,
} from 'apache-arrow';

export type ColumnKind = 'bool' | 'int' | 'float' | 'timestamp' | 'string';

export interface ColumnPlan {
  name: string;
  kind: ColumnKind;
}

/** Watches one column's values and settles on the narrowest type that holds them all. */
export class KindTracker {
  private bool = false;
  private int = false;
  private float = false;
  private date = false;
  private text = false;

  observe(value: unknown): void {
    if (value === null || value === undefined) return;
    switch (typeof value) {
      case 'boolean':
        this.bool = true;
        return;
      case 'number':
        if (Number.isSafeInteger(value)) this.int = true;
        else this.float = true;
        return;
      case 'bigint':
        this.int = true;
        return;
      default:
        if (value instanceof Date) this.date = true;
        else this.text = true;
    }
  }

  get kind(): ColumnKind {
    const numeric = this.int || this.float;
    const families = Number(this.bool) + Number(numeric) + Number(this.date);
    // Mixed families (say 1 and true) cannot share a typed column without losing what was written.
    if (this.text || families > 1) return 'string';
    if (this.bool) return 'bool';
    if (this.date) return 'timestamp';
    if (this.float) return 'float';
    if (this.int) return 'int';
    return 'string';
  }
}

function arrowType(kind: ColumnKind): DataType {
  switch (kind) {
    case 'bool':
      return new Bool();
    case 'int':
      return new Int64();
    case 'float':
      return new Float64();
    case 'timestamp':
      // Microseconds: DuckDB's plain TIMESTAMP (milliseconds would become TIMESTAMP_MS).
      return new TimestampMicrosecond();
    case 'string':
      return new Utf8();
  }
}

/** Text form of a value in a column that had to fall back to strings. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function encode(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'string':
      return asText(value);
    default:
      return value;
  }
}

/** Validity bitmap (bit set = value present) and null count for a column's raw values. */
function validity(values: readonly unknown[]): { nullBitmap: Uint8Array; nullCount: number } {
  const nullBitmap = new Uint8Array(Math.ceil(values.length / 8));
  let nullCount = 0;
  values.forEach((value, i) => {
    if (value === null || value === undefined) nullCount++;
    else nullBitmap[i >> 3]! |= 1 << (i & 7);
  });
  return { nullBitmap, nullCount };
}

/**
 * Numbers go straight into typed arrays: the generic builders cost several times more on the
 * hundreds of thousands of rows a JSON file easily has.
 */
function numericData(kind: 'int' | 'float' | 'timestamp', values: readonly unknown[]): Data {
  const { nullBitmap, nullCount } = validity(values);
  if (kind === 'float') {
    const data = new Float64Array(values.length);
    values.forEach((value, i) => {
      if (typeof value === 'number') data[i] = value;
    });
    return makeData({ type: new Float64(), length: values.length, nullCount, nullBitmap, data });
  }
  const data = new BigInt64Array(values.length);
  // Safe integers are written as two little-endian 32-bit halves, avoiding a BigInt per value.
  const halves = new Int32Array(data.buffer);
  values.forEach((raw, i) => {
    const value = raw instanceof Date ? raw.getTime() * 1000 : raw;
    if (typeof value === 'bigint') data[i] = value;
    else if (typeof value === 'number' && Number.isSafeInteger(value)) {
      const high = Math.floor(value / 4294967296);
      halves[2 * i] = value - high * 4294967296;
      halves[2 * i + 1] = high;
    } else if (typeof value === 'number' && Number.isFinite(value)) {
      data[i] = BigInt(Math.trunc(value));
    }
  });
  return kind === 'timestamp'
    ? makeData({ type: new TimestampMicrosecond(), length: values.length, nullCount, nullBitmap, data })
    : makeData({ type: new Int64(), length: values.length, nullCount, nullBitmap, data });
}

export function planSchema(plan: readonly ColumnPlan[]): Schema {
  return new Schema(plan.map((column) => new Field(column.name, arrowType(column.kind), true)));
}

/**
 * Arrow builds its null check with `new Function` when given `nullValues`, which the data
 * worker's content security policy (no 'unsafe-eval') refuses: the same check, as a closure.
 */
function withNullCheck<B extends object>(builder: B): B {
  (builder as unknown as { _isValid: (value: unknown) => boolean })._isValid = (value) => value !== null;
  return builder;
}

/**
 * One Arrow IPC stream (schema, one record batch, end marker) holding `rows`; zero rows still
 * give a valid stream, so an empty sheet or file can create its table.
 */
export function rowsToIPC<Row>(
  plan: readonly ColumnPlan[],
  rows: readonly Row[],
  cell: (row: Row, column: number) => unknown,
): Uint8Array {
  const schema = planSchema(plan);
  const children = plan.map((column, index): Data => {
    if (column.kind === 'int' || column.kind === 'float' || column.kind === 'timestamp') {
      return numericData(column.kind, rows.map((row) => cell(row, index)));
    }
    const builder = withNullCheck(makeBuilder({ type: arrowType(column.kind), nullValues: [] }));
    for (const row of rows) builder.append(encode(column.kind, cell(row, index)));
    return builder.finish().flush();
  });
  const data = makeData({
    type: new Struct(schema.fields),
    length: rows.length,
    nullCount: 0,
    children,
  });
  return tableToIPC(new Table(schema, [new RecordBatch(schema, data)]), 'stream');
}
