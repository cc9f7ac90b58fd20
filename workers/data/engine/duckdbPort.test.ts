import { describe, expect, it } from 'vitest';
import { DUCKDB_PORT } from '../../../protocol/duckdbPort';
import { bridgeToPort, portAsWorker, receiveDuckDBPort } from './duckdbPort';

/** A worker's global scope as DuckDB's worker code uses it: `onmessage` in, `postMessage` out. */
class FakeScope extends EventTarget {
  onmessage: ((ev: MessageEvent) => unknown) | null = null;
  sent: unknown[] = [];
  postMessage(message: unknown): void {
    this.sent.push(message);
  }
  deliver(data: unknown): void {
    const ev = new MessageEvent('message', { data });
    this.dispatchEvent(ev);
    // The `onmessage` handler, as a worker would call it after the listeners added before it.
    if (!ev.cancelBubble) void this.onmessage?.(ev);
  }
}

const next = (port: MessagePort) => new Promise<unknown>((resolve) => port.addEventListener('message', (e) => resolve(e.data), { once: true }));

describe('DuckDB worker started by the page', () => {
  it('joins the data worker and DuckDB’s worker through one channel, both ways', async () => {
    const duckdbScope = new FakeScope();
    bridgeToPort(duckdbScope);
    // DuckDB's code answers each request through globalThis.postMessage.
    duckdbScope.onmessage = (ev) => duckdbScope.postMessage({ answer: (ev.data as { ask: number }).ask * 2 });
    const dataScope = new EventTarget();
    const ported = receiveDuckDBPort(dataScope);
    const later: unknown[] = [];
    dataScope.addEventListener('message', (e) => later.push((e as MessageEvent).data));

    const { port1, port2 } = new MessageChannel();
    duckdbScope.deliver({ kind: DUCKDB_PORT, port: port1 });
    dataScope.dispatchEvent(new MessageEvent('message', { data: { kind: DUCKDB_PORT, port: port2 } }));
    const port = await ported;
    expect(port).toBe(port2);
    // The port message is for the bridge only: neither DuckDB's handler nor the data worker's RPC sees it.
    expect(duckdbScope.sent).toEqual([]);
    expect(later).toEqual([]);

    const worker = portAsWorker(port as MessagePort);
    const reply = new Promise<unknown>((resolve) => worker.addEventListener('message', (e) => resolve(e.data), { once: true }));
    worker.postMessage({ ask: 21 });
    expect(await reply).toEqual({ answer: 42 });
    worker.terminate();
    port1.close();
  });

  it('leaves a data worker told to start DuckDB itself with no port, and a nested DuckDB worker unchanged', async () => {
    const dataScope = new EventTarget();
    const ported = receiveDuckDBPort(dataScope);
    dataScope.dispatchEvent(new MessageEvent('message', { data: { kind: DUCKDB_PORT, port: null } }));
    expect(await ported).toBeNull();

    const duckdbScope = new FakeScope();
    const post = duckdbScope.postMessage;
    bridgeToPort(duckdbScope);
    const seen: unknown[] = [];
    duckdbScope.onmessage = (ev) => seen.push(ev.data);
    duckdbScope.deliver({ type: 'PING' });
    expect(seen).toEqual([{ type: 'PING' }]);
    expect(duckdbScope.postMessage).toBe(post);
  });

  it('a message through the port reaches DuckDB with its transfer list', async () => {
    const { port1, port2 } = new MessageChannel();
    const worker = portAsWorker(port1);
    const got = next(port2);
    port2.start();
    const bytes = new Uint8Array([1, 2, 3]);
    worker.postMessage({ data: bytes }, [bytes.buffer]);
    expect(await got).toEqual({ data: new Uint8Array([1, 2, 3]) });
    expect(bytes.byteLength).toBe(0);
    port1.close();
  });
});
