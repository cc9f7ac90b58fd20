/**
 * The dialect found once on a file's first lines by DuckDB's sniffer (csvDialect.ts), given to
 * every later read; a read it does not fit falls back to DuckDB's own detection (csvIngest.ts).
 */
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../engine/duckdbEngine';
import { readCsvSql } from '../engine/csvOptions';
import { NodeEngine } from '../testing/nodeEngine';
import { DIALECT_SAMPLE_BYTES, sampleEnd, sniffDialect, sniffSchema } from './csvDialect';
import { ingestCsv } from './csvIngest';

const bytes = (s: string) => new TextEncoder().encode(s);
const utf8 = { encoding: 'utf-8' as const, tsv: false, fullSample: false };

describe('sampleEnd', () => {
  it('takes the whole file when it fits, else whole lines, and needs a header and a row', () => {
    expect(sampleEnd(bytes('a,b\n1,2'), 7)).toBe(7);
    expect(sampleEnd(bytes('a,b\n1,2\n3,'), 100)).toBe(8);
    expect(sampleEnd(bytes('a,b\r\n1,2\r\n3'), 100)).toBe(10);
    expect(sampleEnd(bytes('a,b\r1,2\r3'), 100)).toBe(8);
    expect(sampleEnd(bytes('a,b\n1,2'), 100)).toBeUndefined();
    expect(sampleEnd(bytes('a,b,c,d'), 100)).toBeUndefined();
  });
});

describe('sniffDialect', { timeout: 120_000 }, () => {
  it('finds what DuckDB finds: delimiter, quote, escape, line ending', async () => {
    const engine = await NodeEngine.open();
    const cases: [string, string, object][] = [
      ['semi', "a;b;c\n1;'x;y';2\n3;'z';4\n", { delim: ';', quote: "'", escape: "'", newLine: '\\n' }],
      ['tab', 'a\tb\r\n1\tx\r\n', { delim: '\t', newLine: '\\r\\n' }],
      ['backslash', 'a,b\n1,"x\\"y"\n2,"z"\n', { delim: ',', quote: '"', escape: '\\' }],
      // No quotes in the sample: RFC 4180's, which read an unquoted file the same.
      ['plain', 'a,b\n1,2\n', { delim: ',', quote: '"', escape: '"' }],
    ];
    for (const [name, text, expected] of cases) {
      expect(await sniffDialect(engine, new Blob([text]), `/dataseer/${name}_head.csv`, utf8)).toMatchObject(expected);
    }
    // UTF-16 is left to DuckDB's detection (its line breaks are two bytes).
    expect(await sniffDialect(engine, new Blob(['a,b\n1,2\n']), '/dataseer/u16_head.csv', { ...utf8, encoding: 'utf-16' })).toBeUndefined();
  });

  it('gives every read of the file the dialect, unless a fix sets the delimiter', () => {
    const dialect = { delim: ';', quote: '"', escape: '"', newLine: '\\n' };
    expect(readCsvSql('/dataseer/f.csv', { ...utf8, dialect })).toBe("read_csv('/dataseer/f.csv', encoding = 'utf-8', null_padding = true, delim = ';', quote = '\"', escape = '\"', new_line = '\\n')");
    expect(readCsvSql('/dataseer/f.csv', { ...utf8, dialect, overrides: { delim: ' ' } })).toBe("read_csv('/dataseer/f.csv', encoding = 'utf-8', null_padding = true, delim = ' ')");
    expect(readCsvSql('/dataseer/f.tsv', { ...utf8, tsv: true, dialect: { ...dialect, delim: '\t' } })).toBe("read_csv('/dataseer/f.tsv', encoding = 'utf-8', null_padding = true, delim = '\\t', quote = '\"', escape = '\"', new_line = '\\n')");
  });
});

