import { describe, expect, it } from 'vitest';
import { formatToolOutputForModel, toJsonText, toolErrorText } from './toolOutput';

describe('toolErrorText', () => {
  it('prefixes Error: once and carries the cause', () => {
    expect(toolErrorText(new Error('Binder Error: column "x" not found'))).toBe('Error: Binder Error: column "x" not found');
    expect(toolErrorText('Error: already prefixed')).toBe('Error: already prefixed');
    expect(toolErrorText({ type: 'NameError', message: 'x' })).toBe('Error: {"type":"NameError","message":"x"}');
    expect(toolErrorText(new Error(''))).toBe('Error: Error');
  });
});

describe('toJsonText', () => {
  it('serialises bigint, dates, typed arrays and non-finite numbers', () => {
    expect(toJsonText({ a: 12n, b: 2n ** 70n, c: new Date('2024-01-02T00:00:00Z'), d: new Int32Array([1, 2]), e: Number.NaN })).toBe(
      '{"a":12,"b":"1180591620717411303424","c":"2024-01-02T00:00:00.000Z","d":[1,2],"e":"NaN"}',
    );
  });
});

describe('formatToolOutputForModel', () => {
  const table = (n: number) => ({
    columns: [{ name: 'id', type: 'INTEGER' }, { name: 'label', type: 'VARCHAR' }],
    rows: Array.from({ length: n }, (_, i) => [i, `row number ${i}`]),
    row_count: n,
    truncated: false,
    elapsed_ms: 3,
  });

  it('passes small outputs through unchanged', () => {
    const out = formatToolOutputForModel(table(3));
    expect(out.truncated).toBe(false);
    expect(JSON.parse(out.text)).toEqual(table(3));
  });

  it('drops rows from the end to fit, saying how many are shown', () => {
    const out = formatToolOutputForModel(table(5000), 2000);
    expect(out.truncated).toBe(true);
    expect(out.text.length).toBeLessThanOrEqual(2000);
    const parsed = JSON.parse(out.text) as { rows: unknown[][]; note: string; row_count: number };
    expect(parsed.row_count).toBe(5000);
    expect(parsed.rows.length).toBeGreaterThan(10);
    expect(parsed.rows[0]).toEqual([0, 'row number 0']);
    expect(parsed.note).toBe(`showing the first ${parsed.rows.length} of 5000 rows; the user sees them all`);
    // one more row would not have fitted
    const more = JSON.stringify({ ...table(5000), rows: table(5000).rows.slice(0, parsed.rows.length + 1), note: parsed.note });
    expect(more.length).toBeGreaterThan(2000);
  });

  it('keeps the head and tail of long stdout', () => {
    const stdout = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
    const out = formatToolOutputForModel({ stdout, result: { mean: 1.5 }, elapsed_ms: 9 }, 3000);
    expect(out.truncated).toBe(true);
    expect(out.text.length).toBeLessThanOrEqual(3000);
    expect(out.text).toContain('line 0');
    expect(out.text).toContain('line 1999');
    expect(out.text).toContain('characters cut');
    expect(out.text).toContain('"mean":1.5');
  });

  it('cuts anything else with a marker', () => {
    const out = formatToolOutputForModel({ blob: 'x'.repeat(10_000) }, 500);
    expect(out.truncated).toBe(true);
    expect(out.text.length).toBeLessThanOrEqual(500);
    expect(out.text).toMatch(/output cut: \d+ characters in total/);
    expect(formatToolOutputForModel('y'.repeat(1000), 200).text).toContain('characters cut');
  });
});
