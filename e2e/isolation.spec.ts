/**
 * The service worker on a host that cannot set headers (GitHub Pages): served by a plain static
 * server under a sub-path, the app must become cross-origin isolated after the worker's one
 * reload, leave cross-origin requests (the user's LLM endpoint) alone, keep DuckDB's files once
 * used, and load again with the network off.
 *
 * The plain server runs on a free port of its own, because E2E_PORT is taken by the suite's
 * `vite preview`, which sends the headers itself and so could not show anything here (each
 * worker's server, like those of offline, pages and update.spec.ts, is a distinct origin).
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { resolve } from 'node:path';
import { startPlainStaticServer, type PlainStaticServer } from './support/plain-static-server';
import { cachedPaths, isolated, updateNotice } from './support/pwa';

const DIST = resolve(process.env.DIST_DIR ?? 'dist');
const status = (page: Page) => page.getByRole('status').filter({ hasText: /DuckDB|Data engine/ });

let server: PlainStaticServer;

test.beforeAll(async () => {
  server = await startPlainStaticServer({ root: DIST, prefix: '/dataseer/' });
});

test.afterAll(async () => {
  await server?.close();
});

test('the service worker isolates the app on a plain host and serves it offline', async ({ browser }) => {
  const context: BrowserContext = await browser.newContext();
  try {
    const page = await context.newPage();
    const first = await page.goto(server.url);
    // The host really sends no isolation headers: whatever isolation follows is the worker's.
    expect(first?.headers()['cross-origin-embedder-policy']).toBeUndefined();

    await expect.poll(() => isolated(page), { timeout: 60_000 }).toBe(true);
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${server.url}sw.js`);
    expect(await page.evaluate(() => typeof SharedArrayBuffer)).toBe('function');
    await expect(page.getByRole('heading', { level: 1, name: /Dataseer/ })).toBeVisible();
    await expect(status(page)).toContainText(/DuckDB .*ready/, { timeout: 90_000 });
    // Exactly one reload: the first load and the isolated one, no loop.
    expect(server.requests.filter((p) => p === '/dataseer/')).toHaveLength(2);
    // The first install is not an update: no "new version" notice.
    await expect(updateNotice(page)).toHaveCount(0);

    // Same-origin files get the headers; a cross-origin CORS call, like the one to the user's LLM
    // endpoint, goes to the network untouched (no CORP header added) and still succeeds.
    const calls = await page.evaluate(async (otherOrigin) => {
      const own = await fetch('manifest.webmanifest');
      const other = await fetch(`${otherOrigin}/echo`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer test-key' },
        body: JSON.stringify({ model: 'm' }),
      });
      return {
        ownCorp: own.headers.get('cross-origin-resource-policy'),
        ownName: ((await own.json()) as { name: string }).name,
        otherCorp: other.headers.get('cross-origin-resource-policy'),
        otherBody: (await other.json()) as { received: string; authorization: string | null },
      };
    }, `http://localhost:${server.port}`);
    expect(calls.ownCorp).toBe('same-origin');
    expect(calls.ownName).toBe('Dataseer');
    expect(calls.otherCorp).toBeNull();
    expect(calls.otherBody).toEqual({ received: '{"model":"m"}', authorization: 'Bearer test-key' });

    // The shell is precached at install; DuckDB's wasm is kept after its first use.
    await expect.poll(() => cachedPaths(page), { timeout: 90_000 }).toEqual(expect.arrayContaining(['/dataseer/index.html', expect.stringMatching(/\/dataseer\/assets\/duckdb-.*\.wasm$/)]));

    await context.setOffline(true);
    const offline = await context.newPage();
    await offline.goto(server.url);
    await expect(offline.getByRole('heading', { level: 1, name: /Dataseer/ })).toBeVisible();
    expect(await isolated(offline)).toBe(true);
    // The engine starts from the cache and a precached sample loads with no network at all.
    await expect(status(offline)).toContainText(/DuckDB .*ready/, { timeout: 90_000 });
    // Samples are in the Add data menu, as a user finds them.
    await offline.getByRole('button', { name: 'Add data', exact: true }).click();
    await offline.getByRole('button', { name: 'Load sample penguins', exact: true }).click();
    await expect(offline.getByRole('list', { name: 'Datasets', exact: true }).getByRole('button', { name: 'Remove penguins', exact: true })).toBeVisible({ timeout: 60_000 });
    // And a direct network fetch really is off, so the above came from the worker's caches.
    expect(await offline.evaluate((u) => fetch(u, { cache: 'no-store' }).then(() => 'online', () => 'offline'), `http://localhost:${server.port}/dataseer/index.html`)).toBe('offline');
  } finally {
    await context.close();
  }
});
