import type { LoadFinding, TableReadOverrides } from '../../../protocol/loadReport';

/**
 * What the JS format readers hand the data engine: Arrow IPC streams that DuckDB ingests with
 * `insertArrowFromIPCStream` (DuckDB-WASM here cannot read Parquet, JSON or Excel itself).
 */

/** A column whose values were of several kinds, and which (`dates`, `numbers`, `text`, `objects`…). */
export interface MixedColumn {
  column: string;
  families: readonly string[];
}

export interface ConvertedTable {
  /** Excel sheet name; undefined for single-table formats. */
  sheet?: string;
  /**
   * Self-contained Arrow IPC *streams* (schema + record batches), all with the same schema, to be
   * appended in order: the first creates the table, the rest append. Yielded lazily so a large
   * file never needs all of its Arrow form in memory at once.
   */
  batches: AsyncIterable<Uint8Array>;
  /** Columns whose values had time-zone offsets and arrive as UTC TIMESTAMP (the load report says so). */
  utcColumns?: string[];
  /** What the reader saw wrong with the source's layout (Excel: title rows, notes below, header names). */
  findings?: LoadFinding[];
  /**
   * Columns read as text because their values were of several kinds (dates and text, objects and
   * numbers…): a fact the reader saw, worded by the load report's checks (checks/tableReport.ts).
   */
  mixed?: MixedColumn[];
}

export interface ConvertOptions {
  /** Called with 0..1 as the reader advances through the source bytes. */
  onProgress?: (fraction: number) => void;
  /** Excel: only these sheets (default: every sheet with at least one cell). */
  sheets?: string[];
  /** Parquet: rows per Arrow batch instead of the reader's own choice (the bench compares sizes). */
  batchRows?: number;
  /** A load report's fix in force, per sheet (undefined for single-table formats). */
  readOptions?: (sheet: string | undefined) => TableReadOverrides | undefined;
}

/** A reader turns a source Blob into tables, or throws an Error whose message names the cause. */
export type Converter = (source: Blob, options: ConvertOptions) => Promise<ConvertedTable[]>;
