import { rowsOf, type Engine } from '../engine/duckdbEngine';
import type { EncodingGuess } from './sniff';
import { quoteIdent } from '../../../shared/sql';
import { briefSqlError, shortenExcerpts } from '../engine/sqlError';
import { messageOf } from '../../../shared/errors';
import type { CsvReadOverrides } from '../../../protocol/loadReport';
import { eurostatSelect, readCsvSql, type ReadOptions } from '../engine/csvOptions';
import { plural } from '../../../shared/text';
import { sniffDialect } from './csvDialect';

/**
 * CSV/TSV → a DuckDB table with DuckDB's own reader and sniffer. The File is registered with
 * DuckDB by reference (never read into a JS string); the only copy made is for UTF-16 BE, which
 * DuckDB cannot decode, transcoded to UTF-8 as a stream.
 *
 * Choices: `null_padding=true` so ragged rows load (short rows padded with NULL, extra fields
 * get their own columns) — without it DuckDB's sniffer silently collapses a ragged file into one
 * text column. Rows are never skipped silently (`ignore_errors` stays off): a value that breaks
 * the sniffed types triggers one retry that sniffs the whole file (`sample_size=-1`), and bytes
 * that are not valid UTF-8 past the sniffed head trigger one retry: with those bytes replaced by
 * U+FFFD when the rest is UTF-8, else as Latin-1; both say so in a warning.
 */

export interface CsvIngestInput {
  engine: Engine;
  blob: Blob;
  fileName: string;
  tsv: boolean;
  encoding: EncodingGuess;
  /** Final table name; created atomically by CREATE TABLE … AS, so a failure leaves nothing. */
  table: string;
  /** Unique path to register the blob under while reading. */
  path: string;
  /** A load report's fix: read with these options. */
  overrides?: CsvReadOverrides;
  /** Runs while the file is still registered at `path` (the load report's checks read it). */
  whileRegistered?: (path: string, read: ReadOptions) => Promise<void>;
}

export type CsvIngestResult =
  /** `read` and `source`: the options and bytes the table was read with, for checks run later (laterChecks.ts). */
  | { ok: true; warnings: string[]; read: ReadOptions; source: Blob }
  /** `outOfMemory`: DuckDB ran out of memory making the table (nothing was made); the file can still be attached as a view. */
  | { ok: false; message: string; suggestion?: string; outOfMemory?: true };


/** UTF-16 BE → UTF-8, chunk by chunk. */
export async function transcodeUtf16be(blob: Blob, bom: number): Promise<Blob> {
  const parts: Uint8Array[] = [];
  const stream = blob.slice(bom).stream().pipeThrough(new TextDecoderStream('utf-16be')).pipeThrough(new TextEncoderStream());
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  return new Blob(parts as BlobPart[]);
}

/** Windows-1252 → UTF-8, streamed (the WHATWG decoder maps every byte, 0x80–0x9F included). */
export async function transcodeWindows1252(blob: Blob): Promise<Blob> {
  const parts: Uint8Array[] = [];
  const reader = blob.stream().pipeThrough(new TextDecoderStream('windows-1252')).pipeThrough(new TextEncoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  return new Blob(parts as BlobPart[]);
}

/**
 * A copy of `blob` as valid UTF-8, each invalid byte sequence replaced by U+FFFD, streamed; with
 * how many were replaced and how many valid non-ASCII characters the file has (zero means it
 * is more likely Latin-1 than UTF-8 with a few bad bytes).
 */
export async function repairUtf8(blob: Blob): Promise<{ blob: Blob; replaced: number; validNonAscii: number }> {
  const parts: Uint8Array[] = [];
  let replaced = 0;
  let validNonAscii = 0;
  const encoder = new TextEncoder();
  const reader = blob.stream().pipeThrough(new TextDecoderStream('utf-8')).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if (c === 0xfffd) replaced++;
      else if (c > 0x7f) validNonAscii++;
    }
    parts.push(encoder.encode(value));
  }
  return { blob: new Blob(parts as BlobPart[]), replaced, validNonAscii };
}

