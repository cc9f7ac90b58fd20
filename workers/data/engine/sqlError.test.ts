import { describe, expect, it } from 'vitest';
import { briefSqlError } from './sqlError';

describe('briefSqlError', () => {
  it('unwraps DuckDB JSON errors', () => {
    expect(briefSqlError(new Error('{"exception_type":"Parser","exception_message":"syntax error at or near \\"SELEC\\"","position":"0"}'))).toBe(
      'Parser Error: syntax error at or near "SELEC"',
    );
  });
  it('keeps one caret block', () => {
    const msg = 'Parser Error: bad\n\nLINE 1: SELEC 1\n        ^\n\nLINE 1: SELEC 1\n        ^';
    expect(briefSqlError(new Error(msg))).toBe('Parser Error: bad\n\nLINE 1: SELEC 1\n        ^');
    expect(briefSqlError('plain')).toBe('plain');
  });
});

describe('briefSqlError: excerpts and extensions', () => {
  it('quotes at most a short excerpt of a cell, with its length', () => {
    const cell = 'a'.repeat(10_000_000);
    const out = briefSqlError(new Error(`Conversion Error: Could not convert string '${cell}' to INT32`));
    expect(out.length).toBeLessThan(200);
    expect(out).toBe(`Conversion Error: Could not convert string '${'a'.repeat(80)}…' (10,000,000 characters) to INT32`);
    // Short quotes stay whole.
    expect(briefSqlError(new Error("Conversion Error: Could not convert string 'abc' to INT32"))).toBe("Conversion Error: Could not convert string 'abc' to INT32");
  });

  it('says what needs ICU instead of a raw autoloading error (as DuckDB-WASM words it without ICU)', () => {
    const raw = "Extension Autoloading Error: An error occurred while trying to automatically install the required extension 'icu':\nExtension \"/x/icu.duckdb_extension\" not found.";
    expect(briefSqlError(new Error(raw))).toMatch(/^This SQL needs DuckDB's ICU extension .* AT TIME ZONE 'UTC' and current_setting\('TimeZone'\) work/);
    expect(briefSqlError(new Error('Catalog Error: Setting with name "timezone" is not in the catalog, but it exists in the icu extension.'))).toMatch(/ICU extension/);
    expect(briefSqlError(new Error('Catalog Error: Table Function with name "read_json" is not in the catalog, but it exists in the json extension.'))).toMatch(/needs DuckDB's json extension/);
  });
});
