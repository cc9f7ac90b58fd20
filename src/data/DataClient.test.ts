import { afterEach, describe, expect, it, vi } from 'vitest';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import { serve, type Handlers } from '../../protocol/rpcServer';
import { PAGE_CANCELLED, type DataEvent, type DataRequests, type DatasetInfo } from '../../protocol/data';
import { DataClient } from './DataClient.svelte';
import { sampleUrl, urlFileName } from './urls';
import { FakeWorker } from '../engines/testing/fakeWorker';


const info = (name: string, rowCount = 2): DatasetInfo => ({
  name,
  fileName: `${name}.csv`,
  format: 'csv',
  rowCount,
  columns: [{ name: 'a', type: 'BIGINT' }],
  sizeBytes: 10,
  loadedAt: 0,
  persisted: true,
});

const ipc = () => tableToIPC(tableFromArrays({ a: Float64Array.from([1, 2]) }), 'stream');

function harness(overrides: Partial<Handlers<DataRequests>> = {}) {
  const workers: FakeWorker[] = [];
  let datasets: DatasetInfo[] = [];
  let emit: (e: DataEvent) => void = () => {};
  const waiting = new Map<string, () => void>();
  const handlers: Handlers<DataRequests> = {
    init: () => ({ result: { duckdbVersion: 'v-test', datasets, persistent: true } }),
    load: ({ source, options }) => {
      const fileName = source.kind === 'text' ? source.fileName : 'x';
      emit({ type: 'progress', loadId: options.loadId, fileName, phase: 'parsing', fraction: 0.5 });
      if (source.kind === 'text' && source.text === 'slow') {
        return new Promise((resolve) => waiting.set(options.loadId, () => resolve({ result: { ok: false, fileName, message: 'Cancelled.', cancelled: true } })));
      }
      if (source.kind === 'text' && source.text === 'bad') {
        return { result: { ok: false, fileName, message: 'no columns', suggestion: 'check the delimiter' } };
      }
      datasets = [...datasets, info('pasted')];
      emit({ type: 'datasets', datasets });
      return { result: { ok: true, datasets: [info('pasted')], warnings: [] } };
    },
    reread: () => ({ result: { ok: false, message: 'not in this harness' } }),
    cancelLoad: ({ loadId }) => {
      waiting.get(loadId)?.();
      return { result: { cancelled: true } };
    },
    excelSheets: () => ({ result: { sheets: [] } }),
    list: () => ({ result: datasets }),
    // As the real worker does: the list is announced as an event before the answer.
    remove: ({ name }) => {
      datasets = datasets.filter((d) => d.name !== name);
      emit({ type: 'datasets', datasets });
      return { result: datasets };
    },
    rename: ({ from, to }) => {
      datasets = datasets.map((d) => (d.name === from ? { ...d, name: to } : d));
      emit({ type: 'datasets', datasets });
      return { result: datasets };
    },
    consoleQuery: ({ sql }) =>
      sql === 'bad'
        ? { result: { ok: false, message: 'Parser Error: syntax error at or near "bad"' } }
        : { result: { ok: true, result: { columns: [{ name: 'a', type: 'DOUBLE' }], ipc: ipc(), rowCount: 2, truncated: false, elapsedMs: 3 } } },
    page: () => ({ result: { columns: [{ name: 'a', type: 'DOUBLE' }], ipc: ipc(), rowCount: 2, truncated: false, elapsedMs: 1 } }),
    profile: ({ name }) => ({ result: { name, rowCount: 2, columns: [], elapsedMs: 1 } }),
    profileSample: () => ({ result: { found: false, datasets: datasets.map((d) => d.name) } }),
    assess: ({ sql }) => ({ result: { destructive: /drop/i.test(sql), datasets: [], statement: sql } }),
    queryTables: () => ({ result: { ok: true, tables: [] } }),
    cancel: () => ({ result: { cancelled: true } }),
    cancelProfile: () => ({ result: { cancelled: true } }),
    connect: () => ({ result: {} }),
    ...overrides,
  };
  const client = new DataClient(() => {
    const channel = new MessageChannel();
    const worker = new FakeWorker(channel.port1);
    workers.push(worker);
    emit = serve<DataRequests, DataEvent>(channel.port2, handlers).emit;
    return worker as unknown as Worker;
  });
  return { client, workers, emit: (e: DataEvent) => emit(e) };
}

