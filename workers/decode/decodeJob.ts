import { DECODE_CHUNK_CELLS, type DecodeReply, type DecodeRequest } from '../../protocol/decode';
import { decodeIpc } from '../../shared/arrowDecode';

/** Decodes one request and posts its rows in chunks of about `chunkCells` cells, then `done` (or `error`). */
export function runDecode(req: DecodeRequest, post: (reply: DecodeReply) => void, chunkCells = DECODE_CHUNK_CELLS): void {
  try {
    const { rows, fields } = decodeIpc(req.ipc, req.options);
    const perChunk = Math.max(1, Math.floor(chunkCells / Math.max(1, fields.length)));
    for (let at = 0; at < rows.length; at += perChunk) post({ id: req.id, kind: 'rows', rows: rows.slice(at, at + perChunk) });
    post({ id: req.id, kind: 'done' });
  } catch (e) {
    const error = e instanceof Error ? { name: e.name, message: e.message } : { name: 'Error', message: String(e) };
    post({ id: req.id, kind: 'error', error });
  }
}
