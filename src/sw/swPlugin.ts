/// <reference types="node" />
/**
 * Vite plugin that builds `src/sw/sw.ts` into `sw.js` at the root of the build, with the list of
 * files to precache baked in, and links the web app manifest (public/manifest.webmanifest) from
 * index.html. Build only: the dev server sends the isolation headers itself.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import type { Plugin, ResolvedConfig } from 'vite';
import { selectPrecache, servableFiles, type BuildFile } from './precacheList';

const SW_ENTRY = fileURLToPath(new URL('./sw.ts', import.meta.url));
export const SW_FILE = 'sw.js';
export const MANIFEST_FILE = 'manifest.webmanifest';

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });
}

export function swPlugin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'dataseer-sw',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    transformIndexHtml: {
      order: 'post',
      handler: () => [
        { tag: 'link', attrs: { rel: 'manifest', href: `./${MANIFEST_FILE}` }, injectTo: 'head' },
        { tag: 'meta', attrs: { name: 'theme-color', content: '#1f4e79' }, injectTo: 'head' },
      ],
    },
    async writeBundle(output, bundle) {
      const outDir = output.dir ?? config.build.outDir;
      const contents = new Map<string, Uint8Array | string>();
      for (const [fileName, item] of Object.entries(bundle)) contents.set(fileName, item.type === 'chunk' ? item.code : item.source);
      if (config.build.copyPublicDir && config.publicDir) {
        try {
          for (const full of walk(config.publicDir)) {
            const path = relative(config.publicDir, full).split(sep).join('/');
            if (!contents.has(path)) contents.set(path, readFileSync(full));
          }
        } catch {
          // No public folder: nothing to add.
        }
      }
      const files: BuildFile[] = [...contents].map(([path, body]) => ({ path, bytes: typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength }));
      const precache = selectPrecache(files);
      const hash = createHash('sha256');
      for (const path of servableFiles(files)) hash.update(path + '\0');
      for (const path of precache) hash.update(contents.get(path) ?? '');
      const result = await esbuild({
        entryPoints: [SW_ENTRY],
        bundle: true,
        format: 'iife',
        target: 'es2022',
        minify: true,
        write: false,
        legalComments: 'none',
        define: {
          __DATASEER_PRECACHE__: JSON.stringify(precache),
          __DATASEER_FILES__: JSON.stringify(servableFiles(files)),
          __DATASEER_BUILD_ID__: JSON.stringify(hash.digest('hex').slice(0, 16)),
        },
      });
      const code = result.outputFiles[0]?.text;
      if (code === undefined) throw new Error('dataseer-sw: esbuild produced no service worker');
      writeFileSync(join(outDir, SW_FILE), code);
      config.logger.info(`dataseer-sw: ${SW_FILE} precaches ${precache.length} of ${files.length} files`);
    },
  };
}