/** DuckDB's errors carry a long list of "possible fixes"; the first lines say what went wrong. */
export function briefError(e: unknown): string {
  const text = messageOf(e);
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const cut = lines.findIndex((l) => /^(Possible fixes|The search space used was|LINE \d+:)/.test(l));
  // A line of the file DuckDB quotes ("Original Line: …") can be a 10 MB cell: an excerpt of it.
  const kept = (cut < 0 ? lines : lines.slice(0, cut)).slice(0, 3).map((l) => (l.length > 300 ? `${l.slice(0, 200)}… (${l.length.toLocaleString('en-US')} characters)` : l));
  return shortenExcerpts(kept.join(' ').replace(/^(Invalid Input|Conversion|IO|Binder|Invalid) Error: /, ''));
}

/**
 * DuckDB's "Out of Memory Error: failed to allocate …" (its memory_limit reached: an in-memory
 * database cannot spill) or "… Allocation failure" (the wasm heap itself).
 */
export const isOutOfMemory = (msg: string) => /Out of Memory/i.test(msg);
const isConversion = (msg: string) => /Could not convert|Conversion Error|CSV Error on Line/i.test(msg);
const isUnicode = (msg: string) => /Invalid unicode|byte sequence/i.test(msg);
// "File is not latin-1 encoded": DuckDB's latin-1 refuses bytes 0x80–0x9F.
const isNotLatin1 = (msg: string) => /not latin-1 encoded/i.test(msg);
// "The parallel scanner does not support null_padding in conjunction with quoted new lines.
// Please disable the parallel csv reader with parallel=false" (DuckDB's CSV reader).
const isQuotedNewlines = (msg: string) => /null_padding/i.test(msg) && /quoted new ?lines|parallel\s*=\s*false/i.test(msg);

