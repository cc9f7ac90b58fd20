/**
 * A key belongs to its host (issue #21, item 4). The key is saved for the scripted endpoint; a
 * local listener on another port is the "new host" the base URL is changed to, by typing or by a
 * preset. The listener must never see the key — unless the user sends it there with the button
 * that names both hosts (which also proves the listener would notice a key).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './support/fixtures';
import { configureEndpoint, useMockLlm } from './support/mockLlm';

const KEY = 'sk-key-origin-Zq83Lm0v';
let server: Server;
let newHost = '';
let seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];

test.beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    // Answers the preflight so that a key, if the page attached one, would really be sent.
    res.writeHead(req.method === 'OPTIONS' ? 204 : 200, {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': '*, authorization',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'content-type': 'application/json',
    });
    res.end(req.method === 'OPTIONS' ? undefined : JSON.stringify({ object: 'list', data: [{ id: 'listener-model', object: 'model' }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  newHost = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const mock = useMockLlm();

const keyed = () => seen.filter((r) => JSON.stringify(r.headers).includes(KEY));

test('a key saved for one host is not sent to another, typed or by preset', async ({ app }) => {
  const page = app.page;
  seen = [];
  await configureEndpoint(page, mock, { key: KEY });
  const mockHost = new URL(mock.url).host;

  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog');
  const baseUrl = dialog.getByRole('textbox', { name: 'Base URL' });
  const key = dialog.getByRole('textbox', { name: 'API key' });
  await expect(key).toHaveValue(KEY);

  // Typed: the new host gets Test connection's /models request, without the key.
  await baseUrl.fill(`http://${newHost}/v1`);
  await expect(key).toHaveValue('');
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.getByRole('list', { name: 'Available models' }).getByRole('button', { name: 'listener-model' })).toBeVisible({ timeout: 60_000 });
  expect(seen.some((r) => r.method === 'GET' && r.url === '/v1/models')).toBe(true);
  expect(keyed()).toEqual([]);
  // Test connection's /models carries no Authorization; the model check's client sends its placeholder.
  expect(seen.filter((r) => r.url === '/v1/models').map((r) => r.headers.authorization)).toEqual([undefined]);
  expect(seen.every((r) => r.headers.authorization === undefined || r.headers.authorization === 'Bearer not-needed')).toBe(true);

  // By preset: the preset's host has no key either.
  await dialog.getByRole('group', { name: 'Presets' }).getByRole('button', { name: 'Ollama' }).click();
  await expect(baseUrl).toHaveValue('http://localhost:11434/v1');
  await expect(key).toHaveValue('');
  await expect(dialog.getByRole('button', { name: `Send the key for ${mockHost} to localhost:11434` })).toBeVisible();

  // Saved with the new host: a reload keeps the key off it, and the old host keeps its key.
  await baseUrl.fill(`http://${newHost}/v1`);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(key).toHaveValue('');
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible({ timeout: 60_000 });
  expect(keyed()).toEqual([]);
  await baseUrl.fill(`${mock.url}/v1`);
  await expect(key).toHaveValue(KEY);

  // Only the confirmation that names both hosts sends the key there (and the listener sees it).
  await baseUrl.fill(`http://${newHost}/v1`);
  await dialog.getByRole('button', { name: `Send the key for ${mockHost} to ${newHost}` }).click();
  await expect(key).toHaveValue(KEY);
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect.poll(() => keyed().length, { timeout: 60_000 }).toBeGreaterThan(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});
