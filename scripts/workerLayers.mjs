// A worker's structure drawn from its imports: which subfolders import which, the knots (folders
// that import each other, directly or round a loop) and, where a worker declares its layers, each
// folder's layer and any import that goes up or sideways. src/layering.test.ts and
// eslint.config.js check the same graph and the same lists, so the picture cannot drift:
//   node scripts/workerLayers.mjs            every worker
//   node scripts/workerLayers.mjs agent      one worker
//   node scripts/workerLayers.mjs agent --json
//   node scripts/workerLayers.mjs agent --no-layers   the graph alone, without the declared layers
//   node scripts/workerLayers.mjs agent --no-layers --at 776df60   as it was at a commit (before #36)
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const WORKERS = ['agent', 'data', 'python'];

/** The worker's root files, drawn as one node (they may import every folder; none may import them). */
export const ROOT_NODE = '(root)';

/**
 * workers/agent's layers, bottom first. A folder imports only folders of lower layers (never one
 * beside it in its own layer, never the worker's root files); agent.worker.ts, the entry, is the
 * only root file and sits above them all. docs/ARCHITECTURE.md says what each folder holds.
 */
export const AGENT_LAYERS = [
  ['store', 'examples'],
  ['core'],
  ['llm', 'tools', 'checkpoint'],
  ['knowledge', 'privacy', 'threads'],
  ['graph', 'usage'],
  ['service'],
];

/** Declared layers per worker (a worker without a list is held only to "no knots"). */
export const LAYERS = { agent: AGENT_LAYERS };

const isProduction = (f) => /\.(ts|svelte)$/.test(f) && !/\.test\.ts$/.test(f) && !f.includes('/testing/');

/** Production files (no tests, no testing/ folders) of `dirs`, repo-relative. */
export function productionFiles(dirs = ['src', 'workers', 'shared', 'protocol']) {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...dirs], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(isProduction);
}

/**
 * A file's relative imports (static, dynamic, side-effect, re-export) and worker URLs, each
 * `{ from, to, spawn }`: `to` repo-relative without its query; `spawn` when Vite builds it as a
 * worker (`?worker`, `new Worker(new URL(…))`). `text` is the file's text (default: read it).
 */
