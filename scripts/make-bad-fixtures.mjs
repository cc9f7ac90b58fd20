// Writes the e2e fixture corpus: awkward and broken files (e2e/fixtures/bad/) and one small
// dataset in every supported format (e2e/fixtures/generated/). Deterministic, so running it
// again rewrites the same bytes; Playwright's globalSetup calls it before every run.
// `--large` also streams the 1,000,000-row CSV that only the big-file test needs.
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync as fsWriteFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deflateRawSync, deflateSync } from 'node:zlib';
import { once } from 'node:events';
import { DuckDBInstance } from '@duckdb/node-api';
import { DateDay, Float64, Int32, Table, Utf8, Bool, tableToIPC, vectorFromArray } from 'apache-arrow';
import { LOAD_REPORT_CASES, TABLE_REPORT_CASES, TIMEZONE_CSV } from './loadReportCases.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BAD_DIR = join(ROOT, 'e2e/fixtures/bad');
export const GENERATED_DIR = join(ROOT, 'e2e/fixtures/generated');
export const LARGE_CSV = join(GENERATED_DIR, 'big-1m.csv');
export const LARGE_CSV_ROWS = 1_000_000;

/**
 * Writes only when the bytes differ, and atomically. Other people's Playwright runs in the same
 * checkout run this script too; rewriting a file a browser holds a File reference to makes
 * Chromium refuse to read it (NotReadableError), so unchanged files must keep their mtime.
 * @param {string} path
 * @param {string | Uint8Array} data
 */
function writeFileSync(path, data) {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (existsSync(path) && readFileSync(path).equals(bytes)) return;
  const tmp = `${path}.tmp-${process.pid}`;
  fsWriteFileSync(tmp, bytes);
  renameSync(tmp, path);
}

/**
 * Runs a native DuckDB COPY into a scratch file, then moves it in only if it changed.
 * @param {import('@duckdb/node-api').DuckDBConnection} con
 * @param {string} query the COPY source (a table name or a parenthesised SELECT)
 * @param {string} path
 * @param {string} options the COPY options
 */
async function copyTo(con, query, path, options) {
  const tmp = `${path}.copy-${process.pid}`;
  await con.run(`COPY ${query} TO ${sqlPath(tmp)} (${options})`);
  const bytes = readFileSync(tmp);
  rmSync(tmp);
  writeFileSync(path, bytes);
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// Byte-level helpers: PNG and ZIP both need CRC-32, so one table serves both.

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** @param {Uint8Array} bytes */
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A real 16×16 RGB PNG (gradient), so the "image renamed .csv" case is a genuine image. */
export function pngBytes() {
  const width = 16;
  const height = 16;
  /** @param {string} type @param {Buffer} data */
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const raw = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      raw[row + 1 + x * 3] = x * 16;
      raw[row + 2 + x * 3] = y * 16;
      raw[row + 3 + x * 3] = 200;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A ZIP archive of deflated entries — enough of the format for an .xlsx.
 * @param {{ name: string, data: string | Buffer }[]} entries
 */
export function zipBytes(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  // 2024-01-01 00:00 in DOS time/date fields.
  const dosTime = 0;
  const dosDate = ((2024 - 1980) << 9) | (1 << 5) | 1;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data, 'utf8');
    const packed = deflateRawSync(data);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, packed);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(dosTime, 12);
    central.writeUInt16LE(dosDate, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const centralDir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralDir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralDir, end]);
}

