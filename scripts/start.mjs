// `npm start`: builds the app (saying what it is doing: a first build takes a minute or two) and
// serves it on http://127.0.0.1:$PORT (4173) with the same headers as `vite preview`. A build
// newer than every source is served as it is (`--build` rebuilds anyway).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build, preview } from 'vite';

const root = new URL('..', import.meta.url).pathname;
const port = Number(process.env.PORT ?? 4173);
const INPUTS = ['index.html', 'vite.config.ts', 'package.json', 'package-lock.json', 'src', 'workers', 'protocol', 'shared', 'public', 'scripts'];
const started = Date.now();
const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;

/** The newest modification time under `path` (a file or a folder, node_modules left out). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let latest = st.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

/** Reports the build's progress every few seconds: how many modules are done, and the phase. */
function progressPlugin() {
  let modules = 0;
  let phase = 'reading and compiling modules';
  let timer;
  return {
    name: 'dataseer-start-progress',
    buildStart() {
      timer ??= setInterval(() => console.log(`  … ${phase}: ${modules} modules so far (${seconds()})`), 5000);
    },
    transform() {
      modules++;
      return null;
    },
    renderStart() {
      phase = 'writing the bundles (DuckDB, Pyodide and the agent are large)';
    },
    closeBundle() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}

const dist = join(root, 'dist', 'index.html');
const builtAt = existsSync(dist) ? statSync(dist).mtimeMs : 0;
const sourcesAt = Math.max(...INPUTS.map((p) => newest(join(root, p))));
if (process.argv.includes('--build') || builtAt === 0 || sourcesAt > builtAt) {
  console.log(
    builtAt === 0
      ? 'Building Dataseer for the first time (1–3 minutes; progress below)…'
      : 'Sources changed since the last build: building Dataseer again (progress below)…',
  );
  await build({ root, logLevel: 'warn', plugins: [progressPlugin()] });
  console.log(`Built in ${seconds()}.`);
} else {
  console.log(`The build in dist/ is newer than every source: serving it (npm start -- --build rebuilds).`);
}

const server = await preview({ root, preview: { host: '127.0.0.1', port, strictPort: true } });
console.log(`Dataseer is ready at http://127.0.0.1:${port}/ (Ctrl+C stops it).`);
void server;
