/**
 * A fix never corrupts, the layout comes first, and fixes combine: the load report on files in
 * the shapes of the public files that went wrong (InfiAgent-DABench microsoft.csv, datasets/
 * country-codes, World Bank API_*.csv, a Spanish radiation station file, ONS tables, SIPRI-like
 * sheets), loaded through the real data host on DuckDB-WASM's Node build.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CsvReadOverrides, LoadFinding } from '../../../protocol/loadReport';
import type { Readers } from '../host/host';
import { makeReportHost } from '../testing/reportHost';
import { NodeEngine } from '../testing/nodeEngine';
import { convertJson } from '../loaders/json';
import { convertExcel, listExcelSheets } from '../loaders/excel';
import { columnTypes } from '../engine/catalog';
import { readCsvSql } from '../engine/csvOptions';
import { readerFor } from './csvReport/kit';
import { damageOf, verified } from './csvReport/verify';
import { combine } from './csvChecks';

const noReader = async () => {
  throw new Error('reader not used in this test');
};
const readers: Readers = { parquet: noReader, arrow: noReader, excel: convertExcel, json: convertJson, listExcelSheets };

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('\n');
const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const text = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'bigint' ? v.toString() : v instanceof Date ? v.toISOString() : String(v));

// microsoft.csv's shape: "19-Jan-18", two-digit years with month names.
const STOCKS = `Date,Open,Close,Volume\n${lines(30, (i) => `${String((i % 28) + 1).padStart(2, '0')}-${mon[i % 12]}-${i < 15 ? '17' : '18'},${(62 + i * 0.5).toFixed(2)},${(62.4 + i * 0.5).toFixed(2)},${19345212 + i}`)}\n`;

describe('a fix never corrupts', { timeout: 120_000 }, () => {
  it('reads dd-Mon-yy with %y (2017, 2018), never %Y (year 17)', async () => {
    const h = makeReportHost({ readers });
    await h.call('init', {});
    const info = await h.load('microsoft.csv', STOCKS);
    const f = info.report!.findings.find((x) => x.kind === 'unparsed_dates')!;
    expect(f.fix?.options).toEqual({ dateformat: '%d-%b-%y' });
    expect(f.message).toContain('00–68 → 2000–2068');
    const fixed = await h.call('reread', { name: info.name, options: f.fix!.options });
    if (!fixed.ok) throw new Error(fixed.message);
    expect(await h.rows(`SELECT min(year("Date")), max(year("Date")) FROM "${info.name}"`, text)).toEqual([['2017', '2018']]);
  });

  it('keeps four-digit years of the 1800s with %Y (a plausible year is not refused)', async () => {
    const h = makeReportHost({ readers });
    await h.call('init', {});
    const info = await h.load('parish.csv', `entry,baptised\n${lines(20, (i) => `${i},${String(i + 1).padStart(2, '0')}-${mon[i % 12]}-${1851 + i}`)}\n`);
    expect(info.report!.findings.find((x) => x.kind === 'unparsed_dates')?.fix?.options).toEqual({ dateformat: '%d-%b-%Y' });
  });

  it('refuses a re-read that writes implausible years or loses values, and passes one that keeps them (both directions)', async () => {
    const engine = await NodeEngine.open();
    const path = '/dataseer/stocks.csv';
    await engine.registerBlob(path, new Blob([STOCKS]));
    const read = { encoding: 'utf-8' as const, tsv: false, fullSample: false };
    await engine.query(`CREATE TABLE t AS SELECT * FROM ${readCsvSql(path, read)}`);
    const before = await columnTypes(engine, 't');
    const reader = readerFor(engine, path, read);
    const check = async (o: CsvReadOverrides) => damageOf(engine, 't', reader, o, before, await reader.describe(o));
    expect(await check({ dateformat: '%d-%b-%Y' })).toMatch(/"Date" would get years from 17 to 18/);
    expect(await check({ dateformat: '%d-%b-%y' })).toBeUndefined();
    // A type that turns every "Open" price into a whole number changes values the first read had right.
    expect(await check({ types: { Open: 'BIGINT' } })).toMatch(/values of "Open" would change/);
    // A type the text cannot take: the read fails, and a fix that cannot be compared is not offered.
    expect(await check({ types: { Date: 'DATE' } })).toMatch(/could not compare/);
  });

  it('never offers a header cell in the first row as a missing value, even when the layout was not found', async () => {
    const engine = await NodeEngine.open();
    const path = '/dataseer/station.csv';
    await engine.registerBlob(path, new Blob([`station,Madrid\nFecha,Inclinada\n${lines(20, (i) => `2021-03-${String(i + 1).padStart(2, '0')},${12 + i}.5`)}\n`]));
    const read = { encoding: 'utf-8' as const, tsv: false, fullSample: false };
    await engine.query(`CREATE TABLE t AS SELECT * FROM ${readCsvSql(path, read)}`);
    const before = await columnTypes(engine, 't');
    const finding: LoadFinding<CsvReadOverrides> = { kind: 'mixed_types', columns: ['Madrid'], message: '"Madrid" is mostly numbers mixed with text ("Inclinada" ×1).', fix: { label: 'Read "Inclinada" as missing', options: { nullstr: ['', 'Inclinada'] } } };
    const [out] = await verified(engine, 't', readerFor(engine, path, read), before, [finding]);
    expect(out!.fix).toBeUndefined();
    expect(out!.message).toContain('"Inclinada" is in the first row, where a header cell would be');
  });

  it('offers no decimal comma for lists of codes in a comma-delimited file (country-codes "2,2")', async () => {
    const h = makeReportHost({ readers });
    await h.call('init', {});
    const info = await h.load('country-codes.csv', `name,numeric,Dial\n${lines(20, (i) => `C${i},${100 + i},${i % 5 === 0 ? '"2,2"' : i % 7 === 0 ? '"1,5"' : 30 + i}`)}\n`);
    expect(info.report!.findings.filter((x) => x.kind === 'decimal_comma')).toEqual([]);
    expect(info.columns.find((c) => c.name === 'Dial')?.type).toBe('VARCHAR');
  });

  it('still offers the decimal comma of a ";" file, and the re-read keeps every value', async () => {
    const h = makeReportHost({ readers });
    await h.call('init', {});
    const info = await h.load('umsatz.csv', `Monat;Umsatz\n${lines(12, (i) => `2022-${String(i + 1).padStart(2, '0')}-01;${1500 + i},${i % 10}5`)}\n`);
    const f = info.report!.findings.find((x) => x.kind === 'decimal_comma')!;
    expect(f.fix?.options).toEqual({ decimal_separator: ',' });
    const fixed = await h.call('reread', { name: info.name, options: f.fix!.options });
    if (!fixed.ok) throw new Error(fixed.message);
    expect(await h.rows(`SELECT "Umsatz" FROM "${info.name}" LIMIT 2`, text)).toEqual([['1500.05'], ['1501.15']]);
  });
});

describe('layout first', { timeout: 120_000 }, () => {
  it('finds World Bank metadata lines above the header and skips them (blank lines counted)', async () => {
    const h = makeReportHost({ readers });
    await h.call('init', {});
    const wb = `"Data Source","World Development Indicators",\n\n"Last Updated Date","2024-06-28",\n\n"Country Name","Country Code","Indicator Name","Indicator Code","2019","2020",\n${lines(12, (i) => `"Country ${i}","C${i}","Population, total","SP.POP.TOTL","${5000 + i}","${5100 + i}",`)}\n`;
    const info = await h.load('API_SP.POP.TOTL_DS2_en_csv_v2.csv', wb);
    const f = info.report!.findings[0]!;
    expect(f.kind).toBe('title_line');
    expect(f.fix?.options).toEqual({ skip: 4, header: true });
    const fixed = await h.call('reread', { name: info.name, options: f.fix!.options });
    if (!fixed.ok) throw new Error(fixed.message);
    expect(fixed.dataset.columns.slice(0, 6).map((c) => `${c.name} ${c.type}`)).toEqual(['Country Name VARCHAR', 'Country Code VARCHAR', 'Indicator Name VARCHAR', 'Indicator Code VARCHAR', '2019 BIGINT', '2020 BIGINT']);
    expect(fixed.dataset.rowCount).toBe(12);
  });

  it('reads a space-delimited file without a header as columns, not one text column', async () => {
    const h = makeReportHost({ readers });
    await h.call('init', {});
    const info = await h.load('log.txt', `${lines(20, (i) => `${i + 1} ${(20 + i * 0.1).toFixed(1)} ok`)}\n`);
    const f = info.report!.findings.find((x) => x.kind === 'delimiter')!;
    expect(f.fix?.options).toEqual({ delim: ' ', header: false });
    const fixed = await h.call('reread', { name: info.name, options: f.fix!.options });
    if (!fixed.ok) throw new Error(fixed.message);
    expect(fixed.dataset.columns.map((c) => c.type)).toEqual(['BIGINT', 'DOUBLE', 'VARCHAR']);
  });

  it('never offers a header cell as a missing value: station lines, then one read with skip and the decimal comma', async () => {
    const h = makeReportHost({ readers });
    await h.call('init', {});
    const station = `Estación;Madrid;;\nLatitud;40,45;;\n\nFecha;Global;Difusa;Inclinada\n${lines(20, (i) => `${String(i + 1).padStart(2, '0')}/03/2021;${10 + i},5;3,${i};12,${i}`)}\n`;
    const info = await h.load('radiasol_diaria.csv', station);
    const findings = info.report!.findings;
    expect(findings[0]!.kind).toBe('title_line');
    const nulls = findings.flatMap((f) => (f.fix?.options as CsvReadOverrides | undefined)?.nullstr ?? []);
    expect(nulls).not.toContain('Inclinada');
    const all = info.report!.applyAll!;
    expect(all.options).toEqual({ skip: 3, header: true, decimal_separator: ',' });
    const fixed = await h.call('reread', { name: info.name, options: all.options });
    if (!fixed.ok) throw new Error(fixed.message);
    expect(fixed.dataset.columns.map((c) => `${c.name} ${c.type}`)).toEqual(['Fecha DATE', 'Global DOUBLE', 'Difusa DOUBLE', 'Inclinada DOUBLE']);
    expect(fixed.dataset.rowCount).toBe(20);
  });
});

describe('fixes combine', { timeout: 120_000 }, () => {
  it('an ONS table: title lines, "[x]" and "[c]" in two columns, all in one read', async () => {
    const h = makeReportHost({ readers });
    await h.call('init', {});
    const ons = `Table 3: Deaths registered by area\nSource: Office for National Statistics\nArea code,Area name,2021,2022\n${lines(15, (i) => `E0800000${i},Area ${i},${i === 4 ? '[x]' : 1200 + i},${i === 9 ? '[c]' : 1250 + i}`)}\n`;
    const info = await h.load('ons.csv', ons);
    const all = info.report!.applyAll!;
    expect(all.options).toMatchObject({ skip: 2, header: true });
    expect([...((all.options as CsvReadOverrides).nullstr ?? [])].sort()).toEqual(['', '[c]', '[x]']);
    const fixed = await h.call('reread', { name: info.name, options: all.options });
    if (!fixed.ok) throw new Error(fixed.message);
    expect(fixed.dataset.columns.map((c) => c.type)).toEqual(['VARCHAR', 'VARCHAR', 'BIGINT', 'BIGINT']);
    expect(fixed.dataset.report!.findings).toEqual([]);
  });

  it('combine: two date forms cannot be read together, the second is left out', () => {
    expect(combine([{ dateformat: '%d-%b-%y' }, { nullstr: ['', 'NA'] }, { dateformat: '%m/%d/%Y' }])).toEqual({ options: { dateformat: '%d-%b-%y', nullstr: ['', 'NA'] }, count: 2 });
  });

  it('a chain of fixes is one state: a reload right after the second fix has both, not the first one\'s snapshot', async () => {
    const text2 = `locality,votes,turnout\n${lines(12, (i) => `Place ${i},"${i + 1},${String(100 + i).padStart(3, '0')}",${i === 4 ? 'NA' : 900 + i}`)}\n`;
    const first = makeReportHost({ readers, snapshotIdleMs: 0 });
    await first.call('init', {});
    const info = await first.load('turnout.csv', text2);
    const na = info.report!.findings.find((f) => f.kind === 'placeholders')!;
    const one = await first.call('reread', { name: info.name, options: na.fix!.options });
    if (!one.ok) throw new Error(one.message);
    await first.host.snapshotsSettled();
    const th = one.dataset.report!.findings.find((f) => f.kind === 'thousands')!;
    const two = await first.call('reread', { name: info.name, options: th.fix!.options });
    if (!two.ok) throw new Error(two.message);
    // Reloaded before the second fix's snapshot is written.
    const second = makeReportHost({ readers });
    const init = await second.call('init', {});
    const listed = await second.call('list', {});
    const back = listed.find((d) => d.name === info.name) ?? init.datasets.find((d) => d.name === info.name);
    expect(back?.columns.map((c) => c.type)).toEqual(['VARCHAR', 'BIGINT', 'BIGINT']);
    expect(back?.report?.readOptions).toEqual(th.fix!.options);
  });
});

describe('Excel placeholders', { timeout: 120_000 }, () => {
  it('are one finding per sheet with one fix, however many columns', async () => {
    const { xlsxBytes } = (await import(/* @vite-ignore */ new URL('../../../scripts/make-bad-fixtures.mjs', import.meta.url).href)) as {
      xlsxBytes(sheets: { name: string; rows: readonly (readonly (string | number | null)[])[] }[]): Uint8Array;
    };
    const years = Array.from({ length: 8 }, (_, i) => String(2010 + i));
    const rows = [['Country', ...years], ...Array.from({ length: 12 }, (_, r) => [`Country ${r}`, ...years.map((_, c) => ((r + c) % 5 === 0 ? '. .' : (r + c) % 7 === 0 ? 'xxx' : 100 + r * 10 + c))])];
    const h = makeReportHost({ readers });
    await h.call('init', {});
    const info = await h.load('sipri.xlsx', xlsxBytes([{ name: 'Milex', rows }]));
    const ph = info.report!.findings.filter((f: LoadFinding) => f.kind === 'placeholders');
    expect(ph).toHaveLength(1);
    expect(ph[0]!.columns).toHaveLength(8);
    const fixed = await h.call('reread', { name: info.name, options: ph[0]!.fix!.options });
    if (!fixed.ok) throw new Error(fixed.message);
    expect(fixed.dataset.columns.slice(1).every((c) => c.type === 'BIGINT')).toBe(true);
    expect(fixed.dataset.columns.map((c) => c.name)).toEqual(['Country', ...years]);
  });
});

