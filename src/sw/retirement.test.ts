import { afterEach, describe, expect, it, vi } from 'vitest';
import { RETIRING_FETCH_MS, Retirement } from './retirement';

/** A network that never answers until its signal aborts, like a host that drops packets. */
function hangingNetwork() {
  const started: string[] = [];
  const fetchImpl = (request: Request, init?: RequestInit) =>
    new Promise<Response>((_, reject) => {
      started.push(request.url);
      const signal = init?.signal;
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  return { fetchImpl, started };
}

afterEach(() => vi.useRealTimers());

describe('Retirement', () => {
  it('aborts every request still waiting on the network when released, and says how many', async () => {
    const r = new Retirement();
    const net = hangingNetwork();
    const a = r.fetch(net.fetchImpl, new Request('https://extensions.duckdb.org/v1/wasm_eh/json.duckdb_extension.wasm'));
    const b = r.fetch(net.fetchImpl, new Request('https://me.github.io/dataseer/assets/x.js'));
    expect(net.started).toHaveLength(2);
    expect(r.release()).toBe(2);
    await expect(a).rejects.toMatchObject({ name: 'AbortError' });
    await expect(b).rejects.toMatchObject({ name: 'AbortError' });
    expect(r.isRetiring).toBe(true);
  });

  it('settles `released` on release, so a cache write no longer holds the worker', async () => {
    const r = new Retirement();
    let settled = false;
    void r.released.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    r.release();
    await r.released;
    expect(settled).toBe(true);
  });

  it('forgets answered requests: a release after them aborts nothing', async () => {
    const r = new Retirement();
    const res = await r.fetch(async () => new Response('ok'), new Request('https://me.github.io/dataseer/a.json'));
    expect(await res.text()).toBe('ok');
    expect(r.release()).toBe(0);
  });

  it('passes the page giving up on to the network request', async () => {
    const r = new Retirement();
    const net = hangingNetwork();
    const page = new AbortController();
    const pending = r.fetch(net.fetchImpl, new Request('https://cdn.jsdelivr.net/pyodide/v0/full/numpy.whl', { signal: page.signal }));
    page.abort(new DOMException('timed out', 'TimeoutError'));
    await expect(pending).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(r.release()).toBe(0);
  });

  it('gives a request that starts after the release a short limit, not for ever', async () => {
    vi.useFakeTimers();
    const r = new Retirement();
    r.release();
    const net = hangingNetwork();
    const pending = r.fetch(net.fetchImpl, new Request('https://me.github.io/dataseer/assets/late.js'));
    const outcome = pending.then(() => 'answered', (e: DOMException) => e.name);
    await vi.advanceTimersByTimeAsync(RETIRING_FETCH_MS - 1);
    expect(net.started).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBe('AbortError');
  });

  it('hands a navigation over unchanged (its mode cannot survive a re-made request)', async () => {
    const r = new Retirement();
    const seen: (RequestInit | undefined)[] = [];
    const navigation = new Request('https://me.github.io/dataseer/');
    Object.defineProperty(navigation, 'mode', { value: 'navigate' });
    await r.fetch(async (_req, init) => (seen.push(init), new Response('<html>')), navigation);
    expect(seen).toEqual([undefined]);
  });
});
