/**
 * A small, fast .xlsx cell reader: unzips the workbook with fflate and scans SpreadsheetML with
 * regular expressions in one linear pass per part. (read-excel-file 9 slows down quadratically
 * and overflows the stack on sheets of tens of thousands of rows, so it is not used.)
 */
import { unzipSync } from 'fflate';
import { messageOf } from '../../../shared/errors';

/** A cell value: text, number, boolean, Date (date-formatted numbers) or null for empty. */
export type XlsxCell = string | number | boolean | Date | null;

export interface XlsxSheetInfo {
  name: string;
  path: string;
}

export class XlsxError extends Error {
  override name = 'XlsxError';
}

const decoder = new TextDecoder();

export function unescapeXml(text: string): string {
  if (!text.includes('&') && !text.includes('_x')) return text;
  return text
    .replace(/&(?:#x([0-9a-f]+)|#(\d+)|(amp|lt|gt|quot|apos));/gi, (_, hex?: string, dec?: string, name?: string) => {
      if (hex) return String.fromCodePoint(parseInt(hex, 16));
      if (dec) return String.fromCodePoint(Number(dec));
      return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[name!.toLowerCase()]!;
    })
    .replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of tag.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    found.set(match[1]!, unescapeXml(match[2] ?? match[3] ?? ''));
  }
  return found;
}

/** Text of every <t> run in a string item, skipping phonetic hints (<rPh>). */
function runText(xml: string): string {
  const plain = xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '');
  let text = '';
  for (const match of plain.matchAll(/<t\b[^>]*?(?:\/>|>([\s\S]*?)<\/t>)/g)) text += match[1] ?? '';
  return unescapeXml(text);
}

function resolvePart(target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = `xl/${target}`.split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '..') out.pop();
    else if (part !== '.') out.push(part);
  }
  return out.join('/');
}

/** Built-in number formats that Excel renders as dates or times. */
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

function isDateFormatCode(code: string): boolean {
  const stripped = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[(?!h\]|hh\]|m\]|mm\]|s\]|ss\])[^\]]*\]/gi, '');
  return /[dmyhs]/i.test(stripped) && !/^general$/i.test(stripped.trim());
}

export class XlsxWorkbook {
  private readonly files: Record<string, Uint8Array>;
  readonly sheets: XlsxSheetInfo[];
  private readonly epoch1904: boolean;
  private readonly rels: Map<string, { type: string; path: string }>;
  private sharedStrings?: string[];
  private dateStyles?: boolean[];

