/**
 * Decodes query results for the page in the decode worker (protocol/decode.ts), the rows arriving
 * in chunks so no single task holds the page; in the page itself, in slices, where there is no
 * worker (tests) or it failed. Every pending call settles: a worker error rejects them all and the
 * next call starts a fresh worker.
 */
import { isDecodeReply, type DecodeRequest } from '../../protocol/decode';
import type { CellValue, DecodeOptions } from '../../shared/arrowDecode';

type Spawn = () => Worker;

interface Pending {
  worker: Worker;
  rows: CellValue[][];
  resolve: (rows: CellValue[][]) => void;
  reject: (e: Error) => void;
}

export class DecodeClient {
  #spawn: Spawn | null;
  #worker: Worker | null = null;
  #pending = new Map<number, Pending>();
  #next = 1;

  /** `spawn` null: decode in the page (in slices). */
  constructor(spawn: Spawn | null) {
    this.#spawn = spawn;
  }

  async decode(ipc: Uint8Array, options: DecodeOptions = {}): Promise<CellValue[][]> {
    const worker = this.#workerOrNull();
    if (!worker) {
      const { decodeIpcSliced } = await import('../../shared/arrowDecode');
      return (await decodeIpcSliced(ipc, options)).rows;
    }
    const id = this.#next++;
    // The bytes move to the worker rather than being copied (a copy first when they are a view).
    const own = ipc.byteOffset === 0 && ipc.byteLength === ipc.buffer.byteLength && ipc.buffer instanceof ArrayBuffer ? ipc : ipc.slice();
    const req: DecodeRequest = { id, ipc: own, options: { timeZone: options.timeZone, utcColumns: options.utcColumns } };
    return new Promise<CellValue[][]>((resolve, reject) => {
      this.#pending.set(id, { worker, rows: [], resolve, reject });
      try {
        worker.postMessage(req, [own.buffer as ArrayBuffer]);
      } catch (e) {
        this.#pending.delete(id);
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  }

  #workerOrNull(): Worker | null {
    if (this.#worker || !this.#spawn) return this.#worker;
    try {
      const worker = this.#spawn();
      worker.onmessage = (ev: MessageEvent) => this.#onReply(ev.data);
      worker.onerror = (ev) => this.#fail(worker, new Error(`The decode worker failed: ${ev.message || 'it stopped'}`));
      worker.onmessageerror = () => this.#fail(worker, new Error('The decode worker sent a message the page could not read.'));
      this.#worker = worker;
    } catch {
      this.#spawn = null; // no workers here: decode in the page from now on
    }
    return this.#worker;
  }

  #onReply(data: unknown): void {
    if (!isDecodeReply(data)) return;
    const p = this.#pending.get(data.id);
    if (!p) return;
    if (data.kind === 'rows') {
      for (const row of data.rows) p.rows.push(row);
      return;
    }
    this.#pending.delete(data.id);
    if (data.kind === 'done') p.resolve(p.rows);
    else p.reject(Object.assign(new Error(data.error.message), { name: data.error.name }));
  }

  #fail(worker: Worker, error: Error): void {
    if (this.#worker === worker) this.#worker = null;
    worker.terminate();
    // Only what was sent to this worker: a later call may already be with a fresh one.
    for (const [id, p] of this.#pending) {
      if (p.worker !== worker) continue;
      this.#pending.delete(id);
      p.reject(error);
    }
  }
}
