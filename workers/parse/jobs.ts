/**
 * The parse worker's jobs: read a Blob's text with progress, then parse it. Every failure is an
 * outcome with a message for the user, never a throw across the boundary.
 */
import type { DictionaryImport, DictionaryParseOutcome, NotebookParseOutcome, ParseEvent, ParseRequests } from '../../protocol/parse';
import type { Handlers } from '../../protocol/rpcServer';
import { importDictionary, readDocBlocks } from '../../shared/knowledge/dictionaryImport';
import { readIpynbCells } from '../../shared/notebook/ipynbCells';

/** Progress is said at most this often while reading (a 5 MB file: a handful of events). */
const PROGRESS_BYTES = 1 << 20;

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The Blob's text, decoded as UTF-8 chunk by chunk, with the bytes read so far. */
export async function readText(blob: Blob, onBytes: (loaded: number, total: number) => void): Promise<string> {
  const total = blob.size;
  if (typeof blob.stream !== 'function') return blob.text();
  const reader = blob.stream().getReader();
  const decoder = new TextDecoder('utf-8');
  const parts: string[] = [];
  let loaded = 0;
  let said = 0;
  onBytes(0, total);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    loaded += value.byteLength;
    parts.push(decoder.decode(value, { stream: true }));
    if (loaded - said >= PROGRESS_BYTES) {
      said = loaded;
      onBytes(loaded, total);
    }
  }
  parts.push(decoder.decode());
  onBytes(total, total);
  return parts.join('');
}

export function parseHandlers(emit: (event: ParseEvent) => void): Handlers<ParseRequests> {
  const reading = (jobId: string) => (loaded: number, total: number) => emit({ type: 'progress', jobId, stage: 'reading', loaded, total });
  return {
    dictionary: async ({ jobId, file, fileName, dataset, columns, docs }): Promise<{ result: DictionaryParseOutcome }> => {
      try {
        const texts = await Promise.all(docs.map((d) => d.text()));
        const text = await readText(file, reading(jobId));
        emit({ type: 'progress', jobId, stage: 'parsing' });
        const blocks = Object.assign({}, ...texts.map(readDocBlocks)) as Record<string, string>;
        // Typed as the boundary's shape: importDictionary's result must stay assignable to it.
        const result: DictionaryImport = importDictionary(text, fileName, dataset, columns, { docs: blocks });
        return { result: { ok: true, result } };
      } catch (e) {
        // importDictionary's messages name the file and what was wrong ("… describes none of …").
        return { result: { ok: false, message: messageOf(e) } };
      }
    },
    notebook: async ({ jobId, file }): Promise<{ result: NotebookParseOutcome }> => {
      try {
        const text = await readText(file, reading(jobId));
        emit({ type: 'progress', jobId, stage: 'parsing' });
        return { result: readIpynbCells(text) };
      } catch (e) {
        return { result: { ok: false, message: `The file could not be read: ${messageOf(e)}` } };
      }
    },
  };
}