describe('Apply all for sheets', () => {
  it('merges the value fixes, but makes no day/month choice and stands aside for a layout fix', async () => {
    const { tableApplyAll } = await import('./tableReport');
    const a: LoadFinding = { kind: 'placeholders', columns: ['x'], message: '', fix: { label: 'a', options: { types: { x: 'BIGINT' }, missing: { x: ['..'] } } } };
    const b: LoadFinding = { kind: 'numbers_as_text', columns: ['y'], message: '', fix: { label: 'b', options: { types: { y: 'DOUBLE' } } } };
    const d: LoadFinding = { kind: 'ambiguous_dates', columns: ['d'], message: '', fix: { label: 'm', options: { types: { d: 'DATE' }, dateformats: { d: '%m/%d/%Y' } } }, alternatives: [{ label: 'd', options: { types: { d: 'DATE' }, dateformats: { d: '%d/%m/%Y' } } }] };
    expect(tableApplyAll([a, b, d]).applyAll?.options).toEqual({ types: { x: 'BIGINT', y: 'DOUBLE' }, missing: { x: ['..'] } });
    expect(tableApplyAll([a, d]).applyAll).toBeUndefined();
    expect(tableApplyAll([{ kind: 'title_line', columns: [], message: '', fix: { label: 't', options: { headerRow: 3 } } }, a, b]).applyAll).toBeUndefined();
  });
});
