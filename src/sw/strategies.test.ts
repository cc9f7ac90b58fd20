import { describe, expect, it, vi } from 'vitest';
import { routeFor } from './policy';
import { CACHE_WRITE_BUDGET_MS, cacheNames, keepUsed, pruneCaches, respond, type StrategyDeps } from './strategies';

const SCOPE = 'https://me.github.io/dataseer/';

/** A CacheStorage kept in memory; enough of the API for the strategies. */
class MemoryCaches {
  readonly stores = new Map<string, Map<string, Response>>();
  private store(name: string): Map<string, Response> {
    let s = this.stores.get(name);
    if (!s) this.stores.set(name, (s = new Map()));
    return s;
  }
  async open(name: string) {
    const s = this.store(name);
    const url = (r: RequestInfo | URL) => (typeof r === 'string' ? r : r instanceof URL ? r.href : r.url);
    return {
      match: async (r: RequestInfo | URL) => s.get(url(r))?.clone(),
      put: async (r: RequestInfo | URL, res: Response) => void s.set(url(r), res),
      keys: async () => [...s.keys()].map((u) => new Request(u)),
      delete: async (r: RequestInfo | URL) => s.delete(url(r)),
    };
  }
  async keys() {
    return [...this.stores.keys()];
  }
  async delete(name: string) {
    return this.stores.delete(name);
  }
}

/** Node's Response is type "default"; a browser's own fetch gives "basic" or "cors". */
function served(body: string, type: 'basic' | 'cors', status = 200): Response {
  const res = new Response(body, { status, headers: { 'Content-Type': 'text/plain' } });
  Object.defineProperty(res, 'type', { value: type });
  return res;
}

function setup(network: (url: string) => Response | null) {
  const caches = new MemoryCaches();
  const fetched: string[] = [];
  const pending: Promise<unknown>[] = [];
  const deps: StrategyDeps = {
    caches: caches as unknown as CacheStorage,
    fetch: async (request) => {
      fetched.push(request.url);
      const res = network(request.url);
      if (!res) throw new TypeError('Failed to fetch');
      return res;
    },
    names: cacheNames(SCOPE, 'build1'),
    shellUrl: `${SCOPE}index.html`,
    waitUntil: (work) => void pending.push(work),
  };
  const get = async (url: string, mode: RequestMode | 'navigate' = 'cors') => {
    const route = routeFor({ url, method: 'GET', mode, range: null, cache: 'default' }, SCOPE);
    if (route.kind === 'passthrough') throw new Error(`${url} is not handled`);
    const res = await respond(route, new Request(url), deps);
    await Promise.all(pending);
    return res;
  };
  return { caches, fetched, deps, get };
}

