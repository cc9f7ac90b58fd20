/**
 * How the service worker answers each kind of request (see policy.ts). Caches and fetch are
 * passed in so the strategies run under test with in-memory fakes.
 */
import { cacheKey, type Route } from './policy';
import { withIsolationHeaders } from './isolationHeaders';

export interface CacheNames {
  /** The precached app shell of one build; replaced as a whole by the next build. */
  shell: string;
  /** Same-origin files cached on first use (DuckDB, Pyodide and parquet-wasm files, samples). */
  assets: string;
  /** Pyodide packages from the CDN, cached when they download successfully. */
  cdn: string;
}

export interface StrategyDeps {
  caches: CacheStorage;
  fetch: (request: Request) => Promise<Response>;
  names: CacheNames;
  /** Absolute URL of the precached index.html, the offline answer to any page load. */
  shellUrl: string;
  /** Keeps the worker alive until a cache write finishes (FetchEvent.waitUntil). */
  waitUntil: (work: Promise<unknown>) => void;
  /** Settles when the user accepted the next version: no cache write holds this worker after that (retirement.ts). */
  released?: Promise<void>;
}

/** Each cache name starts with this, so a build only ever cleans up its own app's caches. */
export function cacheNames(scopeUrl: string, buildId: string): CacheNames {
  const prefix = `dataseer:${new URL(scopeUrl).pathname}:`;
  return { shell: `${prefix}shell:${buildId}`, assets: `${prefix}assets`, cdn: `${prefix}cdn` };
}

async function cached(deps: StrategyDeps, names: string[], key: string): Promise<Response | undefined> {
  for (const name of names) {
    const cache = await deps.caches.open(name);
    const hit = await cache.match(key);
    if (hit) return hit;
  }
  return undefined;
}

/** Only complete, successful answers are stored: never errors, partial content or redirects. */
function storable(response: Response, type: 'basic' | 'cors'): boolean {
  return response.status === 200 && response.type === type && !response.redirected;
}

/**
 * How long a cache write may keep the worker busy. A write reads a clone of the response body;
 * when the page side of that body is dropped mid-download (a reload, a terminated worker) the
 * clone can stall, and a worker with unfinished work is never replaced: an accepted update would
 * wait for ever. Past this the file is simply cached on its next use.
 */
export const CACHE_WRITE_BUDGET_MS = 15_000;

function store(deps: StrategyDeps, name: string, key: string, response: Response): void {
  const write = deps.caches
    .open(name)
    .then((cache) => cache.put(key, response))
    // A full disk or quota error must not fail the request that already has its answer.
    .catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, CACHE_WRITE_BUDGET_MS)));
  deps.waitUntil(Promise.race([write, budget, ...(deps.released ? [deps.released] : [])]).finally(() => clearTimeout(timer)));
}

async function navigation(request: Request, deps: StrategyDeps): Promise<Response> {
  try {
    return withIsolationHeaders(await deps.fetch(request), request.url, true);
  } catch (error) {
    const hit = (await cached(deps, [deps.names.shell, deps.names.assets], cacheKey(request.url))) ?? (await cached(deps, [deps.names.shell], deps.shellUrl));
    if (hit) return withIsolationHeaders(hit, request.url, true);
    throw error;
  }
}

async function immutable(request: Request, deps: StrategyDeps): Promise<Response> {
  const key = cacheKey(request.url);
  const hit = await cached(deps, [deps.names.shell, deps.names.assets], key);
  // A .wasm answer is handed over as cached: V8 keeps its compiled code beside the cached
  // response and reuses it only for that very response, never for a rebuilt one. The headers
  // we add matter to documents and worker scripts, not to a same-origin module's bytes.
  if (hit) return isWasm(key) ? hit : withIsolationHeaders(hit, request.url);
  const response = await deps.fetch(request);
  if (storable(response, 'basic')) store(deps, deps.names.assets, key, response.clone());
  return withIsolationHeaders(response, request.url);
}

function isWasm(key: string): boolean {
  return new URL(key, 'http://x/').pathname.endsWith('.wasm');
}

async function fresh(request: Request, deps: StrategyDeps): Promise<Response> {
  const key = cacheKey(request.url);
  try {
    const response = await deps.fetch(request);
    if (storable(response, 'basic')) store(deps, deps.names.assets, key, response.clone());
    return withIsolationHeaders(response, request.url);
  } catch (error) {
    const hit = await cached(deps, [deps.names.shell, deps.names.assets], key);
    if (hit) return withIsolationHeaders(hit, request.url);
    throw error;
  }
}

async function cdnPackage(request: Request, deps: StrategyDeps): Promise<Response> {
  const hit = await cached(deps, [deps.names.cdn], request.url);
  if (hit) return hit;
  const response = await deps.fetch(request);
  if (storable(response, 'cors')) store(deps, deps.names.cdn, request.url, response.clone());
  // A CORS response is already acceptable to a require-corp page; it is returned unchanged.
  return response;
}

/**
 * Keeps build files a page loaded before this worker controlled it (the first visit): each one
 * that is a file of this build (`buildFiles`, absolute URLs) and not cached yet is fetched —
 * usually from the HTTP cache the first load filled — and stored as a first use would. Resolves
 * with how many were stored.
 */
export async function keepUsed(urls: readonly string[], deps: Pick<StrategyDeps, 'caches' | 'fetch' | 'names'>, buildFiles: ReadonlySet<string>): Promise<number> {
  let stored = 0;
  for (const url of new Set(urls.map((u) => cacheKey(u)))) {
    if (!buildFiles.has(url) || (await cached({ ...deps, shellUrl: '', waitUntil: () => {} }, [deps.names.shell, deps.names.assets], url))) continue;
    try {
      const response = await deps.fetch(new Request(url));
      if (!storable(response, 'basic')) continue;
      await (await deps.caches.open(deps.names.assets)).put(url, response);
      stored++;
    } catch {
      // Offline already, or the file is gone: it is cached on its next use.
    }
  }
  return stored;
}

/** The answer for a request the worker handles; `passthrough` routes never get here. */
export function respond(route: Exclude<Route, { kind: 'passthrough' }>, request: Request, deps: StrategyDeps): Promise<Response> {
  switch (route.kind) {
    case 'navigation':
      return navigation(request, deps);
    case 'immutable':
      return immutable(request, deps);
    case 'fresh':
      return fresh(request, deps);
    case 'range':
      return deps.fetch(request).then((r) => withIsolationHeaders(r, request.url));
    case 'cdn-package':
      return cdnPackage(request, deps);
  }
}

/**
 * Drops the caches of older builds and the first-use files the current build no longer has, so
 * each deploy does not leave its 70 MB of DuckDB files behind.
 */
export async function pruneCaches(deps: Pick<StrategyDeps, 'caches' | 'names'>, buildFiles: ReadonlySet<string>): Promise<void> {
  const ours = Object.values(deps.names);
  const prefix = deps.names.shell.slice(0, deps.names.shell.indexOf('shell:'));
  for (const name of await deps.caches.keys()) {
    if (name.startsWith(prefix) && !ours.includes(name)) await deps.caches.delete(name);
  }
  const assets = await deps.caches.open(deps.names.assets);
  for (const request of await assets.keys()) {
    if (!buildFiles.has(cacheKey(request.url))) await assets.delete(request);
  }
}
