import { describe, expect, it } from 'vitest';
import { toRunPythonOutput } from './toolOutput';

describe('toRunPythonOutput', () => {
  it('joins streams and flattens a table result', () => {
    const out = toRunPythonOutput(
      [
        { stream: 'stdout', text: 'a\n' },
        { stream: 'stderr', text: 'warn\n' },
        { stream: 'stdout', text: 'b\n' },
      ],
      { ok: true, warnings: [], elapsedMs: 7, result: { kind: 'table', columns: ['x'], rows: [[1]], rowCount: 1, truncated: false } },
    );
    expect(out).toEqual({ stdout: 'a\nb\n[stderr]\nwarn\n', result: { columns: ['x'], rows: [[1]], row_count: 1, truncated: false }, elapsed_ms: 7 });
  });

  it('carries the error and no result on failure', () => {
    const error = { type: 'ValueError', message: 'bad', traceback: 'ValueError: bad' };
    const out = toRunPythonOutput([], { ok: false, error, elapsedMs: 3, restarted: false });
    expect(out).toEqual({ stdout: '', result: null, error, elapsed_ms: 3 });
  });
});
