/**
 * The app always comes up (issue 30): after one visit — no reload by the user, no engine used
 * but the SQL console — going offline and reloading shows the app and runs SQL. Before, the main
 * bundle (over the precache size limit) was left to "cache on first use", but the first visit
 * had loaded it before the service worker controlled the page: the offline reload was a blank
 * page (net::ERR_FAILED on assets/index-*.js).
 *
 * And a map figure that cannot draw (no WebGL) says so on its card and throws nothing into the page.
 */
import { resolve } from 'node:path';
import { expect, test } from './support/fixtures';
import { startPlainStaticServer, type PlainStaticServer } from './support/plain-static-server';
import { cachedPaths, notKept, openIsolatedApp, waitIsolated } from './support/pwa';
import { PythonConsole } from './support/pythonConsole';

const DIST = resolve(process.env.DIST_DIR ?? 'dist');

let server: PlainStaticServer | undefined;

test.beforeAll(async () => {
  server = await startPlainStaticServer({ root: DIST, prefix: '/dataseer/' });
});

test.afterAll(async () => {
  await server?.close();
});

test('after one visit, an offline reload shows the app and runs SQL', async ({ browser }) => {
  if (!server) throw new Error('the static server did not start');
  const context = await browser.newContext();
  try {
    const { page, app } = await openIsolatedApp(context, server.url);
    expect(await app.scalar('SELECT 40 + 2 AS n')).toBe('42');
    // Wait as a user would: the worker has installed the shell (it holds the main bundle) and
    // the data engine's files it served on this visit.
    await expect
      .poll(() => cachedPaths(page), { timeout: 60_000, message: 'the shell and the data engine were not cached' })
      .toEqual(expect.arrayContaining([expect.stringMatching(/\/assets\/index-[^/]*\.js$/), expect.stringMatching(/\/assets\/duckdb-eh-.*\.wasm$/)]));

    await context.setOffline(true);
    await server.close();
    server = undefined;
    await page.reload();
    await waitIsolated(page);
    await app.waitReady();
    expect(await app.scalar('SELECT sum(x) AS s FROM range(5) t(x)')).toBe('10');
    expect(app.pageErrors).toEqual([]);
  } finally {
    await context.close();
  }
});

test('after one visit to a host that sends the isolation headers itself (no isolation reload), an offline reload runs SQL', async ({ page, app }) => {
  // The preview server sends COOP/COEP: the page is isolated from its first load, so it is never
  // reloaded for isolation, and what it loaded before the worker took control (the main bundle,
  // the engines' worker scripts) reached the worker's caches only because the page handed it over.
  await app.open();
  expect(await app.scalar('SELECT 40 + 2 AS n')).toBe('42');
  await expect
    .poll(() => cachedPaths(page), { timeout: 60_000, message: 'the engines of this visit were not kept' })
    .toEqual(expect.arrayContaining([expect.stringMatching(/\/assets\/duckdb-browser[^/]*\.worker[^/]*\.js$/), expect.stringMatching(/\/assets\/duckdb-eh-.*\.wasm$/)]));
  // Every file the page loaded, the workers' scripts included: on a busy machine a worker's script
  // is reported seconds after the engine's files were kept (src/sw/handOver.ts), and it was then
  // lost for good — the offline reload failed now and then.
  await expect.poll(() => notKept(page), { timeout: 60_000, message: 'files this visit loaded were not kept' }).toEqual([]);
  await page.context().setOffline(true);
  await page.reload();
  await app.waitReady();
  expect(await app.scalar('SELECT sum(x) AS s FROM range(4) t(x)')).toBe('6');
  expect(app.pageErrors).toEqual([]);
});

test('a map figure that cannot draw shows its card message and throws nothing', async ({ page, app }) => {
  // A machine whose browser gives no WebGL (blocklisted GPU, remote desktop): MapLibre cannot
  // start (before, its GPUInitializationError reached the page, once per draw and resize).
  await page.addInitScript(() => {
    const original = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, type: string, ...rest: unknown[]) {
      if (/^(?:webgl2?|experimental-webgl)$/.test(type)) return null;
      return (original as (this: HTMLCanvasElement, t: string, ...r: unknown[]) => RenderingContext | null).call(this, type, ...rest);
    } as typeof HTMLCanvasElement.prototype.getContext;
  });
  await app.open();
  const py = new PythonConsole(page);
  await py.exec('fig = {"data": [{"type": "scattermap", "lat": [48.8, 40.7], "lon": [2.3, -74]}], "layout": {"map": {"style": "open-street-map", "zoom": 1}}}');
  const chart = py.panel.getByRole('figure').last();
  await expect(chart).toBeVisible();
  await expect(chart.getByRole('alert')).toContainText('The chart could not be drawn: this map needs WebGL2', { timeout: 30_000 });
  // Resizing redraws the map: its failure stays on the card too.
  await page.setViewportSize({ width: 900, height: 800 });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForTimeout(500);
  expect(app.pageErrors).toEqual([]);
});
