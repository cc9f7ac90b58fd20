import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { samplesPlugin } from './scripts/vite-samples-plugin';
import { swPlugin } from './src/sw/swPlugin';
import { iconsPlugin } from './scripts/icons-plugin';

// Cross-origin isolation lets Pyodide use a SharedArrayBuffer interrupt and DuckDB use its
// threaded build. Static hosts that cannot set these get them from the service worker.
const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export default defineConfig({
  // Relative base so the same build works from any sub-path (GitHub Pages project sites).
  base: './',
  plugins: [svelte(), samplesPlugin(), iconsPlugin(), swPlugin()],
  server: { headers: isolationHeaders },
  preview: { headers: isolationHeaders },
  worker: { format: 'es' },
  optimizeDeps: { exclude: ['@duckdb/duckdb-wasm', 'pyodide', 'parquet-wasm'] },
  build: { target: 'es2022', chunkSizeWarningLimit: 4000 },
});
