/**
 * Excel .xlsx → one Arrow table per sheet with data. The first non-empty row is the header;
 * each column gets the narrowest type its cells share (number, boolean, date → timestamp),
 * otherwise text. Everything but the chosen sheets' parts stays compressed.
 */
import { uniqueColumnNames } from './columnNames';
import { KindTracker, asText, rowsToIPC, type ColumnPlan } from './inferredColumns';
import type { ConvertOptions, ConvertedTable, Converter } from './types';
import { XlsxError, XlsxWorkbook, type XlsxCell } from './xlsxReader';

type Cell = XlsxCell | undefined;
type Row = readonly Cell[];

const BATCH_ROWS = 50_000;

function open(bytes: Uint8Array, keep?: (path: string) => boolean): XlsxWorkbook {
  try {
    return XlsxWorkbook.open(bytes, keep);
  } catch (error) {
    if (error instanceof XlsxError) throw new Error(`not a readable .xlsx workbook: ${error.message}`, { cause: error });
    throw error;
  }
}

/** Sheet names in workbook order, read from the workbook part alone (no cell is parsed). */
export async function listExcelSheets(source: Blob): Promise<string[]> {
  return open(new Uint8Array(await source.arrayBuffer()), () => false).sheets.map((sheet) => sheet.name);
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
  // A loop, not Math.max(...rows): spreading 150,000+ rows overflows the call stack.
  let width = header.length;
  for (const row of rows) if (row.length > width) width = row.length;
  const trackers = Array.from({ length: width }, () => new KindTracker());
  for (const row of rows) row.forEach((cell, column) => trackers[column]!.observe(isBlank(cell) ? null : cell));
  const names = uniqueColumnNames(Array.from({ length: width }, (_, column) => {
    const cell = header[column];
    return isBlank(cell) ? null : asText(cell);
  }));
  return { plan: names.map((name, column) => ({ name, kind: trackers[column]!.kind })), rows };
}

export const convertExcel: Converter = async (source: Blob, options: ConvertOptions): Promise<ConvertedTable[]> => {
  const bytes = new Uint8Array(await source.arrayBuffer());
  options.onProgress?.(0);
  const outline = open(bytes, () => false).sheets;
  const names = outline.map((sheet) => sheet.name);
  const missing = (options.sheets ?? []).filter((sheet) => !names.includes(sheet));
  if (missing.length > 0) {
    throw new Error(`sheet not found: ${missing.join(', ')} (the workbook has: ${names.join(', ')})`);
  }
  const wanted = options.sheets ? new Set(options.sheets) : undefined;
  const chosenPaths = new Set(outline.filter((sheet) => !wanted || wanted.has(sheet.name)).map((sheet) => sheet.path));
  const workbook = open(bytes, (path) => !path.startsWith('xl/worksheets/') || chosenPaths.has(path));
  const chosen = workbook.sheets.filter((sheet) => chosenPaths.has(sheet.path));
  const planned: { sheet: string; layout: NonNullable<ReturnType<typeof planSheet>> }[] = [];
  chosen.forEach((sheet, index) => {
    let data: XlsxCell[][];
    try {
      data = workbook.readSheet(sheet);
    } catch (error) {
      if (error instanceof XlsxError) throw new Error(`not a readable .xlsx workbook: ${error.message}`, { cause: error });
      throw error;
    }
    const layout = planSheet(data);
    if (layout) planned.push({ sheet: sheet.name, layout });
    options.onProgress?.((0.7 * (index + 1)) / chosen.length);
  });
  if (planned.length === 0) {
    throw new Error(options.sheets ? 'the chosen sheets hold no data' : 'no sheet in this workbook holds any data');
  }
  // Progress past reading counts rows encoded across all chosen sheets.
  const totalRows = Math.max(1, planned.reduce((sum, entry) => sum + entry.layout.rows.length, 0));
  let doneRows = 0;
  return planned.map(({ sheet, layout }): ConvertedTable => ({
    sheet,
    batches: (async function* () {
      const { plan, rows } = layout;
      // start === 0 lets a header-only sheet still yield its (empty) table.
      for (let start = 0; start === 0 || start < rows.length; start += BATCH_ROWS) {
        const slice = rows.slice(start, start + BATCH_ROWS);
        yield rowsToIPC(plan, slice, (row, column) => (isBlank(row[column]) ? null : row[column]));
        doneRows += slice.length;
        options.onProgress?.(0.7 + 0.3 * Math.min(1, doneRows / totalRows));
      }
    })(),
  }));
};
