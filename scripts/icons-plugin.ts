/// <reference types="node" />
/**
 * Vite plugin: renders the PNG icons and favicon.ico from public/icon.svg (scripts/icons.ts) into
 * the build, and serves them in dev, so the manifest's icons exist wherever the app runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { FAVICON_ICO, ICONS, renderIcons } from './icons';

export const ICON_SOURCE = 'icon.svg';

export function iconsPlugin(): Plugin {
  let publicDir = '';
  let rendered: Promise<Map<string, Uint8Array>> | undefined;
  const icons = () => (rendered ??= renderIcons(readFileSync(join(publicDir, ICON_SOURCE), 'utf8')));
  return {
    name: 'dataseer-icons',
    configResolved(config) {
      publicDir = config.publicDir;
    },
    configureServer(server) {
      const names = new Set([...ICONS.map((i) => i.fileName), FAVICON_ICO]);
      server.middlewares.use((req, res, next) => {
        const name = (req.url ?? '').split('?')[0]?.split('/').pop() ?? '';
        if (!names.has(name)) return next();
        icons().then(
          (files) => {
            res.setHeader('Content-Type', name.endsWith('.ico') ? 'image/x-icon' : 'image/png');
            res.end(files.get(name));
          },
          (error: unknown) => next(error),
        );
      });
    },
    async generateBundle() {
      for (const [fileName, source] of await icons()) this.emitFile({ type: 'asset', fileName, source });
    },
    transformIndexHtml: () => [
      { tag: 'link', attrs: { rel: 'icon', href: `./${FAVICON_ICO}`, sizes: '32x32' }, injectTo: 'head' },
      { tag: 'link', attrs: { rel: 'icon', href: `./${ICON_SOURCE}`, type: 'image/svg+xml' }, injectTo: 'head' },
      { tag: 'link', attrs: { rel: 'apple-touch-icon', href: './apple-touch-icon.png' }, injectTo: 'head' },
    ],
  };
}
