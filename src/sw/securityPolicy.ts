/**
 * The Content Security Policy of the page and of each worker, by the script's file name. A
 * worker's policy comes from its own script response, so each gets only what it needs:
 *  - the Python worker runs model-written code: scripts from 'self' (and WebAssembly), network
 *    only to the Pyodide package CDN, no nested workers, no eval — `emscripten_run_script` and
 *    `import('http://…')` fail even if Python escaped into JavaScript;
 *  - the data worker and DuckDB's engine worker: network to 'self' only — SQL cannot fetch a URL
 *    (the engine worker also allows eval, which DuckDB-WASM's embind bindings need);
 *  - the agent worker talks to the user's endpoint (any host) but runs no model code;
 *  - the parse worker (imports) connects nowhere;
 *  - the page: scripts from 'self' only (model output and data never become code); it downloads
 *    the URLs a user loads and the agent's endpoint list, so it may connect out.
 * Served by the service worker (static hosts) and by the dev/preview servers (vite.config.ts).
 */

import { extensionDir } from '../../shared/duckdbExtensions';

/** Where Pyodide's packages come from in production (PythonClient's DEFAULT_PACKAGE_BASE_URL). */
export const PYODIDE_CDN = 'https://cdn.jsdelivr.net/pyodide/';

export type PolicyTarget = 'page' | 'python-worker' | 'data-worker' | 'duckdb-worker' | 'agent-worker' | 'decode-worker' | 'parse-worker';

const COMMON = ["object-src 'none'", "base-uri 'none'", "form-action 'none'"];

const POLICIES: Record<PolicyTarget, string[]> = {
  page: [
    "default-src 'self'",
    // WebAssembly (parquet and chart export) compiles on the page; no eval, no inline script.
    "script-src 'self' 'wasm-unsafe-eval'",
    // Svelte and Plotly set inline styles.
    "style-src 'self' 'unsafe-inline'",
    // Figures are data: images only as data:/blob: URLs, never fetched from elsewhere.
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "media-src 'self' data: blob:",
    // Loading a dataset by URL and the dev server's hot reload.
    "connect-src 'self' https: http: ws: wss: data: blob:",
    // Map figures (scattermap, choroplethmap, densitymap): the bundled MapLibre starts its tile
    // worker from a blob: URL. Only the page's own scripts can make one (script-src is 'self'),
    // the worker inherits this policy, and figureSafety.ts leaves a map nothing to fetch.
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "frame-ancestors 'none'",
  ],
  'python-worker': [
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval'",
    `connect-src 'self' ${PYODIDE_CDN}`,
    "worker-src 'none'",
  ],
  // Both DuckDB workers may also fetch DuckDB's own extensions, from that version's path of its
  // repository only (extensions.ts); SQL still cannot reach it: external access is off after set-up.
  'data-worker': ["default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", `connect-src 'self' ${extensionDir()}`, "worker-src 'self'"],
  // DuckDB-WASM's engine calls JavaScript through Emscripten's embind, which builds its method
  // callers with `new Function`: this worker needs 'unsafe-eval'. It runs no model-written
  // JavaScript, and its network stays 'self', so SQL still cannot fetch a URL.
  'duckdb-worker': ["default-src 'self'", "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'", `connect-src 'self' ${extensionDir()}`, "worker-src 'none'"],
  // Results become grid rows (workers/decode/): nothing to fetch, nothing to start.
  'decode-worker': ["default-src 'none'", "script-src 'self'", "connect-src 'none'", "worker-src 'none'"],
  'agent-worker': ["default-src 'self'", "script-src 'self'", "connect-src 'self' https: http:", "worker-src 'none'"],
  // Parses the files the user imports (dictionaries, notebooks): it needs no network at all.
  'parse-worker': ["default-src 'self'", "script-src 'self'", "connect-src 'none'", "worker-src 'none'"],
};

export function contentSecurityPolicy(target: PolicyTarget): string {
  return [...POLICIES[target], ...COMMON].join('; ');
}

/** Which worker a script URL is (built `assets/python.worker-HASH.js` or dev `…/python.worker.ts`). */
export function workerTarget(pathname: string): PolicyTarget | undefined {
  const file = pathname.split('/').pop() ?? '';
  if (/^python\.worker\b/.test(file)) return 'python-worker';
  if (/^data\.worker\b/.test(file)) return 'data-worker';
  if (/^agent\.worker\b/.test(file)) return 'agent-worker';
  if (/^decode\.worker\b/.test(file)) return 'decode-worker';
  if (/^parse\.worker\b/.test(file)) return 'parse-worker';
  if (/^duckdb-browser-[a-z]+\.worker\b/.test(file)) return 'duckdb-worker';
  return undefined;
}

/** The policy header for a response: the page's for documents, a worker's for its script. */
export function policyHeaderFor(pathname: string, isDocument: boolean): string | undefined {
  if (isDocument || /\.html?$/.test(pathname) || pathname.endsWith('/')) return contentSecurityPolicy('page');
  const target = workerTarget(pathname);
  return target ? contentSecurityPolicy(target) : undefined;
}
