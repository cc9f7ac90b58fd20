/**
 * Helpers for the specs that run the built app from a plain static server (GitHub Pages-like):
 * waiting for the service worker's isolation reload, reading its caches, asking it its build.
 */
import { expect, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { DataApp } from './fixtures';

/** crossOriginIsolated of whatever document is current; false while a reload is under way. */
export async function isolated(page: Page): Promise<boolean> {
  try {
    return await page.evaluate(() => self.crossOriginIsolated);
  } catch {
    return false;
  }
}

/** Waits until the service worker controls the page and its one isolation reload is done. */
export async function waitIsolated(page: Page): Promise<void> {
  await expect.poll(() => isolated(page), { timeout: 60_000, message: 'the page never became cross-origin isolated' }).toBe(true);
}

/** Opens `url` in a new page of `context`, once the worker's isolation reload is done and the app is ready. */
export async function openIsolatedApp(context: BrowserContext, url: string): Promise<{ page: Page; app: DataApp }> {
  const page = await context.newPage();
  const app = new DataApp(page);
  await page.goto(url);
  await waitIsolated(page);
  await app.waitReady();
  return { page, app };
}

/** Paths of every response in this origin's Cache Storage. */
export async function cachedPaths(page: Page): Promise<string[]> {
  try {
    return await page.evaluate(async () => {
      const paths: string[] = [];
      for (const name of await caches.keys()) {
        for (const req of await (await caches.open(name)).keys()) paths.push(new URL(req.url).pathname);
      }
      return paths;
    });
  } catch {
    return [];
  }
}

/**
 * Same-origin files this page's resource timing says it loaded that the worker's caches do not
 * hold (yet): what an offline reload would miss.
 */
export async function notKept(page: Page): Promise<string[]> {
  const cached = new Set(await cachedPaths(page));
  const loaded = await page
    .evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.name.startsWith(`${location.origin}/`))
        .map((e) => new URL(e.name).pathname),
    )
    .catch(() => ['(the page did not answer)']);
  return [...new Set(loaded)].filter((p) => !cached.has(p));
}

/** The build id of the worker controlling the page (src/sw/messages.ts `version`), or null. */
export async function controllerBuildId(page: Page): Promise<string | null> {
  return page.evaluate(
    () =>
      new Promise<string | null>((resolve) => {
        const controller = navigator.serviceWorker.controller;
        if (!controller) return resolve(null);
        const channel = new MessageChannel();
        channel.port1.onmessage = (e: MessageEvent<{ buildId: string }>) => resolve(e.data.buildId);
        controller.postMessage({ type: 'version' }, [channel.port2]);
        // A stopped worker is started for the message; on a busy machine that can take a while.
        setTimeout(() => resolve(null), 20_000);
      }),
  );
}

/** The update notice (src/sw/UpdateNotice.svelte). */
export function updateNotice(page: Page): Locator {
  return page.getByRole('status', { name: 'A new version is available', exact: true });
}

/** The Python console, as python.spec.ts drives it. */
export async function runPython(page: Page, source: string): Promise<Locator> {
  const tab = page.getByRole('tab', { name: /python/i });
  if (await tab.count()) await tab.first().click();
  const panel = page.getByRole('region', { name: 'Python console' });
  const code = page.getByRole('textbox', { name: 'Python code' });
  await expect(code).toBeVisible({ timeout: 30_000 });
  const before = await panel.locator('[data-run-id]').getAttribute('data-run-id', { timeout: 1 }).catch(() => null);
  await code.fill(source);
  await page.getByRole('button', { name: 'Run Python' }).click();
  const newer = before ? `:not([data-run-id="${before}"])` : '';
  await expect(panel.locator(`[data-run-id]${newer}:not([data-outcome="pending"])`)).toBeAttached({ timeout: 120_000 });
  return panel.getByLabel('Python result');
}
