/// <reference types="node" />
/**
 * Vite plugin that builds `src/sw/sw.ts` into `sw.js` at the root of the build, with the list of
 * files to precache baked in, and links the web app manifest (public/manifest.webmanifest) from
 * index.html. Build only: the dev server sends the isolation headers itself.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import type { Plugin, ResolvedConfig } from 'vite';
import { filesNamedBy, selectPrecache, servableFiles, type BuildFile } from './precacheList';

const SW_ENTRY = fileURLToPath(new URL('./sw.ts', import.meta.url));
export const SW_FILE = 'sw.js';
export const MANIFEST_FILE = 'manifest.webmanifest';

/** Every file under `dir` (following links), as build-relative paths with `/` separators. */
function walk(dir: string, root = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? walk(full, root) : [relative(root, full).split(sep).join('/')];
  });
}

/** One file of the build: its size, and its bytes when the worker's build id needs them. */
export interface BuildEntry {
  bytes: number;
  read: () => Uint8Array | string;
}

export interface ServiceWorkerBuild {
  buildId: string;
  precache: string[];
}

/**
 * Writes `sw.js` into `outDir` for the given build files. The build id hashes the file list and
 * the precached files' bytes (so any change to the shell makes a new worker), plus `extraId`
 * (env DATASEER_BUILD_ID), which forces a new worker when nothing else changed.
 */
export async function writeServiceWorker(outDir: string, entries: ReadonlyMap<string, BuildEntry>, extraId = process.env.DATASEER_BUILD_ID ?? ''): Promise<ServiceWorkerBuild> {
  const files: BuildFile[] = [...entries].filter(([path]) => path !== SW_FILE).map(([path, entry]) => ({ path, bytes: entry.bytes }));
  const html = entries.get('index.html')?.read();
  const htmlText = html === undefined ? '' : typeof html === 'string' ? html : new TextDecoder().decode(html);
  const precache = selectPrecache(files, undefined, filesNamedBy(htmlText, files));
  const hash = createHash('sha256');
  hash.update(extraId + '\0');
  for (const path of servableFiles(files)) hash.update(path + '\0');
  for (const path of precache) hash.update(entries.get(path)?.read() ?? '');
  const buildId = hash.digest('hex').slice(0, 16);
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
      __DATASEER_BUILD_ID__: JSON.stringify(buildId),
    },
  });
  const code = result.outputFiles[0]?.text;
  if (code === undefined) throw new Error('dataseer-sw: esbuild produced no service worker');
  writeFileSync(join(outDir, SW_FILE), code);
  return { buildId, precache };
}

/** Rewrites `sw.js` of a finished build folder, e.g. after its index.html was changed. */
export function rewriteServiceWorker(dir: string, extraId?: string): Promise<ServiceWorkerBuild> {
  const entries = new Map<string, BuildEntry>();
  for (const path of walk(dir)) entries.set(path, { bytes: statSync(join(dir, path)).size, read: () => readFileSync(join(dir, path)) });
  return writeServiceWorker(dir, entries, extraId);
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
      const entries = new Map<string, BuildEntry>();
      for (const [fileName, item] of Object.entries(bundle)) {
        const body = item.type === 'chunk' ? item.code : item.source;
        entries.set(fileName, { bytes: typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength, read: () => body });
      }
      if (config.build.copyPublicDir && config.publicDir) {
        try {
          for (const path of walk(config.publicDir)) {
            const full = join(config.publicDir, path);
            if (!entries.has(path)) entries.set(path, { bytes: statSync(full).size, read: () => readFileSync(full) });
          }
        } catch {
          // No public folder: nothing to add.
        }
      }
      const { precache } = await writeServiceWorker(outDir, entries);
      config.logger.info(`dataseer-sw: ${SW_FILE} precaches ${precache.length} of ${entries.size} files`);
    },
  };
}