export function importsOf(file, text) {
  if (typeof text !== 'string') {
    try {
      text = readFileSync(join(ROOT, file), 'utf8');
    } catch {
      return []; // listed by git but deleted in the working tree
    }
  }
  const out = [];
  for (const m of text.matchAll(/(from\s+|import\s*\(\s*|import\s+|new\s+URL\(\s*)['"](\.[^'"]+)['"]/g)) {
    const [path = '', query = ''] = (m[2] ?? '').split('?');
    const to = relative(ROOT, normalize(join(ROOT, dirname(file), path)));
    out.push({ from: file, to, spawn: query === 'worker' || (m[1] ?? '').startsWith('new') });
  }
  return out;
}

/** The production files of `dirs` and their imports as they were at commit `at` (one `git cat-file`). */
export function graphAt(at, dirs = ['workers']) {
  const files = execFileSync('git', ['ls-tree', '-r', '--name-only', at, '--', ...dirs], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(isProduction);
  const blob = execFileSync('git', ['cat-file', '--batch'], { cwd: ROOT, input: files.map((f) => `${at}:${f}`).join('\n') + '\n', maxBuffer: 1 << 30 });
  const edges = [];
  let at0 = 0;
  for (const file of files) {
    const eol = blob.indexOf(10, at0);
    const size = Number(blob.subarray(at0, eol).toString('utf8').split(' ')[2]);
    edges.push(...importsOf(file, blob.subarray(eol + 1, eol + 1 + size).toString('utf8')));
    at0 = eol + 1 + size + 1;
  }
  return { files, edges };
}

/** The subfolder of `workers/<worker>/` a path is in, ROOT_NODE for its root files, null outside it. */
export function folderOf(worker, path) {
  const prefix = `workers/${worker}/`;
  if (!path.startsWith(prefix)) return null;
  const rest = path.slice(prefix.length).split('/');
  return rest.length > 1 ? rest[0] : ROOT_NODE;
}

/**
 * The worker's folder graph over `files` (production files) and their `edges`: each folder (the
 * root included) with its file count, and `graph.get(from).get(to)` = how many imports go from
 * one folder to another.
 */
export function folderGraph(worker, files, edges) {
  const counts = new Map();
  const graph = new Map();
  for (const f of files) {
    const a = folderOf(worker, f);
    if (a === null) continue;
    counts.set(a, (counts.get(a) ?? 0) + 1);
    if (!graph.has(a)) graph.set(a, new Map());
  }
  for (const e of edges) {
    const a = folderOf(worker, e.from);
    const b = folderOf(worker, e.to);
    if (a === null || b === null || b === a) continue;
    graph.get(a)?.set(b, (graph.get(a)?.get(b) ?? 0) + 1);
  }
  return { files: counts, graph };
}

/** The graph without the root node: the folders alone. */
export function foldersOnly(graph) {
  return new Map([...graph].filter(([a]) => a !== ROOT_NODE).map(([a, m]) => [a, new Map([...m].filter(([b]) => b !== ROOT_NODE))]));
}

/** Strongly connected components of more than one node: folders that import each other. */
export function knotsOf(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const knots = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) knots.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return knots.sort((a, b) => b.length - a.length);
}

/** Every simple cycle, each written `a → b → a` from its smallest node (fine for a few dozen folders). */
export function cyclesOf(graph) {
  const nodes = [...graph.keys()].sort();
  const cycles = [];
  for (const [i, start] of nodes.entries()) {
    const allowed = new Set(nodes.slice(i));
    const walk = (node, path) => {
      for (const next of graph.get(node)?.keys() ?? []) {
        if (next === start) cycles.push([...path, start].join(' → '));
        else if (allowed.has(next) && !path.includes(next)) walk(next, [...path, next]);
      }
    };
    walk(start, [start]);
  }
  return cycles;
}

/** Imports that break a layer list: up, sideways within a layer, or into the worker's root files. */
export function layerBreaks(graph, layers) {
  const rank = new Map(layers.flatMap((group, i) => group.map((f) => [f, i])));
  const out = [];
  for (const [a, targets] of graph) {
    if (a === ROOT_NODE) continue;
    for (const [b, n] of targets) {
      const ok = rank.has(a) && rank.has(b) && rank.get(b) < rank.get(a);
      if (!ok) out.push({ from: a, to: b, imports: n });
    }
  }
  return out;
}

const n = (count, noun) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * The picture: one line per folder with the folders it imports (×n imports), top layer first
 * when the worker declares its layers (and `layers` is not false); then its knots and cycles.
 */
export function draw(worker, files, edges, { layers: useLayers = true } = {}) {
  const { files: counts, graph } = folderGraph(worker, files, edges);
  const layers = useLayers ? LAYERS[worker] : undefined;
  const knots = knotsOf(graph);
  const cycles = cyclesOf(graph);
  const between = cyclesOf(foldersOnly(graph)).length;
  const name = (f) => (f === ROOT_NODE ? f : `${f}/`);
  const line = (f) => {
    const out = [...(graph.get(f)?.entries() ?? [])].sort(([a], [b]) => a.localeCompare(b)).map(([b, n]) => `${b}${n > 1 ? `×${n}` : ''}`);
    return `${`${name(f)} (${counts.get(f) ?? 0})`.padEnd(18)} → ${out.length ? out.join(' ') : '—'}`;
  };
  const folders = [...graph.keys()].filter((f) => f !== ROOT_NODE).length;
  const lines = [
    `workers/${worker}: ${n(counts.get(ROOT_NODE) ?? 0, 'production file')} at the root, ${n(folders, 'folder')}; ` +
      `${n(cycles.length, 'cycle')} through the folders and root files (${between} between folders alone), ${n(knots.length, 'knot')}`,
  ];
  if (layers) {
    const placed = new Set(layers.flat());
    lines.push(`  entry ${line(ROOT_NODE)}`);
    for (let i = layers.length - 1; i >= 0; i--) for (const f of layers[i]) if (graph.has(f)) lines.push(`  L${i}    ${line(f)}`);
    for (const f of [...graph.keys()].sort()) if (f !== ROOT_NODE && !placed.has(f)) lines.push(`  ??    ${line(f)}   (in no layer)`);
    const breaks = layerBreaks(graph, layers);
    lines.push(breaks.length ? `  against the layers: ${breaks.map((b) => `${b.from} → ${b.to} (${b.imports})`).join(', ')}` : '  every import goes down a layer');
  } else {
    for (const f of [...graph.keys()].sort()) lines.push(`  ${line(f)}`);
  }
  for (const k of knots) lines.push(`  knot: ${k.join(' ⇄ ')}`);
  if (cycles.length) lines.push(`  cycles: ${cycles.slice(0, 12).join('; ')}${cycles.length > 12 ? `; … ${cycles.length - 12} more` : ''}`);
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const atIndex = args.indexOf('--at');
  const at = atIndex >= 0 ? args[atIndex + 1] : undefined;
  const which = args.filter((a, i) => !a.startsWith('--') && !(atIndex >= 0 && i === atIndex + 1));
  const { files, edges } = at ? graphAt(at) : (() => {
    const now = productionFiles(['workers']);
    return { files: now, edges: now.flatMap((f) => importsOf(f)) };
  })();
  const workers = which.length ? which : WORKERS;
  if (json) {
    const out = Object.fromEntries(
      workers.map((w) => {
        const { files: counts, graph } = folderGraph(w, files, edges);
        return [w, { files: Object.fromEntries(counts), imports: Object.fromEntries([...graph].map(([a, m]) => [a, Object.fromEntries(m)])), knots: knotsOf(graph), cycles: cyclesOf(graph) }];
      }),
    );
    console.log(JSON.stringify(out, null, 2));
  } else {
    console.log(workers.map((w) => draw(w, files, edges, { layers: !args.includes('--no-layers') })).join('\n\n'));
  }
}
