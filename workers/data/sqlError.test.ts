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
