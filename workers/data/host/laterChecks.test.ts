import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DataEvent, DatasetInfo } from '../../../protocol/data';
import type { Readers } from './host';
import { makeReportHost } from '../testing/reportHost';
import { DatasetStorage } from './storage';
import { LOAD_REPORT_CASES } from '../../../scripts/loadReportCases.mjs';

const noReader = async () => {
  throw new Error('reader not used in this test');
};
const readers: Readers = { parquet: noReader, arrow: noReader, excel: noReader, json: noReader, listExcelSheets: async () => [] };

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

/** `answerFirst`: every load answers before its checks, as a big file's does in the app. */
function makeHost(answerFirst: boolean) {
  return makeReportHost({ readers, snapshotIdleMs: 0, ...(answerFirst ? { answerFirstFromBytes: 0 } : {}) });
}

const csvCases = LOAD_REPORT_CASES.filter((c) => /\.(csv|tsv|txt)$/i.test(c.file));

describe('load-report checks after the load answered', { timeout: 180_000 }, () => {
  it('answers with the table first, then gives every case the findings the checks give during the load', async () => {
    const during = makeHost(false);
    const after = makeHost(true);
    await during.call('init', {});
    await after.call('init', {});
    for (const c of csvCases) {
      const expected = await during.load(c.file, c.text);
      const first = await after.load(c.file, c.text);
      expect(first.report?.checking, c.file).toBe(true);
      expect(first.columns, c.file).toEqual(expected.columns);
      expect(first.rowCount, c.file).toBe(expected.rowCount);
      // `list` (the model's context) waits for the checks.
      const listed = (await after.call('list', {})).find((d) => d.name === first.name);
      expect(listed?.report, c.file).toEqual(expected.report);
    }
    expect(csvCases.some((c) => c.kind !== null)).toBe(true);
  });

  it('keeps the findings in the copy saved for the next visit', async () => {
    const c = csvCases.find((x) => x.kind === 'placeholders')!;
    const { call, load, host } = makeHost(true);
    await call('init', {});
    const info = await load(c.file, c.text);
    const deadline = Date.now() + 60_000;
    while (!(await call('list', {})).find((d) => d.name === info.name)?.persisted && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await host.snapshotsSettled();
    const entry = (await (await DatasetStorage.open({ useOpfs: false })).entries()).find((e) => e.name === info.name);
    expect(entry?.report?.checking).toBeUndefined();
    expect(entry?.report?.findings.map((f) => f.kind)).toContain('placeholders');
  });

  it('gives the findings to a dataset renamed while its checks ran, and none to one removed', async () => {
    const c = csvCases.find((x) => x.kind === 'placeholders')!;
    const { call, load } = makeHost(true);
    await call('init', {});
    const info = await load(c.file, c.text);
    await call('rename', { from: info.name, to: 'renamed' });
    const renamed = (await call('list', {})).find((d) => d.name === 'renamed');
    expect(renamed?.report?.checking).toBeUndefined();
    expect(renamed?.report?.findings.map((f) => f.kind)).toContain('placeholders');

    const gone = await load(`again_${c.file}`, c.text);
    await call('remove', { name: gone.name });
    expect((await call('list', {})).map((d) => d.name)).toEqual(['renamed']);
  });
});

describe('one list event per load', { timeout: 180_000 }, () => {
  const c = csvCases.find((x) => x.kind === 'placeholders')!;

  /** The `datasets` (list) and `dataset` (one entry) events a host sends from now on. */
  function lists(host: ReturnType<typeof makeHost>['host']): { lists: DatasetInfo[][]; entries: DatasetInfo[] } {
    const seen = { lists: [] as DatasetInfo[][], entries: [] as DatasetInfo[] };
    host.addListener((e: DataEvent) => {
      if (e.type === 'datasets') seen.lists.push(e.datasets);
      if (e.type === 'dataset') seen.entries.push(e.dataset);
    });
    return seen;
  }

  async function until(done: () => boolean): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }

  it('announces a load once', async () => {
    const { call, load, host } = makeHost(false);
    await call('init', {});
    const seen = lists(host);
    const info = await load(c.file, c.text);
    await host.snapshotsSettled();
    expect(seen.lists).toHaveLength(1);
    expect(seen.entries).toHaveLength(0);
    expect(seen.lists[0]?.find((d) => d.name === info.name)?.report?.findings.map((f) => f.kind)).toContain('placeholders');
  });

  it("announces a big load's list once, when its table is usable, then only its entry once its checks and copy are done (the list went out three times)", async () => {
    const { call, load, host } = makeHost(true);
    await call('init', {});
    const seen = lists(host);
    const info = await load(c.file, c.text);
    await until(() => seen.entries.some((d) => d.name === info.name && d.persisted));
    await host.snapshotsSettled();
    // Nothing else is still to come: a last look after the engine is idle.
    await call('list', {});
    expect(seen.lists).toHaveLength(1);
    expect(seen.entries).toHaveLength(1);
    const first = seen.lists[0]?.find((d) => d.name === info.name);
    const last = seen.entries[0];
    expect([first?.report?.checking, first?.saving, first?.persisted]).toEqual([true, true, false]);
    expect([last?.report?.checking, last?.saving, last?.persisted]).toEqual([undefined, undefined, true]);
    expect(last?.report?.findings.map((f) => f.kind)).toContain('placeholders');
    // The copy saved for the next visit keeps the findings the checks made beside it.
    const entry = (await (await DatasetStorage.open({ useOpfs: false })).entries()).find((e) => e.name === info.name);
    expect(entry?.report?.findings.map((f) => f.kind)).toContain('placeholders');
  });
});
