import { describe, expect, it } from 'vitest';
import { readCsvSql } from '../engine/csvOptions';
import { briefError, ingestCsv } from './csvIngest';
import { NodeEngine } from '../testing/nodeEngine';
import { rowsOf } from '../engine/duckdbEngine';

describe('csvIngest', { timeout: 60_000 }, () => {
  it('builds the read_csv call with the chosen options', () => {
    expect(readCsvSql("it's.csv", { encoding: 'latin-1', tsv: true, fullSample: true })).toBe(
      "read_csv('it''s.csv', encoding = 'latin-1', null_padding = true, delim = '\\t', sample_size = -1)",
    );
  });
  it('keeps the cause of a DuckDB error and drops the fix list', () => {
    const msg = 'Invalid Input Error: Error when sniffing file "x.csv".\nIt was not possible to automatically detect the CSV parsing dialect\nThe search space used was:\nDelimiter Candidates: x\nPossible fixes:\n* Set delim';
    expect(briefError(new Error(msg))).toBe('Error when sniffing file "x.csv". It was not possible to automatically detect the CSV parsing dialect');
  });
  it('creates the table atomically and drops the registration', async () => {
    const engine = await NodeEngine.open();
    const ok = await ingestCsv({ engine, blob: new Blob(['a;b\n1;x\n']), fileName: 'semi.csv', tsv: false, encoding: { encoding: 'utf-8', bom: 0 }, table: 'semi', path: '/dataseer/src_1.csv' });
    expect(ok).toMatchObject({ ok: true, warnings: [] });
    expect(rowsOf(await engine.query('SELECT * FROM "semi"'))).toEqual([{ a: 1, b: 'x' }]);
    // (`semi` is a reserved word: generated SQL quotes every name.)
    // A file DuckDB cannot make sense of fails with the file's name and leaves no table.
    const bad = await ingestCsv({ engine, blob: new Blob(['a,"b\n1,"2\n"x']), fileName: 'broken.csv', tsv: false, encoding: { encoding: 'utf-8', bom: 0 }, table: 'broken', path: '/dataseer/src_2.csv' });
    if (bad.ok) {
      expect(rowsOf(await engine.query("SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'broken'"))).toEqual([{ n: 1 }]);
    } else {
      expect(bad.message).toMatch(/^Could not read broken\.csv as CSV: /);
      expect(rowsOf(await engine.query("SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'broken'"))).toEqual([{ n: 0 }]);
    }
  });
});

describe('quoted newlines', { timeout: 60_000 }, () => {
  // DuckDB-WASM's reader refuses this combination on some files (native DuckDB 1.5 reads them):
  // "The parallel scanner does not support null_padding in conjunction with quoted new lines".
  it('retries with one scanner when the parallel one refuses null_padding with quoted newlines', async () => {
    const engine = await NodeEngine.open();
    const send = engine.send.bind(engine);
    const sent: string[] = [];
    engine.send = async (sql: string) => {
      sent.push(sql);
      if (sql.includes('read_csv') && !sql.includes('parallel = false')) {
        throw new Error('Invalid Input Error: The parallel scanner does not support null_padding in conjunction with quoted new lines. Please disable the parallel csv reader with parallel=false');
      }
      return send(sql);
    };
    const text = 'id,note\n1,"two\nlines"\n2,"one line"\n';
    const r = await ingestCsv({ engine, blob: new Blob([text]), fileName: 'notes.csv', tsv: false, encoding: { encoding: 'utf-8', bom: 0 }, table: 'notes', path: '/dataseer/notes.csv' });
    expect(r).toMatchObject({ ok: true, warnings: [] });
    expect(sent.filter((s) => s.includes('read_csv'))).toHaveLength(2);
    expect(rowsOf(await engine.query('SELECT id, note FROM notes ORDER BY id'))).toEqual([{ id: 1, note: 'two\nlines' }, { id: 2, note: 'one line' }]);
  });
});

