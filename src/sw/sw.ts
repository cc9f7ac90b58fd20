/**
 * Dataseer's service worker. It gives every same-origin response the cross-origin isolation
 * headers a static host cannot set, precaches the app shell, and keeps the heavy engine files
 * and Pyodide packages once they have been used, so the app loads offline after one visit.
 * Built by swPlugin.ts into `sw.js` next to index.html; the constants below are filled in then.
 */
import { routeFor } from './policy';
import { cacheNames, keepUsed, pruneCaches, respond, type StrategyDeps } from './strategies';
import { isPageMessage, type VersionReply } from './messages';
import { Retirement } from './retirement';

/** Build-relative paths of the app shell, precached at install. */
declare const __DATASEER_PRECACHE__: readonly string[];
/** Build-relative paths of every file in the build, to prune first-use files of older builds. */
declare const __DATASEER_FILES__: readonly string[];
/** A hash of the precached files: a new one means a new shell cache. */
declare const __DATASEER_BUILD_ID__: string;

const worker = globalThis as unknown as ServiceWorkerGlobalScope;
const scopeUrl = worker.registration.scope;
const names = cacheNames(scopeUrl, __DATASEER_BUILD_ID__);
const absolute = (path: string) => new URL(path, scopeUrl).href;
const retirement = new Retirement();
const networkFetch = (request: Request, init?: RequestInit) => worker.fetch(request, init);
const buildFiles = new Set(__DATASEER_FILES__.map(absolute));

worker.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const shell = await worker.caches.open(names.shell);
      // no-cache: an index.html from the HTTP cache could belong to the previous build.
      await shell.addAll(__DATASEER_PRECACHE__.map((path) => new Request(absolute(path), { cache: 'no-cache' })));
      // No skipWaiting here: a new version waits until the user clicks Reload (a run in progress
      // must not lose its page). The first install has no older worker, so it activates at once.
    })(),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      await pruneCaches({ caches: worker.caches, names }, buildFiles);
      await worker.clients.claim();
    })(),
  );
});

worker.addEventListener('message', (event) => {
  const message: unknown = event.data;
  if (!isPageMessage(message)) return;
  switch (message.type) {
    case 'skip-waiting':
      event.waitUntil(worker.skipWaiting());
      return;
    case 'release':
      // Sent to the active worker by the page whose user accepted the update (register.ts).
      retirement.release();
      return;
    case 'claim':
      // Only an active worker may claim; a message that reaches any other is moot.
      event.waitUntil(worker.clients.claim().catch(() => undefined));
      return;
    case 'keep':
      event.waitUntil(keepUsed(message.urls, { caches: worker.caches, fetch: (r) => retirement.fetch(networkFetch, r), names }, buildFiles));
      return;
    case 'version': {
      const reply: VersionReply = { buildId: __DATASEER_BUILD_ID__ };
      event.ports[0]?.postMessage(reply);
      return;
    }
  }
});

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  const route = routeFor({ url: request.url, method: request.method, mode: request.mode, range: request.headers.get('Range'), cache: request.cache }, scopeUrl);
  if (route.kind === 'passthrough') return;
  const deps: StrategyDeps = {
    caches: worker.caches,
    fetch: (r) => retirement.fetch(networkFetch, r),
    names,
    shellUrl: absolute('index.html'),
    waitUntil: (work) => event.waitUntil(work),
    released: retirement.released,
  };
  event.respondWith(respond(route, request, deps));
});