describe('a load with the dialect given', { timeout: 300_000 }, () => {
  it('reads a quoted field past the sniffed lines as one field (DuckDB alone fails on it and re-sniffs the whole file)', async () => {
    const engine = await NodeEngine.open();
    // The first 128 KB have no quotes; a field far below has a quoted comma.
    const lines = ['id,name,score'];
    for (let i = 0, size = 0; size < DIALECT_SAMPLE_BYTES * 2; i++) {
      const line = `${i},n${i % 13},${i % 7}`;
      lines.push(line);
      size += line.length + 1;
    }
    const n = lines.length - 1;
    lines.push(`${n},"last, first",1`);
    const blob = new Blob([`${lines.join('\n')}\n`]);
    const r = await ingestCsv({ engine, blob, fileName: 'late.csv', tsv: false, encoding: { encoding: 'utf-8', bom: 0 }, table: 'late', path: '/dataseer/late.csv' });
    expect(r.ok && r.read.dialect).toMatchObject({ delim: ',', quote: '"' });
    expect(rowsOf(await engine.query(`SELECT name FROM late WHERE id = ${n}`))).toEqual([{ name: 'last, first' }]);
    expect(rowsOf(await engine.query('SELECT count(*)::DOUBLE AS n FROM late'))[0]).toEqual({ n: n + 1 });
    // The control: DuckDB's own detection, over its sample, finds no quotes and fails on that line.
    await engine.registerBlob('/dataseer/late_again.csv', blob);
    await expect(engine.query(`SELECT count(*) FROM ${readCsvSql('/dataseer/late_again.csv', utf8)}`)).rejects.toThrow(/CSV Error|Could not convert/);
  });
});

describe('sniffSchema (a view read without detection at each bind, issue 37)', { timeout: 300_000 }, () => {
  const files: [string, string][] = [
    ['header, day-first dates, timestamps, text, blanks', 'id,day,at,name,score\n1,13/01/2024,2024-01-13 10:00:00,ann,1.5\n2,14/02/2024,2024-02-14 11:30:00,,2\n3,15/03/2024,2024-03-15 12:45:00,"b, c",\n'],
    ['no header', '1,2,3\n4,5,6\n7,8,9\n'],
    ['semicolons, a quoted field', 'a;b\n1;"x;y"\n2;z\n'],
  ];
  it('reads every file as DuckDB detecting it does: the same columns, types and rows', async () => {
    const engine = await NodeEngine.open();
    for (const [name, text] of files) {
      const path = `/dataseer/${name.replace(/\W+/g, '_')}.csv`;
      await engine.registerBlob(path, new Blob([text]));
      const schema = await sniffSchema(engine, path, utf8);
      if (!schema) throw new Error(`no schema for ${name}`);
      const pinned = readCsvSql(path, { ...utf8, schema });
      expect(pinned).toContain('auto_detect = false');
      const detected = readCsvSql(path, utf8);
      expect(rowsOf(await engine.query(`DESCRIBE SELECT * FROM ${pinned}`)), name).toEqual(rowsOf(await engine.query(`DESCRIBE SELECT * FROM ${detected}`)));
      expect(rowsOf(await engine.query(`SELECT * FROM ${pinned}`)), name).toEqual(rowsOf(await engine.query(`SELECT * FROM ${detected}`)));
    }
    const dates = await sniffSchema(engine, '/dataseer/header_day_first_dates_timestamps_text_blanks.csv', utf8);
    expect(dates).toMatchObject({ header: true, skip: 0, dateformat: '%d/%m/%Y', dialect: { delim: ',' } });
    expect(dates?.columns.map((c) => c.type)).toEqual(['BIGINT', 'DATE', 'TIMESTAMP', 'VARCHAR', 'DOUBLE']);
    expect((await sniffSchema(engine, '/dataseer/no_header.csv', utf8))?.header).toBe(false);
    // A read with a load report's fix keeps DuckDB's detection of what the fix leaves open.
    expect(await sniffSchema(engine, '/dataseer/no_header.csv', { ...utf8, overrides: { header: true } })).toBeUndefined();
  });
});
