/**
 * The parse worker's jobs: read a Blob's text with progress, then parse it. Every failure is an
 * outcome with a message for the user, never a throw across the boundary.
 */
import type { NotebookParseOutcome, ParseEvent, ParseRequests, ProjectParseOutcome } from '../../protocol/parse';
import type { Handlers } from '../../protocol/rpcServer';
import { readProject } from '../../shared/knowledge/projectRead';
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
    project: async ({ jobId, files, dataset, columns, datasets }): Promise<{ result: ProjectParseOutcome }> => {
      const say = reading(jobId);
      const total = files.reduce((n, f) => n + f.file.size, 0);
      const texts: { name: string; text: string }[] = [];
      let before = 0;
      for (const f of files) {
        try {
          // One count of bytes over all the files: a project's 30 small files read as one.
          texts.push({ name: f.name, text: await readText(f.file, (loaded) => say(before + loaded, total)) });
        } catch (e) {
          return { result: { ok: false, message: `${f.name} could not be read: ${messageOf(e)}` } };
        }
        before += f.file.size;
      }
      emit({ type: 'progress', jobId, stage: 'parsing', done: 0, of: texts.filter((t) => !/\.md$/i.test(t.name)).length });
      try {
        // Every failure the files can cause is a value from readProject; a throw here is a defect, still said as one.
        return { result: readProject(texts, { dataset, columns, datasets }, (done, of) => emit({ type: 'progress', jobId, stage: 'parsing', done, of })) };
      } catch (e) {
        return { result: { ok: false, message: `The import failed: ${messageOf(e)}` } };
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
