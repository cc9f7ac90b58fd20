import type { DataFormat } from '../../../protocol/data';

/**
 * Decides what a source holds from its name and first bytes: the data format (extension first,
 * checked against magic bytes so a PNG renamed .csv is refused rather than parsed into garbage)
 * and, for text, the encoding.
 */

/** How many leading bytes the sniffers look at. */
export const HEAD_BYTES = 64 * 1024;

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'latin-1';

export interface EncodingGuess {
  encoding: TextEncoding;
  /** Length of the byte-order mark, 0 when none. */
  bom: number;
}

export type FormatGuess =
  | { ok: true; format: DataFormat; warning?: string }
  | { ok: false; message: string; suggestion?: string };

const EXTENSIONS: Record<string, DataFormat> = {
  csv: 'csv',
  tsv: 'tsv',
  tab: 'tsv',
  parquet: 'parquet',
  pq: 'parquet',
  json: 'json',
  ndjson: 'ndjson',
  jsonl: 'ndjson',
  arrow: 'arrow',
  arrows: 'arrow',
  feather: 'arrow',
  ipc: 'arrow',
  xlsx: 'xlsx',
  xlsm: 'xlsx',
};

const FORMAT_LABEL: Record<DataFormat, string> = {
  csv: 'CSV',
  tsv: 'TSV',
  parquet: 'Parquet',
  json: 'JSON',
  ndjson: 'NDJSON',
  arrow: 'Arrow IPC',
  xlsx: 'Excel (.xlsx)',
};

function startsWith(head: Uint8Array, sig: readonly number[], at = 0): boolean {
  return sig.every((b, i) => head[at + i] === b);
}

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

