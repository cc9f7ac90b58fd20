/**
 * Issue 37: a wide table's profile a page of columns at a time (`profile`'s `from`): every column
 * of a 700-column table is reachable in three pages, the last one short, each saying where it starts.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_PROFILE_COLUMNS } from './host';
import { footprintCeiling } from '../engine/memoryBudget';
import { makeReportHost } from '../testing/reportHost';

const LIMIT = 1024 ** 3;

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

function csv(columns: number, rows: number): string {
  const lines = [Array.from({ length: columns }, (_, c) => `c${c + 1}`).join(',')];
  for (let r = 0; r < rows; r++) lines.push(Array.from({ length: columns }, (_, c) => String((r + c) % 5)).join(','));
  return `${lines.join('\n')}\n`;
}

describe('profile pages', { timeout: 300_000 }, () => {
  it('profiles a 700-column table page by page, each page from its first column', async () => {
    const { call } = makeReportHost({ memoryLimitBytes: LIMIT, memoryCeilingBytes: footprintCeiling(LIMIT) });
    await call('init', {});
    const outcome = await call('load', { source: { kind: 'text', text: csv(700, 20), fileName: 'wide.csv' }, options: { loadId: 'w' } });
    if (!outcome.ok) throw new Error(outcome.message);

    const first = await call('profile', { name: 'wide' });
    expect(first.columns).toHaveLength(MAX_PROFILE_COLUMNS);
    expect(first.firstColumn).toBeUndefined();
    expect(first.columns[0]?.name).toBe('c1');

    const second = await call('profile', { name: 'wide', from: 300 });
    expect(second.firstColumn).toBe(300);
    expect(second.columns.map((c) => c.name)).toEqual(Array.from({ length: 300 }, (_, i) => `c${i + 301}`));
    expect(second.columns[0]).toMatchObject({ nulls: 0, distinct: 5 });

    const last = await call('profile', { name: 'wide', from: 600 });
    expect(last.firstColumn).toBe(600);
    expect(last.columns.map((c) => c.name)).toEqual(Array.from({ length: 100 }, (_, i) => `c${i + 601}`));

    // Past the end (or not a whole number): the first page, said as such.
    const beyond = await call('profile', { name: 'wide', from: 5000 });
    expect(beyond.firstColumn).toBeUndefined();
    expect(beyond.columns[0]?.name).toBe('c1');
  });
});
