import { describe, expect, it } from 'vitest';
import { tableFromIPC } from 'apache-arrow';
import { KindTracker, rowsToIPC, type ColumnKind } from './inferredColumns';

function kindOf(values: unknown[]): ColumnKind {
  const tracker = new KindTracker();
  values.forEach((value) => tracker.observe(value));
  return tracker.kind;
}

describe('KindTracker', () => {
  it('settles on the narrowest type that holds every value', () => {
    expect(kindOf([1, null, -2])).toBe('int');
    expect(kindOf([1, 2.5])).toBe('float');
    expect(kindOf([2 ** 60])).toBe('float');
    expect(kindOf([true, null])).toBe('bool');
    expect(kindOf([new Date(0)])).toBe('timestamp');
    expect(kindOf([1, true])).toBe('string');
    expect(kindOf([1, 'x'])).toBe('string');
    expect(kindOf([{ a: 1 }])).toBe('string');
    expect(kindOf([null, undefined])).toBe('string');
  });
});

describe('rowsToIPC', () => {
  it('encodes every kind, nulls included, exactly', () => {
    const rows: unknown[][] = [
      [-1, 0.5, true, new Date(Date.UTC(2024, 1, 29, 12)), 'é'],
      [null, null, null, null, null],
      [-(2 ** 53 - 1), -3, false, new Date(0), { a: [1] }],
      [2 ** 53 - 1, 1e300, true, null, 42],
    ];
    const kinds: ColumnKind[] = ['int', 'float', 'bool', 'timestamp', 'string'];
    const plan = kinds.map((kind) => ({ name: kind, kind }));
    const table = tableFromIPC(rowsToIPC(plan, rows, (row, column) => row[column]));
    expect(table.numRows).toBe(4);
    expect(table.getChild('int')!.toArray()).toEqual(BigInt64Array.from([-1n, 0n, -(2n ** 53n - 1n), 2n ** 53n - 1n]));
    expect([...table.getChild('int')!].map((v) => v === null)).toEqual([false, true, false, false]);
    expect([...table.getChild('float')!]).toEqual([0.5, null, -3, 1e300]);
    expect([...table.getChild('bool')!]).toEqual([true, null, false, true]);
    expect([...table.getChild('timestamp')!]).toEqual([Date.UTC(2024, 1, 29, 12), null, 0, null]);
    expect(String(table.getChild('timestamp')!.type)).toBe('Timestamp<MICROSECOND>');
    expect([...table.getChild('string')!]).toEqual(['é', null, '{"a":[1]}', '42']);
  });

  it('gives a valid empty stream for zero rows', () => {
    const table = tableFromIPC(rowsToIPC([{ name: 'a', kind: 'int' }], [], () => null));
    expect(table.numRows).toBe(0);
    expect(table.schema.fields.map((f) => f.name)).toEqual(['a']);
  });
});
