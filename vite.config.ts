import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { samplesPlugin } from './scripts/vite-samples-plugin';
import { swPlugin } from './src/sw/swPlugin';
import { iconsPlugin } from './scripts/icons-plugin';
import { securityHeadersPlugin } from './src/sw/securityHeadersPlugin';
import { keepSideEffects } from './scripts/vite-side-effects-plugin';

// Cross-origin isolation lets Pyodide use a SharedArrayBuffer interrupt, and a content security
// policy per worker keeps model-written code and SQL off the network (src/sw/securityPolicy.ts).
// Static hosts that cannot set these headers get them from the service worker.

export default defineConfig({
  // Relative base so the same build works from any sub-path (GitHub Pages project sites).
  base: './',
  plugins: [svelte(), samplesPlugin(), iconsPlugin(), swPlugin(), securityHeadersPlugin()],
  // DuckDB's own worker script, imported by workers/data/duckdb-browser-cached.worker.ts.
  worker: { format: 'es', plugins: () => [keepSideEffects(['@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js'])] },
  optimizeDeps: { exclude: ['@duckdb/duckdb-wasm', 'pyodide', 'parquet-wasm'] },
  build: { target: 'es2022', chunkSizeWarningLimit: 4000 },
});
