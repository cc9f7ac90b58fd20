import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rewriteServiceWorker } from './swPlugin';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function build(html: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sw-plugin-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), html);
  writeFileSync(join(dir, 'assets/index-abc.js'), 'console.log(1)');
  writeFileSync(join(dir, 'assets/engine-xyz.wasm'), new Uint8Array(700 * 1024));
  return dir;
}

describe('rewriteServiceWorker', () => {
  it('bakes the precache list and build id into sw.js, leaving heavy files to first use', async () => {
    const dir = build('<p>v1</p>');
    const { buildId, precache } = await rewriteServiceWorker(dir, '');
    expect(precache).toEqual(['assets/index-abc.js', 'index.html']);
    const code = readFileSync(join(dir, 'sw.js'), 'utf8');
    expect(code).toContain(buildId);
    expect(code).toContain('assets/engine-xyz.wasm');
  });

  it('gives a new build id when the shell or DATASEER_BUILD_ID changes, the same one otherwise', async () => {
    const a = await rewriteServiceWorker(build('<p>v1</p>'), '');
    const again = await rewriteServiceWorker(build('<p>v1</p>'), '');
    const html = await rewriteServiceWorker(build('<p>v2</p>'), '');
    const tagged = await rewriteServiceWorker(build('<p>v1</p>'), 'deploy-2');
    expect(again.buildId).toBe(a.buildId);
    expect(new Set([a.buildId, html.buildId, tagged.buildId]).size).toBe(3);
  });

  it('precaches a main bundle over the size limit when index.html loads it', async () => {
    const dir = build('<script type="module" src="./assets/main-big.js"></script>');
    writeFileSync(join(dir, 'assets/main-big.js'), 'x'.repeat(700 * 1024));
    const { precache } = await rewriteServiceWorker(dir, '');
    expect(precache).toEqual(['assets/index-abc.js', 'assets/main-big.js', 'index.html']);
  });

  it('ignores an old sw.js in the folder', async () => {
    const dir = build('<p>v1</p>');
    const first = await rewriteServiceWorker(dir, '');
    expect((await rewriteServiceWorker(dir, '')).buildId).toBe(first.buildId);
  });
});
