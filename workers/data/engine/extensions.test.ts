/// <reference types="node" />
/**
 * The extension loading path up to DuckDB's LOAD itself, against a locally served stand-in for
 * DuckDB's extension repository (no test here can reach extensions.duckdb.org, and no extension
 * binary exists offline): which URLs are requested, what is LOADed and in which order, and what
 * happens when a file is missing, hangs, or DuckDB refuses it. DuckDB's own fetch and signature
 * check are not exercised here (README: unverified offline).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefetchExtensions } from './extensions';
import { NodeEngine } from '../testing/nodeEngine';
import { DUCKDB_VERSION, extensionUrl } from '../../../shared/duckdbExtensions';

let server: Server;
let repo = '';
const requested: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requested.push(req.url ?? '');
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.url?.endsWith('/icu.duckdb_extension.wasm')) {
      res.end(Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
    } else if (req.url?.endsWith('/parquet.duckdb_extension.wasm')) {
      // Never answers: the time limit must end the wait.
    } else {
      res.statusCode = 404;
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  repo = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('DuckDB extensions at set-up', { timeout: 30_000 }, () => {
  it('names the DuckDB version the npm package embeds', async () => {
    expect(await (await NodeEngine.open()).version()).toBe(DUCKDB_VERSION);
  });

  it('fetches each file from the version and build path, LOADs only those that arrived, and says why the others did not', async () => {
    requested.length = 0;
    const statements: string[] = [];
    const pre = prefetchExtensions({ fetch: (url, init) => fetch(url, init), platform: 'wasm_eh', repository: repo, timeoutMs: 800 });
    const state = await pre.load(async (sql) => {
      statements.push(sql);
    });
    expect(requested.sort()).toEqual([`/${DUCKDB_VERSION}/wasm_eh/icu.duckdb_extension.wasm`, `/${DUCKDB_VERSION}/wasm_eh/json.duckdb_extension.wasm`, `/${DUCKDB_VERSION}/wasm_eh/parquet.duckdb_extension.wasm`]);
    expect(statements).toEqual([`SET custom_extension_repository = '${repo}'`, 'INSTALL icu', 'LOAD icu', "SET TimeZone = 'UTC'"]);
    expect(state).toMatchObject({ icu: true, json: false, parquet: false });
    expect(state.detail.join('\n')).toContain(`json: not loaded: ${extensionUrl('json', 'wasm_eh', repo)} answered HTTP 404`);
    expect(state.detail.join('\n')).toMatch(/parquet: not loaded: .* could not be fetched/);
  });

  it('falls back when DuckDB refuses a file (a bad signature), and asks nothing when offline', async () => {
    const pre = prefetchExtensions({ fetch: (url, init) => fetch(url, init), platform: 'wasm_mvp', repository: repo, timeoutMs: 300 });
    const state = await pre.load(async (sql) => {
      if (sql === 'LOAD icu') throw new Error('IO Error: Extension "icu" could not be loaded because its signature is either missing or invalid');
    });
    expect(state).toMatchObject({ icu: false, json: false, parquet: false });
    expect(state.detail).toContain('icu: refused by DuckDB: IO Error: Extension "icu" could not be loaded because its signature is either missing or invalid');

    requested.length = 0;
    const statements: string[] = [];
    const offline = await prefetchExtensions({ fetch: (url, init) => fetch(url, init), platform: 'wasm_eh', repository: repo, online: false }).load(async (sql) => {
      statements.push(sql);
    });
    expect(requested).toEqual([]);
    expect(statements).toEqual([]);
    expect(offline.detail).toEqual(['offline: no extension was fetched']);
  });
});
