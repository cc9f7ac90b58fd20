import { describe, expect, it } from 'vitest';
import { serve } from './rpcServer';
import { CallAbortedError, CallTimeoutError, WorkerGoneError } from './rpcClient';
import { SwappableClient } from './swappableClient';
import type { Endpoint } from './rpc';

type Requests = { echo: { req: { text: string }; res: { text: string } }; hang: { req: Record<string, never>; res: Record<string, never> } };

/** A server on one end of a fresh channel; `hang` never answers. */
function server(tag: string): MessagePort {
  const channel = new MessageChannel();
  serve<Requests, never>(channel.port2 as unknown as Endpoint, {
    echo: ({ text }) => ({ result: { text: `${tag}:${text}` } }),
    hang: () => new Promise(() => {}),
  });
  return channel.port1;
}

describe('SwappableClient', () => {
  it('sends to the new port after replace, failing the calls left on the old one', async () => {
    const client = new SwappableClient<Requests, never>(server('a') as unknown as Endpoint, { name: 'data engine', timeoutMs: () => undefined });
    expect(await client.call('echo', { text: 'x' })).toEqual({ text: 'a:x' });
    const stuck = client.call('hang', {});
    client.replace(server('b') as unknown as Endpoint);
    await expect(stuck).rejects.toBeInstanceOf(WorkerGoneError);
    await expect(stuck).rejects.toThrow('the data engine restarted while this was running; run it again');
    expect(await client.call('echo', { text: 'y' })).toEqual({ text: 'b:y' });
    expect(client.pendingCount).toBe(0);
    client.dispose();
  });

  it('times a call out and honours an abort signal, leaving nothing pending', async () => {
    const client = new SwappableClient<Requests, never>(server('a') as unknown as Endpoint, { name: 'data engine', timeoutMs: (t) => (t === 'hang' ? 50 : undefined) });
    await expect(client.call('hang', {})).rejects.toBeInstanceOf(CallTimeoutError);
    const stop = new AbortController();
    const waiting = client.call('hang', {}, [], { timeoutMs: 60_000, signal: stop.signal });
    stop.abort();
    await expect(waiting).rejects.toBeInstanceOf(CallAbortedError);
    expect(client.pendingCount).toBe(0);
    client.dispose();
  });
});