describe('the engine after its set-up', { timeout: 60_000 }, () => {
  it('reads only registered files and cannot be unlocked', async () => {
    const engine = await NodeEngine.open();
    await engine.registerBlob('/dataseer/ok.csv', new Blob(['a\n1\n']));
    await engine.registerBlob('elsewhere.csv', new Blob(['a\n1\n']));
    expect(rowsOf(await engine.query("SELECT count(*) AS n FROM read_csv('/dataseer/ok.csv')"))).toEqual([{ n: 1 }]);
    for (const sql of [
      "SELECT * FROM read_csv('elsewhere.csv')",
      "SELECT * FROM read_text('http://127.0.0.1:9/leak')",
      "ATTACH 'http://127.0.0.1:9/x.db' AS x",
      'SET enable_external_access = true',
      'SET lock_configuration = false',
      "COPY (SELECT 1) TO 'http://127.0.0.1:9/out.csv'",
    ]) {
      await expect(engine.query(sql), sql).rejects.toThrow();
    }
  });
});

describe('a few bad bytes in a UTF-8 file', { timeout: 60_000 }, () => {
  it('keeps the UTF-8 rows and replaces only the bad bytes', async () => {
    const engine = await NodeEngine.open();
    const enc = new TextEncoder();
    const head = enc.encode(`city,n\n${'Zürich,1\n'.repeat(50_000)}`);
    const bad = new Uint8Array([0x42, 0x61, 0xff, 0x64, 0x2c, 0x32, 0x0a]); // "Ba\xFFd,2\n"
    const tail = enc.encode('Café,3\n');
    const r = await ingestCsv({ engine, blob: new Blob([head, bad, tail]), fileName: 'cities.csv', tsv: false, encoding: { encoding: 'utf-8', bom: 0 }, table: 'cities', path: '/dataseer/cities.csv' });
    expect(r).toMatchObject({ ok: true, warnings: ['cities.csv has 1 invalid UTF-8 byte sequence; each was replaced with \uFFFD and the rest was read as UTF-8.'] });
    // The load report's later checks read the repaired bytes, as the table was.
    expect(r.ok && (await r.source.text()).endsWith('Ba\uFFFDd,2\nCafé,3\n')).toBe(true);
    expect(rowsOf(await engine.query("SELECT city, n FROM cities WHERE n > 1 ORDER BY n"))).toEqual([{ city: 'Ba\uFFFDd', n: 2 }, { city: 'Café', n: 3 }]);
    expect(rowsOf(await engine.query("SELECT count(*) AS z FROM cities WHERE city = 'Zürich'"))).toEqual([{ z: 50_000 }]);
  });

  it('still reads a Latin-1 file (no valid UTF-8 beyond ASCII) as Latin-1', async () => {
    const engine = await NodeEngine.open();
    const ascii = new TextEncoder().encode(`city,n\n${'Paris,1\n'.repeat(50_000)}`);
    const latin1 = new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x2c, 0x32, 0x0a]); // "Caf\xE9,2\n"
    const r = await ingestCsv({ engine, blob: new Blob([ascii, latin1]), fileName: 'l1.csv', tsv: false, encoding: { encoding: 'utf-8', bom: 0 }, table: 'l1', path: '/dataseer/l1.csv' });
    expect(r.ok && r.warnings[0]).toMatch(/read it as Latin-1/);
    expect(rowsOf(await engine.query('SELECT city FROM l1 WHERE n = 2'))).toEqual([{ city: 'Café' }]);
  });
});

describe('briefError on a huge cell', () => {
  it('quotes an excerpt of the line, not 10 MB', () => {
    const msg = `Invalid Input Error: CSV Error on Line: 2\nOriginal Line: ${'x'.repeat(10_000_000)}\nValue could not be converted`;
    const out = briefError(new Error(msg));
    expect(out.length).toBeLessThan(400);
    expect(out).toContain('(10,000,015 characters)');
  });
});
