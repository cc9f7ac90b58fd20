/**
 * The first message the page sends the data worker and DuckDB's own worker: one end each of a
 * MessageChannel, or `null` for "start DuckDB's worker yourself" (workers/data/engine/duckdbPort.ts).
 */
export const DUCKDB_PORT = 'dataseer:duckdb-port';

export interface DuckDBPortMessage {
  kind: typeof DUCKDB_PORT;
  port: MessagePort | null;
}

export function isDuckDBPortMessage(data: unknown): data is DuckDBPortMessage {
  return typeof data === 'object' && data !== null && (data as { kind?: unknown }).kind === DUCKDB_PORT;
}
