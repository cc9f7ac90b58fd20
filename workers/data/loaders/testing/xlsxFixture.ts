/**
 * Test-only: writes a genuine .xlsx (zip of SpreadsheetML parts, as Excel saves them) from rows
 * of cells, so the Excel reader is tested on real workbook bytes rather than on mocks.
 */
import { strToU8, zipSync } from 'fflate';

/**
 * A cell: text (shared string), number, boolean, Excel date serial (built-in m/d/yyyy format),
 * a number with a custom format (a date-time one, or a euro currency one that is not a date),
 * inline text, or empty.
 */
export type FixtureCell =
  | string
  | number
  | boolean
  | { date: number }
  | { number: number; format: 'datetime' | 'euro' }
  | { inline: string }
  | null;

export interface FixtureSheet {
  name: string;
  rows: FixtureCell[][];
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

function columnLetters(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

export function makeXlsx(sheets: FixtureSheet[]): Uint8Array<ArrayBuffer> {
  const shared: string[] = [];
  const sharedIndex = new Map<string, number>();
  const cellXml = (cell: FixtureCell, ref: string): string => {
    if (cell === null) return '';
    if (typeof cell === 'string') {
      if (!sharedIndex.has(cell)) {
        sharedIndex.set(cell, shared.length);
        shared.push(cell);
      }
      return `<c r="${ref}" t="s"><v>${sharedIndex.get(cell)}</v></c>`;
    }
    if (typeof cell === 'number') return `<c r="${ref}"><v>${cell}</v></c>`;
    if (typeof cell === 'boolean') return `<c r="${ref}" t="b"><v>${cell ? 1 : 0}</v></c>`;
    if ('date' in cell) return `<c r="${ref}" s="1"><v>${cell.date}</v></c>`;
    if ('format' in cell) return `<c r="${ref}" s="${cell.format === 'datetime' ? 2 : 3}"><v>${cell.number}</v></c>`;
    return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(cell.inline)}</t></is></c>`;
  };
  const sheetXml = (sheet: FixtureSheet) =>
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
    sheet.rows
      .map((row, r) => {
        const cells = row.map((cell, c) => cellXml(cell, `${columnLetters(c)}${r + 1}`)).join('');
        return cells ? `<row r="${r + 1}">${cells}</row>` : '';
      })
      .join('') +
    '</sheetData></worksheet>';
  const files: Record<string, Uint8Array> = {};
  sheets.forEach((sheet, i) => (files[`xl/worksheets/sheet${i + 1}.xml`] = strToU8(sheetXml(sheet))));
  files['[Content_Types].xml'] = strToU8(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      sheets
        .map(
          (_, i) =>
            `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
        )
        .join('') +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
      '</Types>',
  );
  files['_rels/.rels'] = strToU8(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
      '</Relationships>',
  );
  files['xl/workbook.xml'] = strToU8(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>' +
      sheets.map((sheet, i) => `<sheet name="${escapeXml(sheet.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('') +
      '</sheets></workbook>',
  );
  files['xl/_rels/workbook.xml.rels'] = strToU8(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      sheets
        .map(
          (_, i) =>
            `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
        )
        .join('') +
      `<Relationship Id="rId${sheets.length + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>` +
      `<Relationship Id="rId${sheets.length + 2}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>` +
      '</Relationships>',
  );
  // Style 1 uses built-in number format 14 (m/d/yyyy): that is what marks a number as a date.
  // Styles 2 and 3 use custom formats: a date-time, and a euro amount (no date despite its letters).
  files['xl/styles.xml'] = strToU8(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
      '<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd hh:mm"/>' +
      '<numFmt numFmtId="165" formatCode="[$&#8364;-407]#,##0.00;[Red]\\-[$&#8364;-407]#,##0.00"/></numFmts>' +
      '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>' +
      '<fills count="1"><fill><patternFill patternType="none"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      '<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
      '<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
      '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
      '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
      '</styleSheet>',
  );
  files['xl/sharedStrings.xml'] = strToU8(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${shared.length}" uniqueCount="${shared.length}">` +
      shared.map((text) => `<si><t xml:space="preserve">${escapeXml(text)}</t></si>`).join('') +
      '</sst>',
  );
  // zipSync allocates a fresh ArrayBuffer; the cast only tells TypeScript so.
  return zipSync(files) as Uint8Array<ArrayBuffer>;
}
