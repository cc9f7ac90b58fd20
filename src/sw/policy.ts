/**
 * Which caching strategy the service worker uses for a request. Pure, so the routing rules are
 * tested without a browser.
 */

/** What the worker does with one request. */
export type Route =
  /** Not ours to touch (cross-origin, non-GET, another scope): the browser handles it. */
  | { kind: 'passthrough' }
  /** A page load: network first so a deploy shows up at once, the cached shell when offline. */
  | { kind: 'navigation' }
  /** A content-hashed build file: immutable, so cache first (precached or cached on first use). */
  | { kind: 'immutable' }
  /** Other files of the app (samples, manifest, icons): network first, cache as the fallback. */
  | { kind: 'fresh' }
  /** A byte range of an app file: straight to the network, cached responses cannot serve it. */
  | { kind: 'range' }
  /**
   * A version-pinned Pyodide package (from the default CDN, or a wheel from any package base URL
   * the user set), or one of DuckDB's extensions for this DuckDB version: cache first, stored
   * only when it succeeds.
   */
  | { kind: 'cdn-package' };

export interface RequestFacts {
  url: string;
  method: string;
  mode: string;
  /** The request's Range header, or null. */
  range: string | null;
  /** The request's cache mode. */
  cache: string;
}

import { isDuckdbExtensionUrl } from '../../shared/duckdbExtensions';

/** Build output under this folder carries a content hash in its name (Vite's `assetsDir`). */
const HASHED_DIR = 'assets/';

/** Pyodide's CDN layout: https://cdn.jsdelivr.net/pyodide/v<version>/full/<file>. */
function isPyodideCdn(url: URL): boolean {
  return url.protocol === 'https:' && url.hostname === 'cdn.jsdelivr.net' && /^\/pyodide\/v[^/]+\/full\//.test(url.pathname);
}

/** A wheel's file name carries its version (PEP 427), so one URL always holds the same bytes. */
function isWheel(url: URL): boolean {
  return url.protocol === 'https:' && /\/[^/]+-[^/]+-[^/]+\.whl$/.test(url.pathname);
}

export function routeFor(request: RequestFacts, scopeUrl: string): Route {
  if (request.method !== 'GET') return { kind: 'passthrough' };
  // DevTools issues these; fetching one from a worker throws, so the browser keeps it.
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return { kind: 'passthrough' };
  const url = new URL(request.url);
  const scope = new URL(scopeUrl);
  if (url.origin !== scope.origin) {
    // Only CORS requests yield a readable response worth keeping; the rest (the user's LLM
    // endpoint, URL loads) never reach respondWith, so the worker cannot alter them.
    return (isPyodideCdn(url) || isWheel(url) || isDuckdbExtensionUrl(url)) && request.mode === 'cors' && request.range === null ? { kind: 'cdn-package' } : { kind: 'passthrough' };
  }
  if (!url.pathname.startsWith(scope.pathname)) return { kind: 'passthrough' };
  if (request.mode === 'navigate') return { kind: 'navigation' };
  const inScope = url.pathname.slice(scope.pathname.length);
  if (inScope === 'sw.js') return { kind: 'passthrough' };
  if (request.range !== null) return { kind: 'range' };
  return inScope.startsWith(HASHED_DIR) ? { kind: 'immutable' } : { kind: 'fresh' };
}

/** The cache key for a same-origin file: query strings never change a static file's content. */
export function cacheKey(url: string): string {
  const u = new URL(url);
  u.search = '';
  u.hash = '';
  return u.href;
}
