/**
 * Decodes a query's Arrow IPC stream into columns Python converts cheaply: numeric columns with
 * no nulls stay typed arrays (a memoryview on the Python side), everything else becomes a plain
 * array with `undefined` for null (Python `None`).
 */
import { DataType, tableFromIPC, type Vector } from 'apache-arrow';

export type ColumnValues = ArrayLike<unknown>;

export interface DecodedColumns {
  columns: string[];
  types: string[];
  values: ColumnValues[];
  rowCount: number;
}

function iso(v: unknown, dateOnly: boolean): string | undefined {
  if (v === null || v === undefined) return undefined;
  const d = v instanceof Date ? v : new Date(typeof v === 'bigint' ? Number(v) : (v as number));
  if (Number.isNaN(d.getTime())) return String(v);
  const s = d.toISOString();
  return dateOnly ? s.slice(0, 10) : s;
}

function plain(v: unknown): unknown {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'object' && 'toJSON' in v && typeof v.toJSON === 'function') return (v as { toJSON(): unknown }).toJSON();
  return v;
}

const INTEGER_TYPE = /^U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)$/i;

/**
 * DuckDB integers that crossed as doubles (the data worker casts BIGINT for JSON's sake) go back
 * to integers, so Python sees `168`, not `168.0`.
 */
function integerValues(vector: Vector): ColumnValues {
  const out = new Array<unknown>(vector.length);
  let int32 = vector.nullCount === 0;
  for (let i = 0; i < vector.length; i++) {
    const v: unknown = vector.get(i);
    if (v === null || v === undefined) {
      out[i] = undefined;
      continue;
    }
    const n = Math.round(Number(v));
    if (n !== (n | 0)) int32 = false;
    out[i] = n;
  }
  return int32 ? Int32Array.from(out as number[]) : out;
}

function columnValues(vector: Vector, duckdbType: string | undefined): ColumnValues {
  const type = vector.type as DataType;
  if (DataType.isFloat(type) && duckdbType !== undefined && INTEGER_TYPE.test(duckdbType)) return integerValues(vector);
  if ((DataType.isFloat(type) || DataType.isInt(type)) && vector.nullCount === 0) {
    return vector.toArray() as ColumnValues;
  }
  const out = new Array<unknown>(vector.length);
  if (DataType.isDate(type) || DataType.isTimestamp(type)) {
    const dateOnly = DataType.isDate(type);
    for (let i = 0; i < vector.length; i++) out[i] = iso(vector.get(i), dateOnly);
    return out;
  }
  for (let i = 0; i < vector.length; i++) out[i] = plain(vector.get(i));
  return out;
}

/** `types` are DuckDB's names when known (from the query result), else Arrow's. */
export function decodeColumns(ipc: Uint8Array, duckdbTypes: string[] = []): DecodedColumns {
  const table = tableFromIPC(ipc);
  const fields = table.schema.fields;
  const values: ColumnValues[] = [];
  for (let i = 0; i < fields.length; i++) {
    const vector = table.getChildAt(i);
    values.push(vector ? columnValues(vector, duckdbTypes[i]) : new Array<unknown>(table.numRows));
  }
  return {
    columns: fields.map((f) => f.name),
    types: fields.map((f, i) => duckdbTypes[i] ?? String(f.type)),
    values,
    rowCount: table.numRows,
  };
}
