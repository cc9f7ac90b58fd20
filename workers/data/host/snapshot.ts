/**
 * Columnar snapshots of datasets, so opening the app restores tables at Arrow-insert speed
 * instead of parsing every saved source again, and SQL edits to a dataset survive a reload.
 *
 * A snapshot is a run of frames, each an 8-byte little-endian length and one self-contained
 * Arrow IPC stream of up to `FRAME_ROWS` rows: written batch by batch from DuckDB's own result
 * stream, read back frame by frame, so neither side holds the whole table as one buffer.
 */
import { RecordBatchStreamWriter, Table, tableToIPC, type RecordBatch } from 'apache-arrow';
import type { ColumnInfo } from '../../../protocol/data';
import { quoteIdent } from '../../../shared/sql';
import { columnTypes } from '../engine/catalog';
import type { Engine } from '../engine/duckdbEngine';

/** Rows per frame: big enough that a frame's overhead is nothing, small enough to stay in memory. */
export const FRAME_ROWS = 200_000;
const HEADER_BYTES = 8;

function header(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(HEADER_BYTES);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(length), true);
  return bytes;
}

/**
 * Types the engine's results turn into doubles (its query options cast 64-bit integers and
 * decimals so the page gets plain numbers): saved as their exact text instead, and cast back.
 */
const EXACT_AS_TEXT = /^(BIGINT|UBIGINT|HUGEINT|UHUGEINT|DECIMAL\b.*)$/;

/** The table as snapshot bytes (run inside the engine's serial queue: it streams a result). */
export async function writeSnapshot(engine: Engine, table: string, columns: ColumnInfo[]): Promise<Blob> {
  const select = columns.map((c) => (EXACT_AS_TEXT.test(c.type) ? `CAST(${quoteIdent(c.name)} AS VARCHAR) AS ${quoteIdent(c.name)}` : quoteIdent(c.name))).join(', ');
  const result = await engine.send(`SELECT ${select || '*'} FROM ${quoteIdent(table)}`);
  const parts: BlobPart[] = [];
  let pending: RecordBatch[] = [];
  let rows = 0;
  const flush = () => {
    const ipc = RecordBatchStreamWriter.writeAll(pending).toUint8Array(true);
    parts.push(header(ipc.byteLength), ipc as Uint8Array<ArrayBuffer>);
    pending = [];
    rows = 0;
  };
  for await (const batch of result.batches) {
    pending.push(batch);
    rows += batch.numRows;
    if (rows >= FRAME_ROWS) flush();
  }
  if (pending.length > 0) flush();
  if (parts.length === 0) {
    // No rows: the schema alone, so the restored table has its columns.
    const ipc = tableToIPC(new Table(result.schema), 'stream');
    parts.push(header(ipc.byteLength), ipc as Uint8Array<ArrayBuffer>);
  }
  return new Blob(parts);
}

async function* frames(blob: Blob): AsyncGenerator<Uint8Array> {
  let offset = 0;
  while (offset < blob.size) {
    const head = new DataView(await blob.slice(offset, offset + HEADER_BYTES).arrayBuffer());
    if (head.byteLength < HEADER_BYTES) throw new Error('the snapshot is cut short');
    const length = Number(head.getBigUint64(0, true));
    const start = offset + HEADER_BYTES;
    if (start + length > blob.size) throw new Error('the snapshot is cut short');
    yield new Uint8Array(await blob.slice(start, start + length).arrayBuffer());
    offset = start + length;
  }
}

/**
 * Makes `table` from a snapshot, with exactly the column types it was saved with: Arrow carries
 * most DuckDB types as they are, and the few it widens or renames (ENUM as VARCHAR, exact text
 * for BIGINT and DECIMAL…) are cast back through `scratch`. A failure leaves neither table.
 * Few round trips (start-up restores many tables): the inserts, one look at the types, and only
 * when they differ, the cast.
 */
export async function restoreSnapshot(engine: Engine, blob: Blob, table: string, columns: ColumnInfo[], scratch: string): Promise<void> {
  try {
    let first = true;
    for await (const ipc of frames(blob)) {
      await engine.insertArrowStream(ipc, table, first);
      first = false;
    }
    if (first) throw new Error('the snapshot is empty');
    const got = await columnTypes(engine, table);
    const same = got.length === columns.length && got.every((c, i) => c.name === columns[i]?.name && c.type === columns[i]?.type);
    if (same) return;
    if (got.length !== columns.length || got.some((c, i) => c.name !== columns[i]?.name)) throw new Error('the snapshot has other columns than the dataset');
    const select = columns.map((c) => `CAST(${quoteIdent(c.name)} AS ${c.type}) AS ${quoteIdent(c.name)}`).join(', ');
    await engine.query(`ALTER TABLE ${quoteIdent(table)} RENAME TO ${quoteIdent(scratch)}`);
    await engine.query(`CREATE TABLE ${quoteIdent(table)} AS SELECT ${select} FROM ${quoteIdent(scratch)}`);
    await engine.query(`DROP TABLE ${quoteIdent(scratch)}`);
  } catch (e) {
    await engine.query(`DROP TABLE IF EXISTS ${quoteIdent(table)}`).catch(() => undefined);
    await engine.query(`DROP TABLE IF EXISTS ${quoteIdent(scratch)}`).catch(() => undefined);
    throw e;
  }
}
