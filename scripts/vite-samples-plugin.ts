import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

/** The sample files offered by "Try a sample": real public data from the vega-datasets package. */
export const SAMPLE_FILES = ['penguins.json', 'seattle-weather.csv', 'cars.json'] as const;

function vegaDataDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(dirname(require.resolve('vega-datasets'))), 'data');
}

/**
 * Copies the sample datasets into the build at build time (they are not committed) and serves
 * them from node_modules in dev, both under `samples/`.
 */
export function samplesPlugin(): Plugin {
  return {
    name: 'dataseer-samples',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const match = /\/samples\/([\w.-]+)$/.exec(req.url?.split('?')[0] ?? '');
        const file = match?.[1];
        if (!file || !(SAMPLE_FILES as readonly string[]).includes(file)) return next();
        res.setHeader('Content-Type', file.endsWith('.csv') ? 'text/csv' : 'application/json');
        createReadStream(join(vegaDataDir(), file)).pipe(res);
      });
    },
    generateBundle() {
      for (const file of SAMPLE_FILES) {
        this.emitFile({ type: 'asset', fileName: `samples/${file}`, source: readFileSync(join(vegaDataDir(), file)) });
      }
    },
  };
}
