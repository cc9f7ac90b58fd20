import type { DataFormat } from '../../../protocol/data';
import type { Engine } from '../engine/duckdbEngine';

/** Which path a load took, as the load report states it. */
export function readerLabel(format: DataFormat, engine: Engine): string {
  const ext = engine.extensions;
  switch (format) {
    case 'csv':
    case 'tsv':
      return "DuckDB's CSV reader (read_csv)";
    case 'parquet':
      return ext?.parquet ? "DuckDB's Parquet extension (read_parquet)" : "parquet-wasm → Arrow (DuckDB's Parquet extension is not loaded)";
    case 'json':
    case 'ndjson':
      return "Dataseer's JSON reader → Arrow (typed as DuckDB's read_json types)";
    case 'arrow':
      return 'Arrow IPC reader';
    case 'xlsx':
      return 'Excel (.xlsx) reader → Arrow';
  }
}
