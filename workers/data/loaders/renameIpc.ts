/**
 * Renames the columns of an Arrow IPC stream without touching its data buffers, for the rare
 * file whose own names are blank or clash (DuckDB would reject the table otherwise).
 */
import { RecordBatch, Schema, Struct, Table, makeData, tableFromIPC, tableToIPC } from 'apache-arrow';

export function renameIpcColumns(ipc: Uint8Array, names: readonly string[]): Uint8Array {
  const table = tableFromIPC(ipc);
  const fields = table.schema.fields.map((field, index) => field.clone({ name: names[index] ?? field.name }));
  const schema = new Schema(fields, table.schema.metadata);
  const batches = table.batches.map(
    (batch) =>
      new RecordBatch(
        schema,
        makeData({ type: new Struct(fields), length: batch.numRows, nullCount: 0, children: batch.data.children }),
      ),
  );
  return tableToIPC(batches.length > 0 ? new Table(batches) : new Table(schema), 'stream');
}

/** Column names of an IPC stream's schema. */
export function ipcColumnNames(ipc: Uint8Array): string[] {
  return tableFromIPC(ipc).schema.fields.map((field) => field.name);
}
