/**
 * Typed Arrow columns from loosely typed JS values (parsed JSON, spreadsheet cells): one pass
 * decides each column's type, then rows are encoded batch by batch as self-contained IPC streams.
 */
import {
  Bool,
  DateDay,
  Field,
  Float64,
  Int64,
  List,
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

export type ColumnKind = 'bool' | 'int' | 'float' | 'timestamp' | 'date' | 'string' | 'struct' | 'list';

/** A column's type; `struct` has `fields`, `list` has `element` (JSON objects and arrays). */
export interface ColumnType {
  kind: ColumnKind;
  /** A timestamp column some of whose strings had a time zone (stored as UTC). */
  zoned?: boolean;
  fields?: { name: string; type: ColumnType }[];
  element?: ColumnType;
}

export interface ColumnPlan extends ColumnType {
  name: string;
}

export interface TrackerOptions {
  /** Objects become STRUCT and arrays LIST columns (else JSON text). */
  nested?: boolean;
  /** ISO-8601 dates and zone-less timestamps in strings become DATE / TIMESTAMP, as DuckDB's read_json types them. */
  isoStrings?: boolean;
}

/**
 * Past this many distinct keys an object is a dictionary, not a record: as a column it stays
 * JSON text, and as a whole document it loads one row per key (json.ts).
 */
export const MAX_STRUCT_FIELDS = 1_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?$/;
/** With a zone (`Z`, `+02:00`): DuckDB's read_json reads these as TIMESTAMP holding the UTC instant. */
const ISO_ZONED_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:\d{2})$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Watches one column's values and settles on the narrowest type that holds them all. */
export class KindTracker {
  private bool = false;
  private int = false;
  private float = false;
  private date = false;
  private text = false;
  private strings = false;
  private allIsoDates = true;
  private allIsoTimestamps = true;
  /** How the timestamp strings give their zone: none, `Z`, or an offset. read_json takes one per column. */
  private zoneStyles = new Set<'none' | 'Z' | 'offset'>();
  private fields: Map<string, KindTracker> | null = null;
  private element: KindTracker | null = null;

  constructor(private readonly options: TrackerOptions = {}) {}

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
      case 'string':
        this.strings = true;
        if (this.options.isoStrings && (this.allIsoDates || this.allIsoTimestamps)) {
          const date = ISO_DATE.test(value);
          if (!date) this.allIsoDates = false;
          const zoned = !date && ISO_ZONED_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value.replace(' ', 'T')));
          if (!date) this.zoneStyles.add(zoned ? (value.endsWith('Z') ? 'Z' : 'offset') : 'none');
          if (!date && !zoned && !(ISO_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(`${value.replace(' ', 'T')}Z`)))) this.allIsoTimestamps = false;
        }
        return;
      default:
        if (value instanceof Date) this.date = true;
        else if (this.options.nested && Array.isArray(value)) {
          this.element ??= new KindTracker(this.options);
          for (const item of value) this.element.observe(item);
        } else if (this.options.nested && isPlainObject(value)) {
          this.fields ??= new Map();
          for (const [key, child] of Object.entries(value)) {
            let tracker = this.fields.get(key);
            if (!tracker) {
              tracker = new KindTracker(this.options);
              this.fields.set(key, tracker);
            }
            tracker.observe(child);
          }
        } else this.text = true;
    }
  }

  get type(): ColumnType {
    const numeric = this.int || this.float;
    const families = Number(this.bool) + Number(numeric) + Number(this.date) + Number(this.strings) + Number(this.fields !== null) + Number(this.element !== null);
    // Mixed families (say 1 and true) cannot share a typed column without losing what was written.
    if (this.text || families > 1) return { kind: 'string' };
    if (this.bool) return { kind: 'bool' };
    if (this.date) return { kind: 'timestamp' };
    if (this.float) return { kind: 'float' };
    if (this.int) return { kind: 'int' };
    if (this.strings) {
      if (this.options.isoStrings && this.allIsoDates) return { kind: 'date' };
      if (this.options.isoStrings && this.allIsoTimestamps && this.zoneStyles.size <= 1) {
        return this.zoneStyles.has('none') || this.zoneStyles.size === 0 ? { kind: 'timestamp' } : { kind: 'timestamp', zoned: true };
      }
      return { kind: 'string' };
    }
    if (this.fields) {
      if (this.fields.size === 0 || this.fields.size > MAX_STRUCT_FIELDS) return { kind: 'string' };
      return { kind: 'struct', fields: [...this.fields].map(([name, t]) => ({ name, type: t.type })) };
    }
    if (this.element) return { kind: 'list', element: this.element.type };
    return { kind: 'string' };
  }

  get kind(): ColumnKind {
    return this.type.kind;
  }

  /** The kinds of value the column held, in words (the load report names a column that mixes them). */
  get families(): ValueFamily[] {
    const out: ValueFamily[] = [];
    if (this.int || this.float) out.push('numbers');
    if (this.bool) out.push('true/false values');
    if (this.date) out.push('dates');
    if (this.strings || this.text) out.push('text');
    if (this.fields) out.push('objects');
    if (this.element) out.push('lists');
    return out;
  }
}