/** @param {string} s */
const xmlEscape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** @param {number} index zero-based column index */
function columnLetters(index) {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/**
 * A minimal but valid .xlsx workbook (shared strings, numbers, booleans, dates; null is an empty cell), one sheet per entry.
 * @param {{ name: string, rows: (string | number | boolean | Date | null)[][] }[]} sheets
 */
export function xlsxBytes(sheets) {
  const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  /** @type {string[]} */
  const strings = [];
  /** @type {Map<string, number>} */
  const stringIndex = new Map();
  /** @param {string} s */
  const sst = (s) => {
    let i = stringIndex.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      stringIndex.set(s, i);
    }
    return i;
  };
  const sheetXml = sheets.map(({ rows }) => {
    const body = rows
      .map((row, r) => {
        const cells = row
          .map((value, c) => {
            const ref = `${columnLetters(c)}${r + 1}`;
            if (value === null || value === undefined) return '';
            // A date: Excel's serial day number in a cell styled with the built-in date format 14.
            if (value instanceof Date) return `<c r="${ref}" s="1"><v>${value.getTime() / 86_400_000 + 25569}</v></c>`;
            if (typeof value === 'number') return `<c r="${ref}"><v>${value}</v></c>`;
            if (typeof value === 'boolean') return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
            return `<c r="${ref}" t="s"><v>${sst(value)}</v></c>`;
          })
          .join('');
        return `<row r="${r + 1}">${cells}</row>`;
      })
      .join('');
    return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${ns}"><sheetData>${body}</sheetData></worksheet>`;
  });
  const sharedStrings = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="${ns}" count="${strings.length}" uniqueCount="${strings.length}">${strings
    .map((s) => `<si><t>${xmlEscape(s)}</t></si>`)
    .join('')}</sst>`;
  const contentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheets
    .map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`)
    .join('')}<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;
  const rootRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
  const workbook = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="${ns}" xmlns:r="${rel}"><sheets>${sheets
    .map((s, i) => `<sheet name="${xmlEscape(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
    .join('')}</sheets></workbook>`;
  const n = sheets.length;
  const workbookRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets
    .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${rel}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`)
    .join('')}<Relationship Id="rId${n + 1}" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId${n + 2}" Type="${rel}/styles" Target="styles.xml"/></Relationships>`;
  const styles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="${ns}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`;
  return zipBytes([
    { name: '[Content_Types].xml', data: contentTypes },
    { name: '_rels/.rels', data: rootRels },
    { name: 'xl/workbook.xml', data: workbook },
    { name: 'xl/_rels/workbook.xml.rels', data: workbookRels },
    ...sheetXml.map((data, i) => ({ name: `xl/worksheets/sheet${i + 1}.xml`, data })),
    { name: 'xl/sharedStrings.xml', data: sharedStrings },
    { name: 'xl/styles.xml', data: styles },
  ]);
}

// ---------------------------------------------------------------------------------------------
// The good-format dataset: one table, written by native DuckDB in each format it can write,
// and by apache-arrow / the xlsx writer above for the rest.

export const FORMAT_ROWS = 480;
export const XLSX_SALES_ROWS = 120;
export const XLSX_REGION_ROWS = 4;

/** SQL (native DuckDB) that builds the shared `items` table. */
export const ITEMS_SQL = `CREATE TABLE items AS SELECT
  i::INTEGER AS id,
  ['north', 'south', 'east', 'west'][(i % 4) + 1] AS region,
  round(((i * 37) % 1000) / 7.0, 3)::DOUBLE AS amount,
  (i % 3 = 0) AS flagged,
  (DATE '2024-01-01' + (i % 365)::INTEGER) AS day
FROM range(1, ${FORMAT_ROWS + 1}) t(i)`;

export const REGION_ROWS = [
  ['region', 'manager', 'target'],
  ['north', 'Ada', 1200.5],
  ['south', 'Grace', 980],
  ['east', 'Edsger', 1500.25],
  ['west', 'Barbara', 1100],
];

/** @param {string} p */
const sqlPath = (p) => `'${p.replace(/'/g, "''")}'`;

/** @param {import('@duckdb/node-api').DuckDBConnection} con */
async function writeGoodFormats(con) {
  await con.run(ITEMS_SQL);
  const g = (/** @type {string} */ f) => join(GENERATED_DIR, f);
  await copyTo(con, 'items', g('fmt-parquet.parquet'), 'FORMAT parquet');
  await copyTo(con, 'items', g('fmt-csv.csv'), 'FORMAT csv, HEADER true');
  await copyTo(con, 'items', g('fmt-json.json'), 'FORMAT json, ARRAY true');
  await copyTo(con, 'items', g('fmt-ndjson.ndjson'), 'FORMAT json');

  const reader = await con.runAndReadAll('SELECT id, region, amount, flagged, day::VARCHAR AS day FROM items ORDER BY id');
  const rows = reader.getRowObjectsJS();
  const arrowTable = new Table({
    id: vectorFromArray(rows.map((r) => Number(r.id)), new Int32()),
    region: vectorFromArray(rows.map((r) => String(r.region)), new Utf8()),
    amount: vectorFromArray(rows.map((r) => Number(r.amount)), new Float64()),
    flagged: vectorFromArray(rows.map((r) => Boolean(r.flagged)), new Bool()),
    day: vectorFromArray(rows.map((r) => new Date(`${String(r.day)}T00:00:00Z`)), new DateDay()),
  });
  writeFileSync(g('fmt-arrow.arrow'), tableToIPC(arrowTable, 'file'));

  /** @type {(string | number | boolean)[][]} */
  const sales = [['id', 'region', 'amount', 'flagged']];
  for (const r of rows.slice(0, XLSX_SALES_ROWS)) sales.push([Number(r.id), String(r.region), Number(r.amount), Boolean(r.flagged)]);
  writeFileSync(g('fmt-book.xlsx'), xlsxBytes([
    { name: 'sales', rows: sales },
    { name: 'regions', rows: REGION_ROWS },
  ]));

  // 12,345 rows for the virtualised preview grid; `label` is text so its rendering is exact.
  await copyTo(con, `(SELECT i::INTEGER AS id, 'row-' || i AS label, (i * 0.5)::DOUBLE AS half FROM range(1, 12346) t(i))`, g('tall-12345.csv'), 'FORMAT csv, HEADER true');
  // A small CSV the URL tests serve over http.
  await copyTo(con, '(SELECT i::INTEGER AS n, i * i AS square FROM range(1, 51) t(i))', g('remote-squares.csv'), 'FORMAT csv, HEADER true');
  // A real vega file under a name that exercises the table-name rule.
  writeFileSync(g('Seattle-Weather 2024.csv'), readFileSync(join(ROOT, 'node_modules/vega-datasets/data/seattle-weather.csv')));
  // For persistence tests: a small file with a distinctive aggregate.
  writeFileSync(g('keep-me.csv'), 'k,v\na,1\nb,2\nc,39\n');
}

// ---------------------------------------------------------------------------------------------
// The bad corpus.

export const XSS_FILE_NAME = '<img src=x onerror=alert(2)>.json';

const LATIN1_TEXT = 'name,city\ncafé,Zürich\nnaïve,Malmö\n';

/** @param {import('@duckdb/node-api').DuckDBConnection} con */
async function writeBadCorpus(con) {
  const b = (/** @type {string} */ f) => join(BAD_DIR, f);
  writeFileSync(b('empty.csv'), Buffer.alloc(0));
  writeFileSync(b('header-only.csv'), 'alpha,beta,gamma\n');
  writeFileSync(b('picture.csv'), pngBytes());
  writeFileSync(b('ragged.csv'), 'a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12\n');
  writeFileSync(b('dup-blank-headers.csv'), 'id,value,value,,\n1,2,3,4,5\n6,7,8,9,10\n');
  writeFileSync(b('latin1.csv'), Buffer.from(LATIN1_TEXT, 'latin1'));
  writeFileSync(b('utf16le-bom.csv'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(LATIN1_TEXT, 'utf16le')]));
  writeFileSync(b('utf8-bom.csv'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(LATIN1_TEXT, 'utf8')]));

  const wideCols = 5000;
  const header = Array.from({ length: wideCols }, (_, i) => `c${i + 1}`).join(',');
  const wideRows = [1, 2, 3].map((r) => Array.from({ length: wideCols }, (_, i) => r * 10000 + i + 1).join(','));
  writeFileSync(b('wide-5000.csv'), [header, ...wideRows].join('\n') + '\n');

  writeFileSync(b('quoted-newlines.csv'), 'id,note\n1,"line one\nline two"\n2,plain\n3,"a ""quoted"" word, with comma"\n');

  const fullParquet = join(GENERATED_DIR, 'untruncated.parquet');
  const whole = await copyTo(con, `(SELECT i AS id, 'text ' || i AS t FROM range(0, 5000) t(i))`, fullParquet, 'FORMAT parquet');
  // Cut mid-file: the footer (schema + PAR1 trailer) is gone, as after an interrupted download.
  writeFileSync(b('truncated.parquet'), whole.subarray(0, Math.floor(whole.length * 0.6)));

  writeFileSync(b('text-named.parquet'), 'this,is\nnot,parquet\n');
  writeFileSync(b('invalid.json'), '[{"a": 1, "b": "x"}, {"a": 2, "b": ]\n');
  writeFileSync(b('tabbed.tsv'), 'city\tcountry\tpopulation\nOslo\tNorway\t709037\nLima\tPeru\t10092000\nPerth\tAustralia\t2192229\n');

  const book = xlsxBytes([{ name: 'only', rows: [['a', 'b'], [1, 2]] }]);
  writeFileSync(b('corrupt.xlsx'), book.subarray(0, Math.floor(book.length / 2)));

  // Markup in a file name reaches the load-error alert; it must show as text.
  writeFileSync(b(XSS_FILE_NAME), 'not json at all {');

  // The load report's cases (loadReportCases.mjs) and a file with time-zone offsets.
  for (const c of LOAD_REPORT_CASES) writeFileSync(b(c.file), c.text);
  for (const c of TABLE_REPORT_CASES) {
    writeFileSync(b(c.file), c.rows ? xlsxBytes([{ name: 'data', rows: c.rows }]) : (c.json ?? ''));
    // The same data written correctly: what native read_json gives is what the fix must give.
    if (c.clean) writeFileSync(b(`${c.file}.clean.json`), JSON.stringify(c.clean));
  }
  writeFileSync(b(TIMEZONE_CSV.file), TIMEZONE_CSV.text);

  writeFileSync(
    b('odd-names.csv'),
    'first name,"say ""hi""",naïve 列 ü,<img src=x onerror=alert(1)>\nAda,hello,1,<b>bold</b>\nGrace,"<script>window.__pwned=1</script>",2,x\n',
  );
}

