import { describe, expect, it } from 'vitest';
import { Int32, Table, tableToIPC, vectorFromArray } from 'apache-arrow';
import type { DecodeRequest } from '../../protocol/decode';
import { runDecode } from '../../workers/decode/decodeJob';
import { DecodeClient } from './decodeClient';

const ipcOf = (rows: number, columns: number) =>
  tableToIPC(new Table(Object.fromEntries(Array.from({ length: columns }, (_, c) => [`c${c}`, vectorFromArray(Array.from({ length: rows }, (_, r) => r + c), new Int32())]))), 'stream');

/** A worker that runs the decode job in this thread, replying a task later, in chunks of 10 cells. */
class InThreadWorker {
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onerror: ((ev: ErrorEvent) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  terminated = false;
  transferred: unknown[] = [];
  constructor(private readonly fail = false) {}
  postMessage(req: DecodeRequest, transfer: unknown[]) {
    this.transferred.push(...transfer);
    setTimeout(() => {
      if (this.fail) this.onerror?.({ message: 'boom' } as ErrorEvent);
      else runDecode(req, (reply) => this.onmessage?.({ data: reply } as MessageEvent), 10);
    }, 0);
  }
  terminate() {
    this.terminated = true;
  }
}

describe('DecodeClient', () => {
  it('gathers the chunks of the worker into the rows, the bytes transferred', async () => {
    const worker = new InThreadWorker();
    const client = new DecodeClient(() => worker as unknown as Worker);
    const ipc = ipcOf(7, 3);
    const rows = await client.decode(ipc);
    expect(rows).toHaveLength(7);
    expect(rows[6]).toEqual([6, 7, 8]);
    expect(worker.transferred).toHaveLength(1);
  });

  it('rejects every pending call when the worker fails, and starts a fresh one next time', async () => {
    const spawned: InThreadWorker[] = [];
    const client = new DecodeClient(() => {
      const w = new InThreadWorker(spawned.length === 0);
      spawned.push(w);
      return w as unknown as Worker;
    });
    const both = await Promise.allSettled([client.decode(ipcOf(2, 2)), client.decode(ipcOf(3, 2))]);
    expect(both.map((r) => (r.status === 'rejected' ? String(r.reason) : 'settled'))).toEqual([
      'Error: The decode worker failed: boom',
      'Error: The decode worker failed: boom',
    ]);
    expect(spawned[0]?.terminated).toBe(true);
    expect(await client.decode(ipcOf(3, 2))).toHaveLength(3);
    expect(spawned).toHaveLength(2);
  });

  it('decodes in the page where no worker can start', async () => {
    const client = new DecodeClient(() => {
      throw new Error('no workers here');
    });
    expect(await client.decode(ipcOf(4, 2))).toEqual([[0, 1], [1, 2], [2, 3], [3, 4]]);
    expect(await new DecodeClient(null).decode(ipcOf(1, 1))).toEqual([[0]]);
  });
});