describe('respond', () => {
  it('lets a stalled cache write hold the worker for a bounded time only', async () => {
    vi.useFakeTimers();
    try {
      const t = setup(() => served('wasm bytes', 'basic'));
      const stalled = { put: () => new Promise<void>(() => {}), match: async () => undefined };
      t.deps.caches = { open: async () => stalled, match: async () => undefined } as unknown as CacheStorage;
      let work: Promise<unknown> | undefined;
      t.deps.waitUntil = (w) => void (work = w);
      const route = routeFor({ url: `${SCOPE}assets/duckdb-eh-x.wasm`, method: 'GET', mode: 'cors', range: null, cache: 'default' }, SCOPE);
      if (route.kind === 'passthrough') throw new Error('not handled');
      const res = await respond(route, new Request(`${SCOPE}assets/duckdb-eh-x.wasm`), t.deps);
      expect(await res.text()).toBe('wasm bytes');
      let done = false;
      void work?.then(() => (done = true));
      await vi.advanceTimersByTimeAsync(CACHE_WRITE_BUDGET_MS - 1);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(2);
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets go of a stalled cache write at once when the user accepted the next version', async () => {
    const t = setup(() => served('wasm bytes', 'basic'));
    const stalled = { put: () => new Promise<void>(() => {}), match: async () => undefined };
    t.deps.caches = { open: async () => stalled, match: async () => undefined } as unknown as CacheStorage;
    let release: () => void = () => undefined;
    t.deps.released = new Promise<void>((resolve) => (release = resolve));
    let work: Promise<unknown> | undefined;
    t.deps.waitUntil = (w) => void (work = w);
    const route = routeFor({ url: `${SCOPE}assets/duckdb-eh-x.wasm`, method: 'GET', mode: 'cors', range: null, cache: 'default' }, SCOPE);
    if (route.kind === 'passthrough') throw new Error('not handled');
    await respond(route, new Request(`${SCOPE}assets/duckdb-eh-x.wasm`), t.deps);
    let done = false;
    void work?.then(() => (done = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(done).toBe(false);
    release();
    await work;
    expect(done).toBe(true);
  });

  it('keeps a hashed file after its first use and serves it from the cache with the headers', async () => {
    const script = `${SCOPE}assets/plotly.min-x.js`;
    const t = setup(() => served('script', 'basic'));
    const first = await t.get(script);
    expect(await first.text()).toBe('script');
    const second = await t.get(script);
    expect(await second.text()).toBe('script');
    expect(second.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect(t.fetched).toEqual([script]);
  });

  it('hands a cached .wasm over as it was stored, not rebuilt, so V8 can reuse the code it cached for it', async () => {
    const wasm = `${SCOPE}assets/duckdb-eh-x.wasm`;
    const t = setup(() => served('wasm bytes', 'basic'));
    await t.get(wasm);
    const stored = await (await t.caches.open(t.deps.names.assets)).match(wasm);
    const second = await t.get(wasm);
    expect(await second.text()).toBe('wasm bytes');
    // Rebuilding would add the isolation headers; the stored response has none of its own.
    expect(second.headers.get('cross-origin-embedder-policy')).toBeNull();
    expect([...second.headers]).toEqual([...(stored?.headers ?? [])]);
    expect(t.fetched).toEqual([wasm]);
  });

  it('does not keep failures', async () => {
    const t = setup(() => served('missing', 'basic', 404));
    expect((await t.get(`${SCOPE}assets/gone.js`)).status).toBe(404);
    await t.get(`${SCOPE}assets/gone.js`);
    expect(t.fetched).toHaveLength(2);
  });

  it('answers a page load offline with the precached index.html', async () => {
    const t = setup(() => null);
    await (await t.caches.open(t.deps.names.shell)).put(`${SCOPE}index.html`, served('<h1>Dataseer</h1>', 'basic'));
    const page = await t.get(`${SCOPE}?thread=2`, 'navigate');
    expect(await page.text()).toBe('<h1>Dataseer</h1>');
    expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  });

  it('fails a page load offline when nothing was cached, rather than invent a page', async () => {
    const t = setup(() => null);
    await expect(t.get(SCOPE, 'navigate')).rejects.toThrow('Failed to fetch');
  });

  it('prefers the network for unhashed files and falls back to the last copy', async () => {
    let online = true;
    let version = 1;
    const t = setup(() => (online ? served(`v${version}`, 'basic') : null));
    const sample = `${SCOPE}samples/cars.json`;
    expect(await (await t.get(sample)).text()).toBe('v1');
    version = 2;
    expect(await (await t.get(sample)).text()).toBe('v2');
    online = false;
    expect(await (await t.get(sample)).text()).toBe('v2');
  });

  it('keeps CDN packages only when the CORS download succeeds, and leaves their headers alone', async () => {
    const pkg = 'https://cdn.jsdelivr.net/pyodide/v0.28.0/full/numpy.whl';
    let answer = served('busy', 'cors', 503);
    const t = setup(() => answer);
    expect((await t.get(pkg)).status).toBe(503);
    answer = served('wheel', 'cors');
    const ok = await t.get(pkg);
    expect(ok.headers.get('cross-origin-resource-policy')).toBeNull();
    expect(await (await t.get(pkg)).text()).toBe('wheel');
    expect(t.fetched).toEqual([pkg, pkg]);
  });
});

describe('pruneCaches', () => {
  it('drops older builds of this app and files the build no longer has, and nothing else', async () => {
    const caches = new MemoryCaches();
    const names = cacheNames(SCOPE, 'new');
    const old = cacheNames(SCOPE, 'old');
    const otherApp = cacheNames('https://me.github.io/other/', 'old');
    for (const name of [old.shell, names.shell, otherApp.shell, 'someone-else']) await caches.open(name);
    const assets = await caches.open(names.assets);
    await assets.put(`${SCOPE}assets/duckdb-eh-new.wasm`, served('new', 'basic'));
    await assets.put(`${SCOPE}assets/duckdb-eh-old.wasm`, served('old', 'basic'));

    await pruneCaches({ caches: caches as unknown as CacheStorage, names }, new Set([`${SCOPE}assets/duckdb-eh-new.wasm`]));

    expect(await caches.keys()).toEqual(expect.arrayContaining([names.shell, otherApp.shell, 'someone-else', names.assets]));
    expect(await caches.keys()).not.toContain(old.shell);
    expect((await assets.keys()).map((r) => r.url)).toEqual([`${SCOPE}assets/duckdb-eh-new.wasm`]);
  });
});

describe('keepUsed', () => {
  // Issue 30: a host that sends the isolation headers itself gets no isolation reload, so what the
  // first visit loaded before the worker controlled it (the main bundle, the engines' worker
  // scripts) must be handed to the worker, or the offline reload is a blank page.
  it('stores the build files a page loaded before control, once, and nothing that is not of this build', async () => {
    const caches = new MemoryCaches();
    const fetched: string[] = [];
    const deps = {
      caches: caches as unknown as CacheStorage,
      fetch: async (r: Request) => {
        fetched.push(r.url);
        return served(`bytes of ${r.url}`, 'basic');
      },
      names: cacheNames(SCOPE, 'build1'),
    };
    const build = new Set([`${SCOPE}assets/index-big.js`, `${SCOPE}assets/duckdb-browser-eh.worker-q.js`]);
    const urls = [`${SCOPE}assets/index-big.js`, `${SCOPE}assets/index-big.js`, `${SCOPE}assets/duckdb-browser-eh.worker-q.js`, 'https://cdn.example/x.js', `${SCOPE}assets/old-build.js`];
    expect(await keepUsed(urls, deps, build)).toBe(2);
    expect(fetched.sort()).toEqual([...build].sort());
    expect([...(caches.stores.get(deps.names.assets)?.keys() ?? [])].sort()).toEqual([...build].sort());
    // Already kept: not fetched again.
    expect(await keepUsed(urls, deps, build)).toBe(0);
    expect(fetched).toHaveLength(2);
  });
});
