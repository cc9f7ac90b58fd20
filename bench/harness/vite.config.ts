// Builds the bench-only harness page (never part of the production build). Same plugins and
// worker settings as the app so the data worker is bundled the same way.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [svelte({ configFile: `${repoRoot}svelte.config.js` })],
  worker: { format: 'es' },
  optimizeDeps: { exclude: ['@duckdb/duckdb-wasm', 'pyodide', 'parquet-wasm'] },
  build: { target: 'es2022', chunkSizeWarningLimit: 8000 },
  logLevel: 'warn',
});