export type ValueFamily = 'numbers' | 'true/false values' | 'dates' | 'text' | 'objects' | 'lists';

/**
 * Columns read as text because their values were of several kinds. Numbers mixed with text are
 * left to the value checks (tableChecks.ts), which can tell placeholders from stray strings.
 */
export function mixedColumns(plan: readonly ColumnPlan[], families: readonly ValueFamily[][]): { column: string; families: ValueFamily[] }[] {
  return plan.flatMap((p, i) => {
    const f = families[i] ?? [];
    const numbersAndText = f.length === 2 && f.includes('numbers') && f.includes('text');
    return p.kind === 'string' && f.length > 1 && !numbersAndText ? [{ column: p.name, families: f }] : [];
  });
}

function arrowType(type: ColumnType): DataType {
  switch (type.kind) {
    case 'bool':
      return new Bool();
    case 'int':
      return new Int64();
    case 'float':
      return new Float64();
    case 'timestamp':
      // Microseconds: DuckDB's plain TIMESTAMP (milliseconds would become TIMESTAMP_MS).
      return new TimestampMicrosecond();
    case 'date':
      return new DateDay();
    case 'string':
      return new Utf8();
    case 'struct':
      return new Struct((type.fields ?? []).map((f) => new Field(f.name, arrowType(f.type), true)));
    case 'list':
      return new List(new Field('element', arrowType(type.element ?? { kind: 'string' }), true));
  }
}

/** Epoch milliseconds of an ISO date or zone-less timestamp, read as UTC wall time; or of a Date. */
function epochMs(value: unknown): number | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  if (typeof value !== 'string') return null;
  const ms = Date.parse(ISO_DATE.test(value) ? `${value}T00:00:00Z` : ISO_ZONED_TIMESTAMP.test(value) ? value.replace(' ', 'T') : `${value.replace(' ', 'T')}Z`);
  return Number.isNaN(ms) ? null : ms;
}

/** A value in the shape the Arrow builder of `type` appends. */
function builderValue(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type.kind) {
    case 'string':
      return asText(value);
    case 'int':
      return typeof value === 'bigint' ? value : typeof value === 'number' && Number.isFinite(value) ? BigInt(Math.trunc(value)) : null;
    case 'date': {
      const ms = epochMs(value);
      return ms === null ? null : new Date(ms);
    }
    case 'timestamp':
      return epochMs(value);
    case 'struct': {
      if (!isPlainObject(value)) return null;
      const out: Record<string, unknown> = {};
      for (const f of type.fields ?? []) out[f.name] = builderValue(f.type, value[f.name]);
      return out;
    }
    case 'list':
      return Array.isArray(value) ? value.map((v) => builderValue(type.element ?? { kind: 'string' }, v)) : null;
    default:
      return value;
  }
}

/** Text form of a value in a column that had to fall back to strings. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
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
    const ms = kind === 'timestamp' ? epochMs(raw) : null;
    const value = ms !== null ? ms * 1000 : kind === 'timestamp' ? null : raw;
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
  return new Schema(plan.map((column) => new Field(column.name, arrowType(column), true)));
}

/**
 * Arrow builds its null check with `new Function` when given `nullValues`, which the data
 * worker's content security policy (no 'unsafe-eval') refuses: the same check, as a closure.
 */
function withNullCheck<B extends object>(builder: B): B {
  const b = builder as unknown as { _isValid: (value: unknown) => boolean; children?: object[] };
  b._isValid = (value) => value !== null && value !== undefined;
  // Nested builders (STRUCT fields, LIST elements) each check their own values.
  for (const child of b.children ?? []) withNullCheck(child);
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
    const builder = withNullCheck(makeBuilder({ type: arrowType(column), nullValues: [] }));
    for (const row of rows) builder.append(builderValue(column, cell(row, index)));
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
