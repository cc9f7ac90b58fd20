// Starts compare.worker.ts with the page (as the app starts DuckDB with the page), hands it the
// picked file, and shows what it measured as data-* attributes.
import type { CompareReply } from './compare.worker';

const input = document.getElementById('file');
const output = document.getElementById('result');
if (!(input instanceof HTMLInputElement) || !(output instanceof HTMLOutputElement)) throw new Error('compare.html is missing its controls');

const params = new URLSearchParams(location.search);
const worker = new Worker(new URL('./compare.worker.ts', import.meta.url), { type: 'module', name: 'compare' });
worker.postMessage({ kind: 'boot', bundle: params.get('bundle') === 'coi' ? 'coi' : 'eh', pageOrigin: performance.timeOrigin });
worker.addEventListener('message', (ev: MessageEvent<CompareReply>) => {
  const r = ev.data;
  if (!r.ok) {
    output.dataset.error = r.error;
    output.textContent = r.error;
    return;
  }
  output.dataset.result = JSON.stringify(r);
  output.textContent = JSON.stringify(r);
});
input.addEventListener('change', () => {
  const file = input.files?.[0];
  if (file) worker.postMessage({ kind: 'file', file, source: params.get('source') === 'file' ? 'file' : 'buffer' });
});
