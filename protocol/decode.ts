/**
 * The page's decode worker (workers/decode/): Arrow IPC bytes in, grid rows out in chunks, so
 * neither the Arrow parse of a wide result (2,000 columns cost the page ~0.6 s for 20 rows) nor
 * one huge structured clone lands on the main thread.
 */
export type DecodedCell = string | number | boolean | null;

export interface DecodeRequest {
  id: number;
  ipc: Uint8Array;
  /** As shared/arrowDecode's DecodeOptions. */
  options: { timeZone?: string; utcColumns?: readonly string[] };
}

export type DecodeReply =
  | { id: number; kind: 'rows'; rows: DecodedCell[][] }
  | { id: number; kind: 'done' }
  | { id: number; kind: 'error'; error: { name: string; message: string } };

/** Cells per `rows` message: each one's clone is a short task on the page. */
export const DECODE_CHUNK_CELLS = 20_000;

export function isDecodeReply(data: unknown): data is DecodeReply {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as { id?: unknown; kind?: unknown; rows?: unknown; error?: unknown };
  if (typeof d.id !== 'number') return false;
  if (d.kind === 'rows') return Array.isArray(d.rows);
  if (d.kind === 'error') return typeof d.error === 'object' && d.error !== null;
  return d.kind === 'done';
}
