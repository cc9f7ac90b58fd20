// Wires the harness page to the app's own DataClient, so the bench measures the same client and
// worker code (and reads the same performance.measure entries) as the app.
import { DataClient } from '../../src/data/DataClient.svelte';
import { spawnDataWorker } from '../../src/engines/spawn';

function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`#${id} missing from the harness page`);
  return el;
}

const status = byId('status', HTMLParagraphElement);
const error = byId('error', HTMLParagraphElement);
const files = byId('files', HTMLInputElement);
const sql = byId('sql', HTMLTextAreaElement);
const run = byId('run', HTMLButtonElement);
const result = byId('result', HTMLOutputElement);
const datasets = byId('datasets', HTMLUListElement);
const client = new DataClient(spawnDataWorker);

// The client merges a load's datasets before the load resolves, so rendering then is enough.
function renderDatasets(): void {
  datasets.replaceChildren(
    ...client.datasets.map((d) => {
      const li = document.createElement('li');
      li.textContent = `${d.name} (${d.rowCount} rows)`;
      return li;
    }),
  );
}

client.start().then(
  () => {
    status.textContent = `DuckDB ${client.duckdbVersion ?? ''} ready`;
    renderDatasets();
  },
  (e: unknown) => (error.textContent = `DuckDB failed to start: ${e instanceof Error ? e.message : String(e)}`),
);

files.addEventListener('change', () => {
  const picked = [...(files.files ?? [])];
  files.value = '';
  void client.loadFiles(picked).then((names) => {
    if (names.length) status.textContent = `loaded ${names.join(', ')}`;
    else error.textContent = client.errors.map((e) => `${e.fileName}: ${e.message}`).join('; ');
    renderDatasets();
  });
});

run.addEventListener('click', () => {
  void client.query(sql.value).then((outcome) => {
    result.textContent = outcome.ok ? `${outcome.result.rowCount} rows` : '';
    error.textContent = outcome.ok ? '' : outcome.message;
  });
});