let clients: DataClient[] = [];
afterEach(() => {
  for (const c of clients) c.dispose();
  clients = [];
});

describe('DataClient', () => {
  it('starts, loads pasted text and tracks datasets', async () => {
    const { client } = harness();
    clients.push(client);
    await client.start();
    expect(client.ready).toBe(true);
    expect(client.duckdbVersion).toBe('v-test');
    const names = await client.loadText('a\n1\n2', 'pasted.csv');
    expect(names).toEqual(['pasted']);
    expect(client.datasets.map((d) => d.name)).toEqual(['pasted']);
    expect(client.loads).toEqual([]);
    expect(performance.getEntriesByName('dataseer:load').length).toBeGreaterThan(0);
  });

  it("takes the dataset list from the worker's event only: a load's answer names the new tables but is not applied again", async () => {
    const { client, emit } = harness({
      load: () => {
        emit({ type: 'datasets', datasets: [info('pasted', 2)] });
        return { result: { ok: true, datasets: [info('pasted', 99), info('only_in_answer')], warnings: [] } };
      },
    });
    clients.push(client);
    expect(await client.loadText('a\n1\n2', 'pasted.csv')).toEqual(['pasted', 'only_in_answer']);
    expect(client.datasets.map((d) => [d.name, d.rowCount])).toEqual([['pasted', 2]]);
  });

  it("replaces one entry on a `dataset` event (a big load's checks and copy are done), and ignores a name not in the list", async () => {
    const { client, emit } = harness({
      load: () => {
        emit({ type: 'datasets', datasets: [info('first'), { ...info('big'), saving: true, persisted: false }] });
        return { result: { ok: true, datasets: [info('big')], warnings: [] } };
      },
    });
    clients.push(client);
    await client.loadText('a\n1', 'big.csv');
    const before = client.datasets[0];
    emit({ type: 'dataset', dataset: info('big', 7) });
    emit({ type: 'dataset', dataset: info('gone') });
    await vi.waitFor(() => expect(client.datasets.map((d) => [d.name, d.rowCount, d.saving])).toEqual([['first', 2, undefined], ['big', 7, undefined]]));
    expect(client.datasets[0]).toEqual(before);
  });

  it('keeps a load error as a value with the file name and suggestion', async () => {
    const { client } = harness();
    clients.push(client);
    expect(await client.loadText('bad', 'broken.csv')).toEqual([]);
    expect(client.errors).toHaveLength(1);
    expect(client.errors[0]).toMatchObject({ fileName: 'broken.csv', message: 'no columns', suggestion: 'check the delimiter' });
    client.dismissError(client.errors[0]!.id);
    expect(client.errors).toEqual([]);
  });

  it('Cancel ends a load in flight quietly: no error, no progress bar, nothing loaded', async () => {
    const { client } = harness();
    clients.push(client);
    await client.start();
    const pending = client.loadText('slow', 'slow.csv');
    await vi.waitFor(() => expect(client.loads).toHaveLength(1));
    const loadId = client.loads[0]?.loadId ?? '';
    await vi.waitFor(() => expect(client.loads[0]?.phase).toBe('parsing'));
    await client.cancelLoad(loadId);
    expect(await pending).toEqual([]);
    expect(client.errors).toEqual([]);
    expect(client.loads).toEqual([]);
  });

  it("shows a profile's progress and cancels it, leaving nothing cached", async () => {
    let stop: (() => void) | undefined;
    const { client, emit } = harness({
      profile: ({ profileId }) =>
        new Promise((_resolve, reject) => {
          emit({ type: 'profileProgress', profileId: profileId ?? '', done: 2, total: 9 });
          stop = () => reject(new Error('Profile cancelled.'));
        }),
      cancelProfile: () => {
        stop?.();
        return { result: { cancelled: true } };
      },
    });
    clients.push(client);
    await client.start();
    const running = client.profile('pasted');
    await vi.waitFor(() => expect(client.profileProgressOf('pasted')).toEqual({ done: 2, total: 9 }));
    await client.cancelProfile('pasted');
    await expect(running).rejects.toThrow('Profile cancelled.');
    expect(client.profileProgressOf('pasted')).toBeUndefined();
    expect(client.profile('pasted')).not.toBe(running);
  });

  it('decodes query rows and returns DuckDB errors as values', async () => {
    const { client } = harness();
    clients.push(client);
    const ok = await client.query('select 1');
    expect(ok.ok && ok.result.rows).toEqual([[1], [2]]);
    const bad = await client.query('bad');
    expect(bad).toEqual({ ok: false, message: 'Parser Error: syntax error at or near "bad"' });
  });

  it('profiles a dataset once per state: shared by callers, asked again after it changed', async () => {
    let calls = 0;
    const { client } = harness({
      profile: ({ name }) => {
        calls++;
        return { result: { name, rowCount: 2, columns: [], elapsedMs: 1 } };
      },
    });
    clients.push(client);
    await client.start();
    await client.loadText('a\n1\n2', 'pasted.csv');
    const [a, b] = await Promise.all([client.profile('pasted'), client.profile('pasted')]);
    expect(a).toBe(b);
    expect(calls).toBe(1);
    client.datasets = client.datasets.map((d) => ({ ...d, rowCount: d.rowCount + 1 }));
    await client.profile('pasted');
    expect(calls).toBe(2);
  });

  it('rejects pending calls when the worker crashes, then restarts it', async () => {
    const { client, workers } = harness({ profile: () => new Promise(() => {}) });
    clients.push(client);
    await client.start();
    const pending = client.profile('t');
    // Let the request reach the worker before it dies.
    await new Promise((r) => setTimeout(r, 20));
    workers[0]!.crash('boom');
    await expect(pending).rejects.toThrow('boom');
    expect(workers[0]!.terminated).toBe(true);
    expect(client.workerError).toContain('boom');
    await client.start();
    expect(workers).toHaveLength(2);
    expect(client.ready).toBe(true);
  });

  it('tells listeners when the worker came back after a crash (ports must be handed again)', async () => {
    const { client, workers } = harness();
    clients.push(client);
    let restarts = 0;
    const stop = client.onRestarted(() => restarts++);
    await client.start();
    expect(restarts).toBe(0);
    workers[0]!.crash('boom');
    await client.start();
    expect(restarts).toBe(1);
    stop();
    workers[1]!.crash('again');
    await client.start();
    expect(restarts).toBe(1);
  });

  it('names every saved dataset the worker says it is restoring, and forgets each once it is back', async () => {
    const { client, emit } = harness();
    clients.push(client);
    await client.start();
    const settle = () => new Promise((r) => setTimeout(r, 20));
    emit({
      type: 'restoring',
      sources: [
        { loadId: 'restore:a', fileName: 'a.csv', datasets: ['a'], sizeBytes: 10 },
        { loadId: 'restore:b', fileName: 'b.json', datasets: ['b'], sizeBytes: 20 },
      ],
    });
    await settle();
    expect(client.restoring.map((r) => [r.fileName, r.detail, r.datasets, r.sizeBytes])).toEqual([
      ['a.csv', 'waiting', ['a'], 10],
      ['b.json', 'waiting', ['b'], 20],
    ]);
    emit({ type: 'progress', loadId: 'restore:a', fileName: 'a.csv', phase: 'parsing', fraction: 0.5 });
    await settle();
    expect(client.restoring.map((r) => [r.fileName, r.phase, r.sizeBytes])).toEqual([
      ['a.csv', 'parsing', 10],
      ['b.json', 'restoring', 20],
    ]);
    emit({ type: 'progress', loadId: 'restore:a', fileName: 'a.csv', phase: 'done', fraction: 1 });
    await settle();
    expect(client.restoring.map((r) => r.fileName)).toEqual(['b.json']);
    // The restore's end clears whatever is left (a source that could not be read).
    emit({ type: 'progress', loadId: 'restore', fileName: '', phase: 'done', fraction: 1 });
    await settle();
    expect(client.restoring).toEqual([]);
    expect(client.loads).toEqual([]);
  });

  it('asks before loading a file again: cancel skips it, keep loads it again, replace removes the old dataset first', async () => {
    const calls: string[] = [];
    const { client } = harness({
      init: () => ({ result: { duckdbVersion: 'v', datasets: [{ ...info('sales'), fileName: 'sales.csv' }], persistent: true } }),
      load: ({ source }) => {
        calls.push(`load ${source.kind}`);
        return { result: { ok: true, datasets: [{ ...info('sales_2'), fileName: 'sales.csv' }], warnings: [] } };
      },
      remove: ({ name }) => {
        calls.push(`remove ${name}`);
        return { result: [] };
      },
    });
    clients.push(client);
    await client.start();
    const file = () => new File(['a\n1\n'], 'sales.csv');
    const answer = async (choice: 'cancel' | 'keep' | 'replace') => {
      const pending = client.loadFiles([file(), new File(['b\n2\n'], 'other.csv')]);
      await new Promise((r) => setTimeout(r, 10));
      expect(client.duplicateQuestion?.fileNames).toEqual(['sales.csv']);
      expect(client.duplicateQuestion?.datasets).toContain('sales');
      client.duplicateQuestion?.answer(choice);
      await pending;
      expect(client.duplicateQuestion).toBeNull();
    };
    await answer('cancel');
    expect(calls).toEqual(['load file']);
    calls.length = 0;
    await answer('keep');
    expect(calls).toEqual(['load file', 'load file']);
    calls.length = 0;
    client.datasets = [{ ...info('sales'), fileName: 'sales.csv' }];
    await answer('replace');
    expect(calls[0]).toBe('remove sales');
    expect(calls.slice(1)).toEqual(['load file', 'load file']);
  });

  it('renames and removes through the worker', async () => {
    const { client } = harness();
    clients.push(client);
    await client.loadText('a\n1', 'pasted.csv');
    await client.rename('pasted', 'renamed');
    expect(client.datasets.map((d) => d.name)).toEqual(['renamed']);
    await client.remove('renamed');
    expect(client.datasets).toEqual([]);
  });
});

