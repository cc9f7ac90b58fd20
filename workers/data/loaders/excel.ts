/**
 * Excel .xlsx → one Arrow table per sheet with data. The first non-empty row is the header;
 * each column gets the narrowest type its cells share (number, boolean, date → timestamp),
 * otherwise text. Cells are read by read-excel-file's universal build (no Node APIs, no
 * workers of its own), so it runs the same in the data worker and in Node tests.
 */
import { unzipSync } from 'fflate';
import readXlsxFile from 'read-excel-file/universal';
import { uniqueColumnNames } from './columnNames';
import { KindTracker, asText, rowsToIPC, type ColumnPlan } from './inferredColumns';
import type { ConvertOptions, ConvertedTable, Converter } from './types';

type Cell = unknown;
type Row = readonly Cell[];

const BATCH_ROWS = 50_000;

function notXlsx(detail: string, cause?: unknown): Error {
  return new Error(`not a readable .xlsx workbook: ${detail}`, { cause });
}

function unescapeXml(text: string): string {
  return text.replace(/&(?:#x([0-9a-f]+)|#(\d+)|(amp|lt|gt|quot|apos));/gi, (_, hex, dec, name: string | undefined) => {
    if (hex) return String.fromCodePoint(parseInt(hex as string, 16));
    if (dec) return String.fromCodePoint(Number(dec));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[name!.toLowerCase() as 'amp'];
  });
}

/** Sheet names in workbook order, read from xl/workbook.xml alone (no cell is parsed). */
export async function listExcelSheets(source: Blob): Promise<string[]> {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(new Uint8Array(await source.arrayBuffer()), { filter: (file) => file.name === 'xl/workbook.xml' });
  } catch (error) {
    throw notXlsx(`it is not a zip archive (${error instanceof Error ? error.message : String(error)})`, error);
  }
  const workbook = files['xl/workbook.xml'];
  if (!workbook) throw notXlsx('xl/workbook.xml is missing (is it an .xlsx file?)');
  const xml = new TextDecoder().decode(workbook);
  const names: string[] = [];
  for (const match of xml.matchAll(/<(?:\w+:)?sheet\b[^>]*?\sname="([^"]*)"/g)) names.push(unescapeXml(match[1]!));
  return names;
}

function isBlank(cell: Cell): boolean {
  return cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');
}

/** Header row, column plan and data rows of one sheet; undefined when the sheet has no cells. */
function planSheet(data: readonly Row[]): { plan: ColumnPlan[]; rows: Row[] } | undefined {
  const headerIndex = data.findIndex((row) => row.some((cell) => !isBlank(cell)));
  if (headerIndex === -1) return undefined;
  const header = data[headerIndex]!;
  const rows = data.slice(headerIndex + 1).filter((row) => row.some((cell) => !isBlank(cell)));
  const width = Math.max(header.length, ...rows.map((row) => row.length));
  const trackers = Array.from({ length: width }, () => new KindTracker());
  for (const row of rows) row.forEach((cell, column) => trackers[column]!.observe(isBlank(cell) ? null : cell));
  const names = uniqueColumnNames(Array.from({ length: width }, (_, column) => {
    const cell = header[column];
    return isBlank(cell) ? null : asText(cell);
  }));
  return { plan: names.map((name, column) => ({ name, kind: trackers[column]!.kind })), rows };
}

export const convertExcel: Converter = async (source: Blob, options: ConvertOptions): Promise<ConvertedTable[]> => {
  const available = await listExcelSheets(source);
  const missing = (options.sheets ?? []).filter((sheet) => !available.includes(sheet));
  if (missing.length > 0) {
    throw new Error(`sheet not found: ${missing.join(', ')} (the workbook has: ${available.join(', ')})`);
  }
  options.onProgress?.(0);
  let sheets: { sheet: string; data: Row[] }[];
  try {
    // trim: false keeps cell text exactly as typed, so header names survive unchanged.
    sheets = (await readXlsxFile(source, { trim: false })) as unknown as { sheet: string; data: Row[] }[];
  } catch (error) {
    throw notXlsx(error instanceof Error ? error.message : String(error), error);
  }
  options.onProgress?.(0.7);
  const wanted = options.sheets ? new Set(options.sheets) : undefined;
  const planned = sheets
    .filter(({ sheet }) => !wanted || wanted.has(sheet))
    .map(({ sheet, data }) => ({ sheet, layout: planSheet(data) }))
    .filter((entry): entry is { sheet: string; layout: NonNullable<ReturnType<typeof planSheet>> } => !!entry.layout);
  // Progress past reading counts rows encoded across all chosen sheets.
  const totalRows = Math.max(1, planned.reduce((sum, entry) => sum + entry.layout.rows.length, 0));
  let doneRows = 0;
  const tables = planned.map(({ sheet, layout }): ConvertedTable => ({
    sheet,
    batches: (async function* () {
      const { plan, rows } = layout;
      for (let start = 0; start === 0 || start < rows.length; start += BATCH_ROWS) {
        const slice = rows.slice(start, start + BATCH_ROWS);
        yield rowsToIPC(plan, slice, (row, column) => (isBlank(row[column]) ? null : row[column]));
        doneRows += slice.length;
        options.onProgress?.(0.7 + 0.3 * Math.min(1, doneRows / totalRows));
      }
    })(),
  }));
  if (tables.length === 0) {
    throw new Error(options.sheets ? `the chosen sheets hold no data` : 'no sheet in this workbook holds any data');
  }
  return tables;
};