  private constructor(files: Record<string, Uint8Array>) {
    this.files = files;
    const workbook = this.text('xl/workbook.xml');
    if (workbook === undefined) throw new XlsxError('xl/workbook.xml is missing (is it an .xlsx file?)');
    this.rels = new Map();
    for (const match of (this.text('xl/_rels/workbook.xml.rels') ?? '').matchAll(/<Relationship\b[^>]*>/g)) {
      const attrs = attributes(match[0]);
      this.rels.set(attrs.get('Id') ?? '', { type: attrs.get('Type') ?? '', path: resolvePart(attrs.get('Target') ?? '') });
    }
    this.epoch1904 = /<workbookPr\b[^>]*\bdate1904\s*=\s*["'](1|true)["']/.test(workbook);
    this.sheets = [...workbook.matchAll(/<(?:\w+:)?sheet\b[^>]*>/g)].map((match, index) => {
      const attrs = attributes(match[0]);
      const relId = [...attrs].find(([key]) => /(^|:)id$/.test(key) && key !== 'sheetId')?.[1];
      const path = (relId && this.rels.get(relId)?.path) || `xl/worksheets/sheet${index + 1}.xml`;
      return { name: attrs.get('name') ?? `Sheet${index + 1}`, path };
    });
  }

  /**
   * Opens the zip. Only the workbook and its relationships are always inflated; other parts
   * (shared strings, styles, sheets) only when `keep` says so, so listing sheets stays cheap.
   */
  static open(bytes: Uint8Array, keep: (path: string) => boolean = () => true): XlsxWorkbook {
    let files: Record<string, Uint8Array>;
    try {
      files = unzipSync(bytes, {
        filter: (file) =>
          file.name === 'xl/workbook.xml' || file.name === 'xl/_rels/workbook.xml.rels' || keep(file.name),
      });
    } catch (error) {
      throw new XlsxError(`it is not a zip archive (${messageOf(error)})`, {
        cause: error,
      });
    }
    return new XlsxWorkbook(files);
  }

  private text(path: string): string | undefined {
    const bytes = this.files[path];
    return bytes && decoder.decode(bytes);
  }

  private partOfType(suffix: string, fallback: string): string {
    for (const rel of this.rels.values()) if (rel.type.endsWith(suffix)) return rel.path;
    return fallback;
  }

  private strings(): string[] {
    this.sharedStrings ??= [...(this.text(this.partOfType('/sharedStrings', 'xl/sharedStrings.xml')) ?? '').matchAll(
      /<si\b[^>]*?(?:\/>|>([\s\S]*?)<\/si>)/g,
    )].map((match) => runText(match[1] ?? ''));
    return this.sharedStrings;
  }

  private styles(): boolean[] {
    if (this.dateStyles) return this.dateStyles;
    const xml = this.text(this.partOfType('/styles', 'xl/styles.xml')) ?? '';
    const custom = new Map<number, string>();
    for (const match of xml.matchAll(/<numFmt\b[^>]*>/g)) {
      const attrs = attributes(match[0]);
      custom.set(Number(attrs.get('numFmtId')), attrs.get('formatCode') ?? '');
    }
    const cellXfs = /<cellXfs\b[^>]*>([\s\S]*?)<\/cellXfs>/.exec(xml)?.[1] ?? '';
    this.dateStyles = [...cellXfs.matchAll(/<xf\b[^>]*>/g)].map((match) => {
      const id = Number(attributes(match[0]).get('numFmtId') ?? 0);
      const code = custom.get(id);
      return code !== undefined ? isDateFormatCode(code) : BUILTIN_DATE_FORMATS.has(id);
    });
    return this.dateStyles;
  }

  private excelDate(serial: number): Date {
    // Serial days from 1899-12-30 (Excel's 1900 leap-year bug is folded into that origin for
    // every date after February 1900) or from 1904-01-01.
    const days = this.epoch1904 ? serial + 1462 : serial;
    return new Date(Math.round((days - 25569) * 86_400_000));
  }

  /** Rows of cells (short rows are not padded); throws XlsxError if the sheet part is absent. */
  readSheet(sheet: XlsxSheetInfo): XlsxCell[][] {
    const xml = this.text(sheet.path);
    if (xml === undefined) throw new XlsxError(`the part for sheet "${sheet.name}" (${sheet.path}) is missing`);
    const strings = this.strings();
    const dateStyles = this.styles();
    const rows: XlsxCell[][] = [];
    let row: XlsxCell[] = [];
    let rowIndex = -1;
    let column = -1;
    const body = /<sheetData\b[^>]*>([\s\S]*)<\/sheetData>/.exec(xml)?.[1] ?? '';
    for (const match of body.matchAll(/<row\b([^>]*)>|<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      if (match[1] !== undefined) {
        const r = /\br\s*=\s*["'](\d+)["']/.exec(match[1]);
        rowIndex = r ? Number(r[1]) - 1 : rowIndex + 1;
        row = rows[rowIndex] ??= [];
        column = -1;
        continue;
      }
      const attrs = match[2] ?? '';
      const ref = /\br\s*=\s*["']([A-Z]+)(\d+)["']/.exec(attrs);
      if (ref) {
        column = [...ref[1]!].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0) - 1;
        const refRow = Number(ref[2]) - 1;
        if (refRow !== rowIndex) {
          rowIndex = refRow;
          row = rows[rowIndex] ??= [];
        }
      } else {
        column++;
      }
      if (rowIndex < 0) {
        rowIndex = 0;
        row = rows[0] ??= [];
      }
      const inner = match[3] ?? '';
      const type = /\bt\s*=\s*["'](\w+)["']/.exec(attrs)?.[1] ?? 'n';
      const raw = /<v\b[^>]*>([\s\S]*?)<\/v>/.exec(inner)?.[1];
      let value: XlsxCell = null;
      switch (type) {
        case 's':
          value = raw === undefined ? null : (strings[Number(raw)] ?? null);
          break;
        case 'inlineStr':
          value = runText(/<is\b[^>]*>([\s\S]*?)<\/is>/.exec(inner)?.[1] ?? '');
          break;
        case 'str':
          value = raw === undefined ? null : unescapeXml(raw);
          break;
        case 'b':
          value = raw === undefined ? null : raw.trim() === '1' || raw.trim() === 'true';
          break;
        case 'e':
          value = null;
          break;
        case 'd': {
          const date = raw === undefined ? undefined : new Date(raw);
          value = date && !Number.isNaN(date.getTime()) ? date : null;
          break;
        }
        default: {
          if (raw === undefined || raw.trim() === '') break;
          const number = Number(raw);
          if (Number.isNaN(number)) break;
          const style = Number(/\bs\s*=\s*["'](\d+)["']/.exec(attrs)?.[1] ?? 0);
          value = dateStyles[style] ? this.excelDate(number) : number;
        }
      }
      if (value === '') value = null;
      row[column] = value;
    }
    // Fill holes (sparse rows/cells) with null so callers see plain dense arrays.
    const dense: XlsxCell[][] = Array.from({ length: rows.length }, (_, i) => {
      const source = rows[i] ?? [];
      return Array.from({ length: source.length }, (_, j) => source[j] ?? null);
    });
    return dense;
  }
}
