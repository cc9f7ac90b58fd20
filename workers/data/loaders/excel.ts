/**
 * Excel .xlsx → one Arrow table per sheet with data. The first non-empty row is the header
 * (unless a load report's fix names another: sheetLayout.ts); each column gets the narrowest type
 * its cells share (number, boolean, date → timestamp), otherwise text. Everything but the chosen
 * sheets' parts stays compressed.
 */
import { sheetFindings } from './sheetChecks';
import type { LoadFinding } from '../../../protocol/loadReport';
import { rowsToIPC } from './inferredColumns';
import { isBlank, planSheet, type SheetLayout } from './sheetLayout';
import type { ConvertOptions, ConvertedTable, Converter, MixedColumn } from './types';
import { XlsxError, XlsxWorkbook, type XlsxCell } from './xlsxReader';

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
  const planned: { sheet: string; layout: SheetLayout; findings: LoadFinding[]; mixed: MixedColumn[] }[] = [];
  chosen.forEach((sheet, index) => {
    let data: XlsxCell[][];
    try {
      data = workbook.readSheet(sheet);
    } catch (error) {
      if (error instanceof XlsxError) throw new Error(`not a readable .xlsx workbook: ${error.message}`, { cause: error });
      throw error;
    }
    const read = options.readOptions?.(sheet.name) ?? {};
    const layout = planSheet(data, read);
    // The sheet's cells are at hand only here: its layout is checked now (title rows, notes below, names).
    if (layout) planned.push({ sheet: sheet.name, layout, ...sheetFindings(data, layout, read) });
    options.onProgress?.((0.7 * (index + 1)) / chosen.length);
  });
  if (planned.length === 0) {
    throw new Error(options.sheets ? 'the chosen sheets hold no data' : 'no sheet in this workbook holds any data');
  }
  // Progress past reading counts rows encoded across all chosen sheets.
  const totalRows = Math.max(1, planned.reduce((sum, entry) => sum + entry.layout.rows.length, 0));
  let doneRows = 0;
  return planned.map(({ sheet, layout, findings, mixed }): ConvertedTable => ({
    sheet,
    findings,
    ...(mixed.length > 0 ? { mixed } : {}),
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
