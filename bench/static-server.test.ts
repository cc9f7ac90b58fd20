import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStaticServer } from './static-server.mjs';

describe('bench static server', () => {
  const root = mkdtempSync(join(tmpdir(), 'bench-static-'));
  const secretDir = mkdtempSync(join(tmpdir(), 'bench-secret-'));
  let server: { url: string; close: () => Promise<void> };

  beforeAll(async () => {
    writeFileSync(join(root, 'index.html'), '<p>app</p>');
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'assets', 'engine.wasm'), new Uint8Array([0, 97, 115, 109]));
    writeFileSync(join(secretDir, 'secret.txt'), 'no');
    // Port 0: the OS picks a free one, so the test never collides with a running bench.
    server = await startStaticServer(new Map([['/', root]]), 0);
  });
  afterAll(() => server.close());

  it('serves the build with the cross-origin isolation headers the app needs', async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('<p>app</p>');
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(res.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
  });

  it('serves .wasm as application/wasm so it can be compiled while streaming', async () => {
    const res = await fetch(`${server.url}/assets/engine.wasm`);
    expect(res.headers.get('content-type')).toBe('application/wasm');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array([0, 97, 115, 109]));
  });

  it('answers 404 for missing files and for paths that climb out of the root', async () => {
    expect((await fetch(`${server.url}/nope.js`)).status).toBe(404);
    const climb = `/..%2f${secretDir.split('/').pop() ?? ''}%2fsecret.txt`;
    expect((await fetch(`${server.url}${climb}`)).status).toBe(404);
  });
});
