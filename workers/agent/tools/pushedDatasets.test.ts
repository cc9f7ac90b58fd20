import { describe, expect, it, vi } from 'vitest';
import type { DatasetInfo } from '../../../protocol/data';
import { PushedDatasets } from './pushedDatasets';
import type { DataClient } from './workerHost';

const ds = (name: string, checking = false): DatasetInfo => ({
  name,
  fileName: `${name}.csv`,
  format: 'csv',
  rowCount: 1,
  columns: [{ name: 'a', type: 'BIGINT' }],
  sizeBytes: 2,
  loadedAt: 1,
  persisted: true,
  ...(checking ? { report: { findings: [], checking: true } as unknown as DatasetInfo['report'] } : {}),
});

function fakeData() {
  const call = vi.fn(async (type: string) => (type === 'list' ? [ds('asked')] : { ok: true }));
  return { call, client: { call } as unknown as DataClient };
}

describe('PushedDatasets', () => {
  it('answers list from the pushed copy, with no trip, and forwards every other request', async () => {
    const pushed = new PushedDatasets();
    const { call, client } = fakeData();
    const data = pushed.over(client);
    pushed.onEvent({ type: 'datasets', datasets: [ds('penguins')] });
    expect((await data.call('list', {})).map((d) => d.name)).toEqual(['penguins']);
    pushed.onEvent({ type: 'datasets', datasets: [ds('penguins'), ds('weather')] });
    expect((await data.call('list', {})).map((d) => d.name)).toEqual(['penguins', 'weather']);
    expect(call).not.toHaveBeenCalled();
    await data.call('modelQuery', { sql: 'SELECT 1' });
    expect(call).toHaveBeenCalledWith('modelQuery', { sql: 'SELECT 1' }, undefined, undefined);
  });

  it('asks the data worker only before anything was pushed; a load report still checking is answered from the copy', async () => {
    const pushed = new PushedDatasets();
    const { call, client } = fakeData();
    const data = pushed.over(client);
    expect((await data.call('list', {})).map((d) => d.name)).toEqual(['asked']);
    pushed.onEvent({ type: 'datasets', datasets: [ds('big', true)] });
    const listed = await data.call('list', {});
    expect(listed.map((d) => d.name)).toEqual(['big']);
    expect(listed[0]?.report?.checking).toBe(true);
    expect(call).toHaveBeenCalledTimes(1);
  });

  it("follows a `dataset` event: once the big load's checks are done, the copy holds their entry", async () => {
    const pushed = new PushedDatasets();
    const { call, client } = fakeData();
    const data = pushed.over(client);
    pushed.onEvent({ type: 'datasets', datasets: [ds('penguins'), ds('big', true)] });
    expect((await data.call('list', {})).map((d) => [d.name, d.report?.checking])).toEqual([['penguins', undefined], ['big', true]]);
    pushed.onEvent({ type: 'dataset', dataset: ds('big') });
    expect((await data.call('list', {})).map((d) => [d.name, d.report?.checking])).toEqual([['penguins', undefined], ['big', undefined]]);
    expect(call).not.toHaveBeenCalled();
  });

  it('hands out a copy: a caller changing it does not change the next run', async () => {
    const pushed = new PushedDatasets();
    const data = pushed.over(fakeData().client);
    pushed.onEvent({ type: 'datasets', datasets: [ds('penguins')] });
    (await data.call('list', {})).pop();
    expect(await data.call('list', {})).toHaveLength(1);
  });
});
