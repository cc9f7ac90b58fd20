/**
 * After one online visit the app works with no network at all: served like GitHub Pages (plain
 * static server, sub-path), used once online (a sample, SQL, Python, a conversation with the
 * scripted model), then the browser goes offline and the server is stopped, and a reload still
 * lists the dataset, runs SQL and Python, and reopens the conversation.
 */
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { ask, chat, configureEndpoint, useMockLlm } from './support/mockLlm';
import { startPlainStaticServer, type PlainStaticServer } from './support/plain-static-server';
import { cachedPaths, openIsolatedApp, runPython, waitIsolated } from './support/pwa';

const DIST = resolve(process.env.DIST_DIR ?? 'dist');
const QUESTION = 'How many penguins are in the table?';
const ANSWER = 'There are 344 penguins in the table.';

let server: PlainStaticServer | undefined;
const mock = useMockLlm();

test.beforeAll(async () => {
  server = await startPlainStaticServer({ root: DIST, prefix: '/dataseer/' });
});

test.afterAll(async () => {
  await server?.close();
});

async function converse(page: Page): Promise<void> {
  await configureEndpoint(page, mock, { key: 'sk-offline-test' });
  await mock.script([{ type: 'text', content: ANSWER }]);
  await ask(page, QUESTION);
  const c = chat(page);
  await expect(c.answers).toContainText(ANSWER, { timeout: 60_000 });
  await expect(c.stop).toBeHidden({ timeout: 60_000 });
  await expect(c.threads.getByRole('button', { name: QUESTION })).toBeVisible();
}

test('after one online visit the app reloads offline with datasets, SQL, Python and conversations', async ({ browser }) => {
  if (!server) throw new Error('the static server did not start');
  const context = await browser.newContext();
  try {
    const { page, app } = await openIsolatedApp(context, server.url);

    // Online: use every engine once, so the worker keeps their files.
    await app.loadSample('penguins');
    expect(await app.scalar('SELECT count(*) AS n FROM penguins')).toBe('344');
    await expect(await runPython(page, 'result = sum(range(10))')).toHaveText('45');
    await converse(page);
    await expect
      .poll(() => cachedPaths(page), { timeout: 60_000, message: 'engine files were not cached on first use' })
      .toEqual(
        expect.arrayContaining([
          '/dataseer/index.html',
          expect.stringMatching(/\/assets\/duckdb-eh-.*\.wasm$/),
          expect.stringMatching(/\/assets\/pyodide\.asm-.*\.wasm$/),
          expect.stringMatching(/\/assets\/python_stdlib-.*\.zip$/),
          expect.stringMatching(/\/assets\/agent\.worker-.*\.js$/),
        ]),
      );

    // Offline, and the host is gone too: everything below comes from this browser alone.
    await context.setOffline(true);
    await server.close();
    server = undefined;
    await page.reload();
    await waitIsolated(page);
    await app.waitReady();

    await app.expectDataset('penguins');
    expect(await app.scalar('SELECT count(*) FILTER (WHERE "Species" = \'Adelie\') AS adelie FROM penguins')).toBe('152');
    await expect(await runPython(page, 't = sql("SELECT count(*) AS n FROM penguins")\nresult = int(t["n"][0]) * 2')).toHaveText('688');

    const thread = page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: QUESTION });
    await expect(thread).toBeVisible({ timeout: 60_000 });
    await thread.click();
    const log = page.getByRole('log', { name: 'Conversation' });
    await expect(log).toContainText(QUESTION);
    await expect(log).toContainText(ANSWER);
    expect(app.pageErrors).toEqual([]);
  } finally {
    await context.close();
  }
});