export async function ingestCsv(input: CsvIngestInput): Promise<CsvIngestResult> {
  const { engine, fileName, table, path } = input;
  const warnings: string[] = [];
  let blob = input.blob;
  let encoding: ReadOptions['encoding'] = input.encoding.encoding === 'latin-1' ? 'latin-1' : input.encoding.encoding === 'utf-8' ? 'utf-8' : 'utf-16';
  if (input.encoding.encoding === 'utf-16be') {
    blob = await transcodeUtf16be(blob, input.encoding.bom);
    encoding = 'utf-8';
  }
  if (input.encoding.encoding === 'latin-1') warnings.push(`${fileName} is not valid UTF-8; read it as Latin-1 (ISO-8859-1).`);
  // By reference, not copied into wasm memory: on a quiet machine a copy into a buffer read
  // faster (read_csv 795 vs 983 ms on the bench's 98 MB file) but the copy cost more than it
  // saved (1,009 vs 984 ms in all, 6 paired rounds, `npm run bench -- --only=csv-source`), and
  // it doubles the memory a load needs.
  await engine.registerBlob(path, blob);
  // Sent (not run in one call) so DuckDB-WASM polls it and reports execution progress meanwhile.
  const attempt = async (opts: ReadOptions) => {
    // A Eurostat read (a load report's fix) is a projection of the read's own columns.
    const select = opts.overrides?.eurostat
      ? eurostatSelect(rowsOf(await engine.query(`DESCRIBE SELECT * FROM ${readCsvSql(path, opts)}`)).map((r) => ({ name: String(r.column_name), type: String(r.column_type) })))
      : '*';
    const { batches } = await engine.send(`CREATE TABLE ${quoteIdent(table)} AS SELECT ${select} FROM ${readCsvSql(path, opts)}`);
    for await (const _ of batches) {
      // Draining the one-row "Count" result completes the statement.
    }
  };
  let repaired = false;
  const opts: ReadOptions = { encoding, tsv: input.tsv, fullSample: false, ...(input.overrides ? { overrides: input.overrides } : {}) };
  const dialect = await sniffDialect(engine, blob, headPath(path), opts);
  if (dialect) opts.dialect = dialect;
  let windows1252 = false;
  try {
    for (let tries = 0; ; tries++) {
      try {
        await attempt(opts);
        break;
      } catch (e) {
        const msg = briefSqlError(e);
        // No other reading of the file holds less: the caller attaches it as a view instead.
        if (isOutOfMemory(msg)) return { ok: false, message: `${fileName} did not fit in memory as a table: ${briefError(msg)}`, outOfMemory: true };
        if (tries < 4 && isQuotedNewlines(msg) && !opts.serial) {
          // Not a problem with the file: fields with line breaks inside quotes are valid CSV.
          opts.serial = true;
        } else if (tries < 4 && isUnicode(msg) && opts.encoding === 'utf-8' && !repaired) {
          // Mostly UTF-8 with a few bad bytes: keep the UTF-8 text and mark the bad bytes, rather
          // than reading every accented letter wrong as Latin-1.
          repaired = true;
          const fixed = await repairUtf8(blob);
          if (fixed.validNonAscii > 0 && fixed.replaced > 0) {
            await engine.dropFile(path).catch(() => undefined);
            blob = fixed.blob;
            await engine.registerBlob(path, blob);
            warnings.push(`${fileName} has ${plural(fixed.replaced, 'invalid UTF-8 byte sequence')}; each was replaced with \uFFFD and the rest was read as UTF-8.`);
          } else {
            opts.encoding = 'latin-1';
            warnings.push(`${fileName} has bytes that are not valid UTF-8 beyond its start; read it as Latin-1 (ISO-8859-1).`);
          }
        } else if (tries < 5 && isNotLatin1(msg) && !windows1252) {
          // Text from Windows (and Mac exports of it) writes quotes, dashes and the like in bytes
          // 0x80–0x9F, which DuckDB's latin-1 refuses: real files from fivethirtyeight/data failed
          // whole. Windows-1252 reads every byte, so the file is transcoded to UTF-8 with it.
          windows1252 = true;
          await engine.dropFile(path).catch(() => undefined);
          // Kept as the source: checks that run after the load re-read these bytes, not the file's.
          blob = await transcodeWindows1252(blob);
          await engine.registerBlob(path, blob);
          opts.encoding = 'utf-8';
          const latin = warnings.findIndex((w) => w.includes('Latin-1'));
          if (latin >= 0) warnings.splice(latin, 1);
          warnings.push(`${fileName} is not valid UTF-8 nor Latin-1; read it as Windows-1252.`);
        } else if (tries < 4 && isConversion(msg) && !opts.fullSample) {
          opts.fullSample = true;
          warnings.push(`${fileName}: column types were re-detected from the whole file (a value late in the file did not fit the type guessed from its start).`);
        } else if (opts.dialect) {
          // The dialect found on the first lines may not hold further down: DuckDB detects it
          // over its own sample, as every read did before.
          delete opts.dialect;
        } else {
          return { ok: false, message: `Could not read ${fileName} as ${input.tsv ? 'TSV' : 'CSV'}: ${briefError(msg)}`, suggestion: suggestionFor(msg) };
        }
      }
    }
    // A check that fails costs only its finding, never the load.
    if (input.whileRegistered) await input.whileRegistered(path, { ...opts }).catch(() => undefined);
  } finally {
    await engine.dropFile(path).catch(() => undefined);
  }
  return { ok: true, warnings, read: { ...opts }, source: blob };
}

/** Where a file's first lines are registered for sniffing, beside the file's own path. */
export const headPath = (path: string): string => path.replace(/(\.[a-z]+)?$/, '_head$1');

function suggestionFor(msg: string): string {
  if (/sniff|dialect/i.test(msg)) return 'Check that the file is delimited text (comma, semicolon, tab or pipe separated) with one record per line.';
  if (/maximum line size/i.test(msg)) return 'A line is longer than DuckDB allows; check for an unclosed quote.';
  return 'Check the file in a text editor, or export it again from its source.';
}
