/**
 * Parquet → Arrow IPC streams via parquet-wasm (Rust; every common codec: snappy, gzip, brotli,
 * zstd, lz4). Reads record batches of bounded size straight from the Blob, so a large file is
 * never held whole in memory in either form.
 */
import { ParquetFile, RecordBatch as WasmRecordBatch } from 'parquet-wasm/esm';
import { uniqueColumnNames } from './columnNames';
import { errorText, initParquetWasm } from './parquetWasm';
import { ipcColumnNames, renameIpcColumns } from './renameIpc';
import type { ConvertOptions, ConvertedTable, Converter } from './types';

/** Aim for roughly this much uncompressed data per IPC stream handed to DuckDB. */
const TARGET_BATCH_BYTES = 64 * 1024 * 1024;
const MIN_BATCH_ROWS = 1024;
const MAX_BATCH_ROWS = 1024 * 1024;

function corrupt(detail: string, cause?: unknown): Error {
  return new Error(`truncated or corrupt Parquet file: ${detail}`, { cause });
}

/** Cheap framing check first: the wasm reader's own errors on a cut-short file are cryptic. */
async function checkFraming(source: Blob): Promise<void> {
  if (source.size < 12) throw corrupt(`only ${source.size} bytes, smaller than the Parquet header and footer`);
  const head = new Uint8Array(await source.slice(0, 4).arrayBuffer());
  const tail = new Uint8Array(await source.slice(source.size - 8).arrayBuffer());
  const magic = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4)) === 'PAR1';
  if (!magic(head, 0)) throw corrupt('it does not start with the PAR1 magic bytes (is it really Parquet?)');
  if (!magic(tail, 4)) throw corrupt('the PAR1 footer is missing at the end (the file looks cut short)');
  const footerLength = new DataView(tail.buffer, tail.byteOffset).getUint32(0, true);
  if (footerLength + 12 > source.size) {
    throw corrupt(`its footer claims ${footerLength} bytes but the file has only ${source.size}`);
  }
}

function batchRows(file: ParquetFile): number {
  const groups = file.metadata().rowGroups();
  let rows = 0;
  let bytes = 0;
  for (const group of groups) {
    rows += group.numRows();
    bytes += group.totalByteSize();
  }
  const perRow = rows > 0 ? Math.max(1, bytes / rows) : 1;
  return Math.min(MAX_BATCH_ROWS, Math.max(MIN_BATCH_ROWS, Math.floor(TARGET_BATCH_BYTES / perRow)));
}

export const convertParquet: Converter = async (source: Blob, options: ConvertOptions): Promise<ConvertedTable[]> => {
  await initParquetWasm();
  await checkFraming(source);
  let file: ParquetFile;
  let schemaIpc: Uint8Array;
  try {
    file = await ParquetFile.fromFile(source);
    schemaIpc = file.schema().intoIPCStream();
  } catch (error) {
    throw corrupt(errorText(error), error);
  }
  const totalRows = file.metadata().fileMetadata().numRows();
  const original = ipcColumnNames(schemaIpc);
  const names = uniqueColumnNames(original);
  const renamed = names.some((name, index) => name !== original[index]);
  const finish = (ipc: Uint8Array) => (renamed ? renameIpcColumns(ipc, names) : ipc);
  const batchSize = options.batchRows ?? batchRows(file);
  options.onProgress?.(0);

  async function* batches(): AsyncGenerator<Uint8Array> {
    let stream: ReadableStream<unknown>;
    try {
      stream = await file.stream({ batchSize });
    } catch (error) {
      file.free();
      throw corrupt(errorText(error), error);
    }
    const reader = stream.getReader();
    let rows = 0;
    let yielded = false;
    try {
      for (;;) {
        let next: ReadableStreamReadResult<unknown>;
        try {
          next = await reader.read();
        } catch (error) {
          throw corrupt(errorText(error), error);
        }
        if (next.done) break;
        if (!(next.value instanceof WasmRecordBatch)) throw new Error('parquet-wasm yielded something other than a record batch');
        rows += next.value.numRows;
        yield finish(next.value.intoIPCStream());
        yielded = true;
        options.onProgress?.(totalRows > 0 ? Math.min(1, rows / totalRows) : 1);
      }
      // A file with no rows still defines a table: hand DuckDB the bare schema.
      if (!yielded) yield finish(schemaIpc);
      options.onProgress?.(1);
    } finally {
      await reader.cancel().catch(() => undefined);
      file.free();
    }
  }

  return [{ batches: batches() }];
};