describe('urlFileName', () => {
  it('uses the last path segment, decoded', () => {
    expect(urlFileName('https://example.org/data/my%20file.csv?x=1')).toBe('my file.csv');
    expect(urlFileName('https://example.org/')).toBe('example.org');
  });

  it('a preview window whose signal aborts is cancelled in the worker by its own id and rejects as aborted (issue 37)', async () => {
    const cancels: (string | undefined)[] = [];
    const pending = new Map<string, () => void>();
    const { client } = harness({
      // As the worker does: a named window's read waits until its cancel, then fails as cancelled.
      page: ({ queryId, offset }) =>
        offset === 0
          ? { result: { columns: [{ name: 'a', type: 'DOUBLE' }], ipc: ipc(), rowCount: 2, truncated: false, elapsedMs: 1 } }
          : new Promise((_, reject) => pending.set(queryId ?? '', () => reject(new Error(PAGE_CANCELLED)))),
      cancel: ({ queryId }) => {
        cancels.push(queryId);
        pending.get(queryId ?? '')?.();
        return { result: { cancelled: true } };
      },
    });
    clients.push(client);
    await client.start();
    const far = new AbortController();
    const read = client.page('t', 5_000_000, 50, undefined, far.signal);
    while (pending.size === 0) await new Promise((r) => setTimeout(r, 5));
    far.abort();
    await expect(read).rejects.toMatchObject({ name: 'AbortError' });
    expect(cancels).toEqual([[...pending.keys()][0]]);
    expect(cancels[0]).toMatch(/./);
    // A window that is still wanted reads as before; one aborted before it is asked never is.
    expect((await client.page('t', 0, 50, undefined, new AbortController().signal)).rowCount).toBe(2);
    await expect(client.page('t', 0, 50, undefined, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
    expect(cancels).toHaveLength(1);
  });

  it('resolves samples against the page, including sub-paths', () => {
    expect(sampleUrl('cars.json', 'https://user.github.io/dataseer/')).toBe('https://user.github.io/dataseer/samples/cars.json');
    expect(sampleUrl('seattle-weather.csv', 'http://127.0.0.1:4201/index.html')).toBe('http://127.0.0.1:4201/samples/seattle-weather.csv');
  });
});
