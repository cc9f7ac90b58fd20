// Hands the picked file to bare.worker.ts and shows what it measured as data-* attributes.
import type { BareReply } from './bare.worker';
import type { ParquetTimes } from './bareParquet';

const input = document.getElementById('file');
const output = document.getElementById('result');
if (!(input instanceof HTMLInputElement) || !(output instanceof HTMLOutputElement)) throw new Error('bare.html is missing its controls');

const worker = new Worker(new URL(`./bare.worker.ts`, import.meta.url), { type: 'module', name: 'bare' });
worker.addEventListener('message', (ev: MessageEvent<BareReply | { ok: true; parquet: ParquetTimes }>) => {
  const r = ev.data;
  if ('parquet' in r) {
    output.dataset.parquet = JSON.stringify(r.parquet);
    output.textContent = `parquet: decode ${r.parquet.decodeMs.toFixed(0)} ms, load cold ${r.parquet.coldMs.toFixed(0)} ms, warm ${r.parquet.warmMs.toFixed(0)} ms; by batch rows ${JSON.stringify(r.parquet.byBatchRows)}`;
    return;
  }
  if (!r.ok) {
    output.dataset.error = r.error;
    output.textContent = r.error;
    return;
  }
  output.dataset.firstMs = String(r.firstMs);
  output.dataset.defaultMs = String(r.defaultMs);
  output.dataset.appOptionsMs = String(r.appOptionsMs);
  output.dataset.rows = String(r.rows);
  output.dataset.groupBy = JSON.stringify(r.groupByMs);
  output.textContent = `first read_csv ${r.firstMs.toFixed(0)} ms, then ${r.defaultMs.toFixed(0)} ms, with the app's options ${r.appOptionsMs.toFixed(0)} ms, ${r.rows} rows`;
});
input.addEventListener('change', () => {
  const file = input.files?.[0];
  const params = new URLSearchParams(location.search);
  if (file) worker.postMessage({ file, repeats: Number(params.get('repeats') ?? 3), warm: Number(params.get('warm') ?? 0), parquet: file.name.endsWith('.parquet') });
});
