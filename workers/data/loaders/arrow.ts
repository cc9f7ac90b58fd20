/**
 * Arrow IPC (file / Feather v2, or stream) → Arrow IPC streams of bounded size. The input is
 * already Arrow, so this only re-frames it: DuckDB-WASM ingests streams, not the file format.
 */
import {
  RecordBatch,
  RecordBatchReader,
  RecordBatchStreamWriter,
  Schema,
  Struct,
  Table,
  makeData,
  tableToIPC,
} from 'apache-arrow';
import { uniqueColumnNames } from './columnNames';
import type { ConvertOptions, ConvertedTable, Converter } from './types';
import { messageOf } from '../../../shared/errors';

/** Roughly this much Arrow data per IPC stream handed to DuckDB. */
const TARGET_STREAM_BYTES = 32 * 1024 * 1024;

function explain(error: unknown): Error {
  const message = messageOf(error);
  if (/compression/i.test(message)) {
    return new Error(
      'compressed Arrow IPC (LZ4/ZSTD buffers, the pyarrow Feather default) is not supported: ' +
        'save it with compression="uncompressed" or as Parquet',
      { cause: error },
    );
  }
  return new Error(`invalid or truncated Arrow IPC file: ${message}`, { cause: error });
}

function withNames(schema: Schema, names: readonly string[]): Schema {
  const fields = schema.fields.map((field, index) => field.clone({ name: names[index] ?? field.name }));
  return new Schema(fields, schema.metadata);
}

function rebatch(batch: RecordBatch, schema: Schema): RecordBatch {
  if (batch.schema === schema) return batch;
  const data = makeData({
    type: new Struct(schema.fields),
    length: batch.numRows,
    nullCount: 0,
    children: batch.data.children,
  });
  return new RecordBatch(schema, data);
}

/** Cuts an oversized batch into row ranges of about TARGET_STREAM_BYTES each. */
function* slices(batch: RecordBatch): Generator<RecordBatch> {
  const bytes = batch.data.byteLength;
  if (bytes <= TARGET_STREAM_BYTES || batch.numRows <= 1) {
    yield batch;
    return;
  }
  const rows = Math.max(1, Math.floor((batch.numRows * TARGET_STREAM_BYTES) / bytes));
  for (let start = 0; start < batch.numRows; start += rows) yield batch.slice(start, start + rows);
}

export const convertArrow: Converter = async (source: Blob, options: ConvertOptions): Promise<ConvertedTable[]> => {
  const bytes = new Uint8Array(await source.arrayBuffer());
  if (String.fromCharCode(...bytes.subarray(0, 4)) === 'FEA1') {
    throw new Error('Feather v1 files are not supported: save it again as Feather v2 (Arrow IPC) or Parquet');
  }
  let reader: RecordBatchReader;
  try {
    reader = RecordBatchReader.from(bytes);
    reader.open();
  } catch (error) {
    throw explain(error);
  }
  const original = reader.schema;
  if (!original) throw new Error('invalid Arrow IPC file: no schema found');
  const names = uniqueColumnNames(original.fields.map((field) => field.name));
  const schema = names.some((name, index) => name !== original.fields[index]?.name) ? withNames(original, names) : original;
  options.onProgress?.(0);

  async function* batches(): AsyncGenerator<Uint8Array> {
    let pending: RecordBatch[] = [];
    let pendingBytes = 0;
    let done = 0;
    let yielded = false;
    const flush = () => {
      const ipc = RecordBatchStreamWriter.writeAll(pending).toUint8Array(true);
      done += pendingBytes;
      pending = [];
      pendingBytes = 0;
      yielded = true;
      return ipc;
    };
    const iterator = reader[Symbol.iterator]();
    for (;;) {
      let next: IteratorResult<RecordBatch>;
      try {
        next = iterator.next();
      } catch (error) {
        throw explain(error);
      }
      if (next.done) break;
      for (const slice of slices(rebatch(next.value, schema))) {
        pending.push(slice);
        pendingBytes += slice.data.byteLength;
        if (pendingBytes >= TARGET_STREAM_BYTES) {
          yield flush();
          options.onProgress?.(Math.min(0.99, done / Math.max(1, bytes.byteLength)));
        }
      }
    }
    if (pending.length > 0) yield flush();
    // No batches at all still defines a table: hand DuckDB the bare schema.
    if (!yielded) yield tableToIPC(new Table(schema), 'stream');
    options.onProgress?.(1);
  }

  return [{ batches: batches() }];
};