/** Writes both corpora. Deterministic: a second run rewrites identical bytes. */
export async function makeFixtures() {
  mkdirSync(BAD_DIR, { recursive: true });
  mkdirSync(GENERATED_DIR, { recursive: true });
  const instance = await DuckDBInstance.create(':memory:');
  const con = await instance.connect();
  try {
    await writeGoodFormats(con);
    await writeBadCorpus(con);
  } finally {
    con.closeSync();
    instance.closeSync();
  }
}

const LARGE_CATEGORIES = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];

/** One deterministic line of the large CSV (~100 bytes). @param {number} i */
function largeLine(i) {
  const value = ((i * 7919) % 100000) / 100;
  const cat = LARGE_CATEGORIES[i % LARGE_CATEGORIES.length];
  const minute = i % 1440;
  const ts = `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')} ${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`;
  return `${i},${ts},${cat},${value.toFixed(2)},note for row ${i} padded to make it a realistic width xxxxxxxxxxxxxxx\n`;
}

/** Streams the 1M-row CSV (~110 MB) unless a complete copy is already there. */
export async function ensureLargeCsv() {
  mkdirSync(GENERATED_DIR, { recursive: true });
  const marker = `${LARGE_CSV}.done`;
  if (existsSync(LARGE_CSV) && existsSync(marker) && statSync(LARGE_CSV).size === Number(readFileSync(marker, 'utf8'))) return LARGE_CSV;
  // Written aside and renamed, so a concurrent run never reads a half-written file.
  const tmp = `${LARGE_CSV}.tmp-${process.pid}`;
  const out = createWriteStream(tmp);
  out.write('id,ts,category,value,note\n');
  const batch = 10_000;
  for (let start = 1; start <= LARGE_CSV_ROWS; start += batch) {
    let chunk = '';
    for (let i = start; i < start + batch && i <= LARGE_CSV_ROWS; i++) chunk += largeLine(i);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  renameSync(tmp, LARGE_CSV);
  fsWriteFileSync(marker, String(statSync(LARGE_CSV).size));
  return LARGE_CSV;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await makeFixtures();
  console.log(`fixtures written to ${BAD_DIR} and ${GENERATED_DIR}`);
  if (process.argv.includes('--large')) console.log(`large CSV: ${await ensureLargeCsv()}`);
}
