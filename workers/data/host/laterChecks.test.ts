import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DataEvent, DataRequests, DatasetInfo } from '../../../protocol/data';
import type { Handlers } from '../../../protocol/rpcServer';
import { DataHost, type Readers } from './host';
import type { Engine } from '../engine/duckdbEngine';
import { NodeEngine } from '../testing/nodeEngine';
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

/** The dataset once its checks are over (the list answers at once, `checking` until then). */
async function settled(call: ReturnType<typeof makeReportHost>['call'], name: string): Promise<DatasetInfo | undefined> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const d = (await call('list', {})).find((x) => x.name === name);
    if (!d?.report?.checking || Date.now() > deadline) return d;
    await new Promise((r) => setTimeout(r, 20));
  }
}

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
      // `list` does not wait for the checks: their findings come with a later list.
      const listed = await settled(after.call, first.name);
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
    const renamed = await settled(call, 'renamed');
    expect(renamed?.report?.checking).toBeUndefined();
    expect(renamed?.report?.findings.map((f) => f.kind)).toContain('placeholders');

    const gone = await load(`again_${c.file}`, c.text);
    await call('remove', { name: gone.name });
    expect((await call('list', {})).map((d) => d.name)).toEqual(['renamed']);
  });

  it('answers list (the model\'s context, a question asked right after the load) while the checks are held, then gives the findings', async () => {
    const c = csvCases.find((x) => x.kind === 'placeholders')!;
    // The checks' first step registers the file again as check_N: held there until the test opens it.
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    let held = false;
    const boot = async (): Promise<Engine> => {
      const e = await NodeEngine.open();
      return {
        version: () => e.version(),
        query: (sql) => e.query(sql),
        send: (sql) => e.send(sql),
        cancel: () => e.cancel(),
        tokenize: (sql) => e.tokenize(sql),
        insertArrowStream: (ipc, table, create) => e.insertArrowStream(ipc, table, create),
        registerBlob: async (name, blob) => {
          if (name.includes('check_')) {
            held = true;
            await gate;
          }
          return e.registerBlob(name, blob);
        },
        dropFile: (name) => e.dropFile(name),
      };
    };
    const host = new DataHost({ boot, openStorage: async () => undefined, readers, answerFirstFromBytes: 0 });
    const h: Handlers<DataRequests> = host.handlers();
    const call = async <K extends keyof DataRequests & string>(type: K, payload: DataRequests[K]['req']): Promise<DataRequests[K]['res']> =>
      (await (h[type] as (p: DataRequests[K]['req']) => Promise<{ result: DataRequests[K]['res'] }>)(payload)).result;
    await call('init', {});
    const out = await call('load', { source: { kind: 'file', file: new File([c.text], c.file) }, options: { loadId: 'held' } });
    if (!out.ok) throw new Error(out.message);
    const name = out.datasets[0]!.name;
    expect(held).toBe(true);
    const listed = (await call('list', {})).find((d) => d.name === name);
    expect(listed?.report?.checking).toBe(true);
    open();
    // A question's SQL waits for one statement of the checks at most (here the held one), not all.
    const q = await call('consoleQuery', { sql: `SELECT count(*) AS n FROM "${name}"` });
    expect(q.ok).toBe(true);
    const done = await settled(call, name);
    expect(done?.report?.checking).toBeUndefined();
    expect(done?.report?.findings.map((f) => f.kind)).toContain('placeholders');
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