/** Non-data files people drop by mistake, so the message can say what the file looks like. */
const FOREIGN: { sig: number[]; what: string }[] = [
  { sig: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { sig: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { sig: ascii('GIF8'), what: 'a GIF image' },
  { sig: ascii('%PDF'), what: 'a PDF document' },
  { sig: [0x1f, 0x8b], what: 'a gzip archive' },
  { sig: [0xd0, 0xcf, 0x11, 0xe0], what: 'a legacy Office file (.xls/.doc)' },
  { sig: ascii('SQLite format 3'), what: 'an SQLite database' },
  { sig: [0x37, 0x7a, 0xbc, 0xaf], what: 'a 7-Zip archive' },
  { sig: ascii('RIFF'), what: 'a RIFF media file' },
  { sig: [0x7f, 0x45, 0x4c, 0x46], what: 'an executable' },
];

export function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot >= 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The data format the bytes themselves prove, if any. */
function magicFormat(head: Uint8Array): DataFormat | undefined {
  if (startsWith(head, ascii('PAR1'))) return 'parquet';
  if (startsWith(head, ascii('ARROW1'))) return 'arrow';
  // An Arrow IPC stream opens with the continuation marker 0xFFFFFFFF then a message length.
  if (startsWith(head, [0xff, 0xff, 0xff, 0xff]) && head.length >= 8) return 'arrow';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'xlsx';
  return undefined;
}

export function detectEncoding(head: Uint8Array): EncodingGuess {
  if (startsWith(head, [0xef, 0xbb, 0xbf])) return { encoding: 'utf-8', bom: 3 };
  if (startsWith(head, [0xff, 0xfe])) return { encoding: 'utf-16le', bom: 2 };
  if (startsWith(head, [0xfe, 0xff])) return { encoding: 'utf-16be', bom: 2 };
  // UTF-16 without a BOM: ASCII text leaves every other byte zero.
  const n = Math.min(head.length, 4096) & ~1;
  if (n >= 16) {
    let evenZero = 0;
    let oddZero = 0;
    for (let i = 0; i < n; i += 2) {
      if (head[i] === 0) evenZero++;
      if (head[i + 1] === 0) oddZero++;
    }
    const pairs = n / 2;
    if (oddZero > pairs * 0.4 && evenZero < pairs * 0.05) return { encoding: 'utf-16le', bom: 0 };
    if (evenZero > pairs * 0.4 && oddZero < pairs * 0.05) return { encoding: 'utf-16be', bom: 0 };
  }
  try {
    // stream: a multi-byte character cut by the sample's end is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return { encoding: 'utf-8', bom: 0 };
  } catch {
    return { encoding: 'latin-1', bom: 0 };
  }
}

/** True when the head has NUL bytes that no text encoding we read would contain. */
function looksBinary(head: Uint8Array, enc: EncodingGuess): boolean {
  if (enc.encoding === 'utf-16le' || enc.encoding === 'utf-16be') return false;
  return head.subarray(0, 8192).includes(0);
}

/** First non-blank line(s) of the head as text (for JSON and delimiter hints). */
function headText(head: Uint8Array, enc: EncodingGuess): string {
  const label = enc.encoding === 'latin-1' ? 'latin1' : enc.encoding;
  return new TextDecoder(label).decode(head.subarray(enc.bom, 16384)).replace(/^\s+/, '');
}

function jsonKind(text: string): DataFormat | undefined {
  if (text.startsWith('[')) return 'json';
  if (!text.startsWith('{')) return undefined;
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const first = lines[0]?.trim() ?? '';
  // NDJSON: the first line is a whole object and the next line starts another.
  if (lines.length > 1 && first.endsWith('}') && lines[1]?.trim().startsWith('{')) {
    try {
      JSON.parse(first);
      return 'ndjson';
    } catch {
      return 'json';
    }
  }
  return 'json';
}

export function detectFormat(fileName: string, head: Uint8Array): FormatGuess {
  if (head.length === 0) return { ok: false, message: `${fileName} is empty (0 bytes).`, suggestion: 'Choose a file that has a header row and data.' };
  const ext = extensionOf(fileName);
  if (ext === 'xls') {
    return { ok: false, message: `${fileName} is a legacy Excel .xls workbook, which is not supported.`, suggestion: 'Open it in a spreadsheet program and save it as .xlsx or .csv.' };
  }
  const claimed = EXTENSIONS[ext];
  const magic = magicFormat(head);
  const foreign = FOREIGN.find((f) => startsWith(head, f.sig));
  if (foreign) {
    return {
      ok: false,
      message: `${fileName} looks like ${foreign.what}, not a data file${claimed ? ` (its extension says ${FORMAT_LABEL[claimed]})` : ''}.`,
      suggestion: 'Load a CSV, TSV, Parquet, JSON, Arrow or Excel (.xlsx) file.',
    };
  }
  if (magic) {
    if (claimed && claimed !== magic) {
      return { ok: true, format: magic, warning: `${fileName} is named like ${FORMAT_LABEL[claimed]} but holds ${FORMAT_LABEL[magic]}; loaded as ${FORMAT_LABEL[magic]}.` };
    }
    return { ok: true, format: magic };
  }
  if (claimed === 'parquet' || claimed === 'arrow' || claimed === 'xlsx') {
    return { ok: false, message: `${fileName} is not a valid ${FORMAT_LABEL[claimed]} file (its first bytes do not match the format).`, suggestion: 'The file may be damaged or renamed; export it again.' };
  }
  const enc = detectEncoding(head);
  if (looksBinary(head, enc)) {
    return { ok: false, message: `${fileName} holds binary data, not text${claimed ? ` (its extension says ${FORMAT_LABEL[claimed]})` : ''}.`, suggestion: 'Load a CSV, TSV, Parquet, JSON, Arrow or Excel (.xlsx) file.' };
  }
  const text = headText(head, enc);
  if (claimed === 'json' || claimed === 'ndjson') {
    const kind = jsonKind(text);
    if (!kind) return { ok: false, message: `${fileName} is not JSON: it does not start with { or [.`, suggestion: 'Check the file, or rename it .csv if it is a table of text.' };
    return { ok: true, format: claimed === 'ndjson' ? 'ndjson' : kind };
  }
  if (claimed) return { ok: true, format: claimed };
  const kind = jsonKind(text);
  if (kind) return { ok: true, format: kind };
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  return { ok: true, format: firstLine.includes('\t') && !firstLine.includes(',') ? 'tsv' : 'csv' };
}

/** Heads already read, by Blob (immutable): a load reads its file's head once, not per step. */
const heads = new WeakMap<Blob, Promise<Uint8Array>>();

/** Reads a Blob's first bytes. */
export async function readHead(blob: Blob, bytes = HEAD_BYTES): Promise<Uint8Array> {
  if (bytes !== HEAD_BYTES) return new Uint8Array(await blob.slice(0, bytes).arrayBuffer());
  let head = heads.get(blob);
  if (!head) {
    head = blob
      .slice(0, bytes)
      .arrayBuffer()
      .then((b) => new Uint8Array(b));
    heads.set(blob, head);
    // A failed read is not kept: the next asks again.
    head.catch(() => heads.delete(blob));
  }
  // A copy: callers may change what they get.
  return (await head).slice();
}
