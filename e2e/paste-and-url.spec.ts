/** Data from pasted text and from URLs (same origin, and another origin with CORS). */
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { expect, sharedApp, test } from './support/fixtures';
import { expectSameRows, parseDisplayedNumber } from './support/compare';
import { rowsText } from './support/names';
import { nativeQuery, read } from './support/native';
import { generated } from './support/paths';

test.describe('paste and URL', () => {
  const shared = sharedApp();

  test('paste CSV text', async () => {
    const app = shared();
    const page = app.page;
    const before = await app.datasetNames();
    await app.openAddData();
    await page.getByRole('textbox', { name: 'Paste CSV', exact: true }).fill('fruit,kg\napple,3\npear,4.5\nplum,0.25\n');
    await page.getByRole('button', { name: 'Load pasted data', exact: true }).click();
    await expect.poll(async () => (await app.datasetNames()).length, { timeout: 60_000 }).toBe(before.length + 1);
    const [name] = (await app.datasetNames()).filter((n) => !before.includes(n));
    expect(name).toMatch(/^[a-z0-9_]+$/);
    await expect(app.datasetItem(name ?? '')).toContainText(rowsText(3));
    const { rows } = await app.runSql(`SELECT fruit, kg FROM "${name}" ORDER BY kg DESC`);
    expectSameRows(rows, [
      ['pear', '4.5'],
      ['apple', '3'],
      ['plum', '0.25'],
    ]);
  });

  // Issue 37: a big paste is held out of the box (laying out megabytes in a textarea blocks the page)
  // and DuckDB reads it in the data worker. The paste event is dispatched as the browser's would be.
  test('a big pasted CSV (1.5 MB) is held, not shown, and loads whole', async () => {
    const app = shared();
    const page = app.page;
    const before = await app.datasetNames();
    await app.openAddData();
    const rows = 60_000;
    const text = `k,label\n${Array.from({ length: rows }, (_, i) => `${i},"row ${i}, pasted"`).join('\n')}\n`;
    expect(text.length).toBeGreaterThan(1_000_000);
    const box = page.getByRole('textbox', { name: 'Paste CSV', exact: true });
    await box.evaluate((el, t) => {
      const data = new DataTransfer();
      data.setData('text/plain', t);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, text);
    await expect(page.getByRole('dialog', { name: 'Add data' }).getByRole('status')).toContainText('MB pasted, kept out of the box');
    await expect(box).toHaveValue('');
    await page.getByRole('button', { name: 'Load pasted data', exact: true }).click();
    await expect.poll(async () => (await app.datasetNames()).length, { timeout: 120_000 }).toBe(before.length + 1);
    const [name] = (await app.datasetNames()).filter((n) => !before.includes(n));
    const { rows: counted } = await app.runSql(`SELECT count(*) AS n, max(k) AS top FROM "${name}"`);
    expectSameRows(counted, [[String(rows), String(rows - 1)]]);
  });

  test('load a same-origin URL (the preview server’s samples/)', async () => {
    const app = shared();
    const page = app.page;
    const url = new URL('samples/seattle-weather.csv', page.url()).href;
    await app.openAddData();
    await page.getByRole('textbox', { name: 'Data URL', exact: true }).fill(url);
    await page.getByRole('button', { name: 'Load URL', exact: true }).click();
    await app.expectDataset('seattle_weather');
    await expect(app.datasetItem('seattle_weather')).toContainText(rowsText(1461));
  });

  test.describe('cross-origin URL', () => {
    let server: Server;
    let origin = '';
    let requests: string[] = [];

    test.beforeAll(async () => {
      const body = readFileSync(generated('remote-squares.csv'));
      server = createServer((req, res) => {
        requests.push(req.url ?? '');
        const headers = { 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' };
        if (req.method === 'OPTIONS') {
          res.writeHead(204, { ...headers, 'Access-Control-Allow-Headers': '*', 'Access-Control-Allow-Methods': 'GET, HEAD' });
          res.end();
        } else if (req.url === '/data/remote-squares.csv') {
          res.writeHead(200, { ...headers, 'Content-Type': 'text/csv', 'Content-Length': String(body.length) });
          res.end(req.method === 'HEAD' ? undefined : body);
        } else {
          res.writeHead(404, { ...headers, 'Content-Type': 'text/plain' });
          res.end('not found');
        }
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    test.afterAll(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    test.beforeEach(() => {
      requests = [];
    });

    test('a CSV served with CORS headers loads and matches native DuckDB', async () => {
      const app = shared();
      const page = app.page;
      await app.openAddData();
      await page.getByRole('textbox', { name: 'Data URL', exact: true }).fill(`${origin}/data/remote-squares.csv`);
      await page.getByRole('button', { name: 'Load URL', exact: true }).click();
      await app.expectDataset('remote_squares');
      expect(requests).toContain('/data/remote-squares.csv');
      const sql = 'SELECT count(*) AS n, sum(square) AS s, max(n) AS top FROM remote_squares';
      const { rows } = await app.runSql(sql);
      expectSameRows(rows, (await nativeQuery(sql, { remote_squares: read.csv(generated('remote-squares.csv')) })).rows);
    });

    test('a 404 shows an alert naming the file', async () => {
      const app = shared();
      const page = app.page;
      await app.openAddData();
      await page.getByRole('textbox', { name: 'Data URL', exact: true }).fill(`${origin}/data/missing-file.csv`);
      await page.getByRole('button', { name: 'Load URL', exact: true }).click();
      await expect(app.loadError('missing-file.csv')).toHaveCount(1, { timeout: 60_000 });
      await expect(app.loadError('missing-file.csv')).toContainText(/404|not found/i);
      await expect(app.removeButton('missing_file')).toHaveCount(0);
      expect(parseDisplayedNumber(await app.scalar('SELECT 41 + 1'))).toBe(42);
    });
  });
});
