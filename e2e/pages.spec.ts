/**
 * GitHub Pages: the same build, served by a plain static server under a deep sub-path
 * (`/some/sub/path/`), runs the main flow, and meets the installability criteria (manifest,
 * icons, a service worker with a fetch handler controlling the page).
 */
import { chromium, type BrowserContext } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchOptions } from '../scripts/browser.mjs';
import { expect, test } from './support/fixtures';
import { startPlainStaticServer, type PlainStaticServer } from './support/plain-static-server';
import { openIsolatedApp, runPython, waitIsolated } from './support/pwa';

const DIST = resolve(process.env.DIST_DIR ?? 'dist');
const PREFIX = '/some/sub/path/';

let server: PlainStaticServer;

test.beforeAll(async () => {
  server = await startPlainStaticServer({ root: DIST, prefix: PREFIX });
});

test.afterAll(async () => {
  await server?.close();
});

test('the main flow runs from a sub-path: sample, SQL, Python, Settings', async ({ browser }) => {
  const context = await browser.newContext();
  try {
    const { page, app } = await openIsolatedApp(context, server.url);

    await app.loadSample('penguins');
    expect(await app.scalar('SELECT count(*) AS n FROM penguins')).toBe('344');

    const result = await runPython(page, 't = sql("SELECT count(*) AS n FROM penguins")\nresult = int(t["n"][0]) + 1');
    await expect(result).toHaveText('345');

    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('textbox', { name: 'Base URL' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // Every file came from under the sub-path: nothing was asked of the origin root.
    expect(server.requests.filter((p) => !p.startsWith(PREFIX))).toEqual([]);
    expect(app.pageErrors).toEqual([]);
  } finally {
    await context.close();
  }
});

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}
interface Manifest {
  id?: string;
  name?: string;
  short_name?: string;
  start_url?: string;
  scope?: string;
  display?: string;
  theme_color?: string;
  background_color?: string;
  icons?: ManifestIcon[];
}

test('installable: a valid manifest, icons that load at their size, a worker with a fetch handler', async () => {
  // A real profile on disk: in Playwright's default off-the-record contexts Chromium never
  // installs apps and says so ("in-incognito"), which would hide every other verdict.
  const profile = mkdtempSync(join(tmpdir(), 'dataseer-profile-'));
  const options = launchOptions();
  // Playwright's headless shell is not the browser users install apps from; use full Chromium.
  const context = await chromium.launchPersistentContext(profile, 'executablePath' in options ? options : { ...options, channel: 'chromium' });
  try {
    await checkInstallable(context);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

async function checkInstallable(context: BrowserContext): Promise<void> {
  const page = await context.newPage();
  await page.goto(server.url);
  await waitIsolated(page);
  const manifestHref = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="manifest"]')?.href ?? null);
  expect(manifestHref).toBe(`${server.url}manifest.webmanifest`);
  const manifest = await page.evaluate(async (href) => (await fetch(href)).json() as Promise<Manifest>, manifestHref ?? '');
  expect(manifest).toMatchObject({ name: 'Dataseer', short_name: 'Dataseer', start_url: '.', scope: '.', display: 'standalone' });
  expect(manifest.id).toBeTruthy();
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);

  // Each PNG icon really decodes at the size the manifest claims.
  const pngs = (manifest.icons ?? []).filter((i) => i.type === 'image/png');
  expect(pngs.map((i) => `${i.sizes} ${i.purpose ?? 'any'}`).sort()).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
  for (const icon of pngs) {
    const size = await page.evaluate(async (src) => {
      const res = await fetch(new URL(src, document.querySelector<HTMLLinkElement>('link[rel="manifest"]')?.href));
      const bitmap = await createImageBitmap(await res.blob());
      return { type: res.headers.get('content-type'), size: `${bitmap.width}x${bitmap.height}` };
    }, icon.src);
    expect(size, icon.src).toEqual({ type: 'image/png', size: icon.sizes });
  }
  for (const href of ['apple-touch-icon.png', 'favicon.ico']) {
    expect((await page.request.get(`${server.url}${href}`)).ok(), href).toBe(true);
  }

  // A worker controls the page, and it has a fetch handler: the CORP header on our own file
  // can only come from it, since the plain server sends none.
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${server.url}sw.js`);
  expect(await page.evaluate(async () => (await fetch('manifest.webmanifest')).headers.get('cross-origin-resource-policy'))).toBe('same-origin');
  expect((await page.request.get(`${server.url}manifest.webmanifest`)).headers()['cross-origin-resource-policy']).toBeUndefined();

  // Chromium's own verdict.
  const cdp = await context.newCDPSession(page);
  const parsed = await cdp.send('Page.getAppManifest');
  expect(parsed.url).toBe(manifestHref);
  expect(parsed.errors).toEqual([]);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors).toEqual([]);
}
