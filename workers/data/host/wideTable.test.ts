/**
 * Issue 37: the data worker's requests on a wide table loaded as a user would (a CSV file): the
 * load and its report's checks, a page of the grid, the profile with its progress, the agent's
 * profile_data sample. Every statement under a 1 GiB memory_limit (memoryBudget.ts).
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DataEvent, LoadOutcome } from '../../../protocol/data';
import { MAX_PROFILE_COLUMNS } from './host';
import { footprintCeiling } from '../engine/memoryBudget';
import { makeReportHost } from '../testing/reportHost';

const LIMIT = 1024 ** 3;

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

/** A survey-like CSV: integer codes, text answers with placeholders (one column in ten), dates, decimals. */
export function wideCsv(columns: number, rows: number): string {
  const header = Array.from({ length: columns }, (_, c) => `q${c + 1}`).join(',');
  const lines = [header];
  for (let r = 0; r < rows; r++) {
    const cells: string[] = [];
    for (let c = 0; c < columns; c++) {
      const k = c % 10;
      cells.push(
        k === 1 ? (r % 17 === 0 ? 'N/A' : `answer ${(r + c) % 11}`)
        : k === 2 ? `2024-${String((r % 12) + 1).padStart(2, '0')}-${String((r % 28) + 1).padStart(2, '0')}`
        : k === 3 ? ((r * 31 + c) % 1000 / 10).toFixed(1)
        : k === 4 ? (r % 9 === 0 ? '' : String(r % 5))
        : k === 5 ? String(r + c)
        : String((r * (c + 7)) % 97),
      );
    }
    lines.push(cells.join(','));
  }
  return `${lines.join('\n')}\n`;
}

function makeHost() {
  const events: DataEvent[] = [];
  const { host, call } = makeReportHost({ memoryLimitBytes: LIMIT, memoryCeilingBytes: footprintCeiling(LIMIT) });
  host.addListener((e) => events.push(e));
  return { events, call };
}

const loaded = (o: LoadOutcome) => {
  if (!o.ok) throw new Error(`load failed: ${o.message}`);
  return o;
};

describe('a 600-column × 5,000-row CSV on the data worker', { timeout: 300_000 }, () => {
  it('loads, checks, pages, profiles with progress and samples, with no out-of-memory', async () => {
    const { call, events } = makeHost();
    await call('init', {});
    const file = new File([wideCsv(600, 5000)], 'survey wide.csv');
    const outcome = loaded(await call('load', { source: { kind: 'file', file }, options: { loadId: 'wide' } }));
    const [ds] = outcome.datasets;
    expect(ds).toMatchObject({ name: 'survey_wide', rowCount: 5000 });
    expect(ds?.columns).toHaveLength(600);
    expect(ds?.columns.slice(0, 4).map((c) => c.type)).toEqual(['BIGINT', 'VARCHAR', 'DATE', 'DOUBLE']);
    // The load report's checks run after the load answered (the list does not wait for them), then end.
    let listed = (await call('list', {})).find((d) => d.name === 'survey_wide');
    const deadline = Date.now() + 240_000;
    while (listed?.report?.checking && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      listed = (await call('list', {})).find((d) => d.name === 'survey_wide');
    }
    expect(listed?.report).toBeDefined();
    expect(listed?.report?.checking).toBeFalsy();

    const page = await call('page', { name: 'survey_wide', offset: 0, limit: 100, maxColumns: 2000 });
    expect(page.columns).toHaveLength(600);

    const profile = await call('profile', { name: 'survey_wide', profileId: 'p1' });
    expect(profile.columns).toHaveLength(MAX_PROFILE_COLUMNS);
    expect(profile.columns[0]).toMatchObject({ name: 'q1', nulls: 0, distinct: 97 });
    expect(profile.columns[4]).toMatchObject({ name: 'q5', nulls: 556 });
    const progress = events.filter((e): e is Extract<DataEvent, { type: 'profileProgress' }> => e.type === 'profileProgress');
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toMatchObject({ profileId: 'p1' });
    expect(progress.at(-1)?.done).toBe(progress.at(-1)?.total);

    const sample = await call('profileSample', { name: 'survey_wide', sampleRows: 5 });
    expect(sample.found && sample.columns).toHaveLength(600);
  });
});
