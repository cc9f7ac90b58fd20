// Builds the bench-only harness page (never part of the production build). Same plugins and
// worker settings as the app so the data worker is bundled the same way.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { keepSideEffects } from '../../scripts/vite-side-effects-plugin';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
// BENCH_DUCKDB_WASM=<folder of another @duckdb/duckdb-wasm package>: the harness built against
// that package instead of the app's (bench/duckdbCandidate.mjs, `--only=duckdb-candidate`).
const candidate = process.env.BENCH_DUCKDB_WASM?.replace(/\/$/, '');
const ehWorker = '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [svelte({ configFile: `${repoRoot}svelte.config.js` })],
  worker: { format: 'es', plugins: () => [keepSideEffects(candidate ? [ehWorker, ehWorker.replace('@duckdb/duckdb-wasm', candidate)] : [ehWorker])] },
  ...(candidate ? { resolve: { alias: [{ find: /^@duckdb\/duckdb-wasm(?=\/|$)/, replacement: candidate }] } } : {}),
  optimizeDeps: { exclude: ['@duckdb/duckdb-wasm', 'pyodide', 'parquet-wasm'] },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 8000,
    rollupOptions: { input: { index: fileURLToPath(new URL('index.html', import.meta.url)), bare: fileURLToPath(new URL('bare.html', import.meta.url)), compare: fileURLToPath(new URL('compare.html', import.meta.url)) } },
  },
  logLevel: 'warn',
});
