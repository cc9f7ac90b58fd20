import { describe, expect, it } from 'vitest';
import { detectEncoding, detectFormat } from './sniff';

const bytes = (s: string) => new TextEncoder().encode(s);
const latin1 = (s: string) => Uint8Array.from([...s].map((c) => c.charCodeAt(0)));

describe('detectEncoding', () => {
  it('reads BOMs', () => {
    expect(detectEncoding(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61]))).toEqual({ encoding: 'utf-8', bom: 3 });
    expect(detectEncoding(Uint8Array.from([0xff, 0xfe, 0x61, 0]))).toEqual({ encoding: 'utf-16le', bom: 2 });
    expect(detectEncoding(Uint8Array.from([0xfe, 0xff, 0, 0x61]))).toEqual({ encoding: 'utf-16be', bom: 2 });
  });
  it('tells UTF-8 from Latin-1', () => {
    expect(detectEncoding(bytes('name,city\nJosé,München\n')).encoding).toBe('utf-8');
    expect(detectEncoding(latin1('name,city\nJos\xe9,M\xfcnchen\n')).encoding).toBe('latin-1');
  });
  it('does not call a UTF-8 character cut by the sample end invalid', () => {
    const b = bytes('a,é');
    expect(detectEncoding(b.subarray(0, b.length - 1)).encoding).toBe('utf-8');
  });
  it('spots BOM-less UTF-16', () => {
    const le = Uint8Array.from([...'a,b\n1,2\n'].flatMap((c) => [c.charCodeAt(0), 0]));
    expect(detectEncoding(le)).toEqual({ encoding: 'utf-16le', bom: 0 });
  });
});

describe('detectFormat', () => {
  it('goes by extension for text', () => {
    expect(detectFormat('a.csv', bytes('x,y\n1,2'))).toEqual({ ok: true, format: 'csv' });
    expect(detectFormat('a.TSV', bytes('x\ty\n1\t2'))).toEqual({ ok: true, format: 'tsv' });
    expect(detectFormat('a.jsonl', bytes('{"a":1}\n{"a":2}'))).toEqual({ ok: true, format: 'ndjson' });
  });
  it('sniffs content when the extension says nothing', () => {
    expect(detectFormat('data', bytes('PAR1....'))).toMatchObject({ ok: true, format: 'parquet' });
    expect(detectFormat('data.bin', bytes('ARROW1\0\0'))).toMatchObject({ ok: true, format: 'arrow' });
    expect(detectFormat('book', Uint8Array.from([0x50, 0x4b, 3, 4, 0]))).toMatchObject({ ok: true, format: 'xlsx' });
    expect(detectFormat('x', bytes(' [{"a":1}]'))).toEqual({ ok: true, format: 'json' });
    expect(detectFormat('x', bytes('{"a":1}\n{"a":2}\n'))).toEqual({ ok: true, format: 'ndjson' });
    expect(detectFormat('x', bytes('{\n "a": 1\n}'))).toEqual({ ok: true, format: 'json' });
    expect(detectFormat('x.txt', bytes('a\tb\n1\t2'))).toEqual({ ok: true, format: 'tsv' });
    expect(detectFormat('x.txt', bytes('a;b\n1;2'))).toEqual({ ok: true, format: 'csv' });
  });
  it('refuses a PNG renamed .csv, naming the file and what it is', () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const r = detectFormat('photo.csv', png);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toBe('photo.csv looks like a PNG image, not a data file (its extension says CSV).');
  });
  it('refuses other binary as text, and empty files', () => {
    expect(detectFormat('x.csv', Uint8Array.from([1, 2, 0, 3, 4]))).toMatchObject({ ok: false });
    expect(detectFormat('x.csv', new Uint8Array())).toMatchObject({ ok: false, message: 'x.csv is empty (0 bytes).' });
    expect(detectFormat('x.xls', bytes('whatever'))).toMatchObject({ ok: false });
    expect(detectFormat('x.parquet', bytes('a,b\n1,2'))).toMatchObject({ ok: false });
  });
  it('trusts the bytes over a wrong data extension, with a warning', () => {
    const r = detectFormat('really-parquet.csv', bytes('PAR1xxxx'));
    expect(r).toMatchObject({ ok: true, format: 'parquet' });
    if (r.ok) expect(r.warning).toMatch(/named like CSV but holds Parquet/);
  });
  it('accepts UTF-16 text despite its zero bytes', () => {
    const le = Uint8Array.from([0xff, 0xfe, ...[...'a,b\n1,2\n'].flatMap((c) => [c.charCodeAt(0), 0])]);
    expect(detectFormat('w.csv', le)).toEqual({ ok: true, format: 'csv' });
  });
});
