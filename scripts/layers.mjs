// Draws a folder's layers from its imports: which of its subfolders imports which, top first, and
// any cycle between them. Production files only (no tests, no testing/ folders), at a commit or in
// the working tree. docs/ARCHITECTURE.md shows its output for workers/data before and after #36:
//   node scripts/layers.mjs workers/data 776df60     (before: 76 flat files)
//   node scripts/layers.mjs workers/data             (now)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const [folder = 'workers/data', rev] = process.argv.slice(2);
const root = folder.replace(/\/$/, '');
const git = (/** @type {string[]} */ ...args) => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

const listed = rev ? git('ls-tree', '-r', '--name-only', rev, '--', root) : git('ls-files', '--', root);
const files = listed
  .split('\n')
  .filter((f) => /\.(ts|svelte)$/.test(f) && !/\.test\.ts$/.test(f) && !f.split('/').includes('testing'));
const known = new Set(files);
/** @param {string} f */
const text = (f) => (rev ? git('show', `${rev}:${f}`) : readFileSync(f, 'utf8'));
/** The subfolder of `root` a file is in, or "(top)". @param {string} f */
const part = (f) => {
  const rest = f.slice(root.length + 1).split('/');
  return rest.length > 1 ? `${rest[0]}/` : '(top)';
};

/** @type {Map<string, Set<string>>} */
const graph = new Map();
/** @type {Map<string, number>} */
const count = new Map();
for (const f of files) {
  const from = part(f);
  count.set(from, (count.get(from) ?? 0) + 1);
  if (!graph.has(from)) graph.set(from, new Set());
  // Imports only: a worker started by URL (`new URL('./x.worker.ts')`) runs beside its starter, not under it.
  for (const m of text(f).matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.[^'"?]+)/g)) {
    const base = relative('.', normalize(join(dirname(f), m[1] ?? '')));
    const to = [base, `${base}.ts`, `${base}.svelte`].find((p) => known.has(p));
    if (to && part(to) !== from) graph.get(from)?.add(part(to));
  }
}

/** Every cycle, each written `a → b → a`. */
const cycles = [];
/** @type {Map<string, 'open' | 'done'>} */
const state = new Map();
/** @param {string} node @param {string[]} path */
const visit = (node, path) => {
  if (state.get(node) === 'done') return;
  if (state.get(node) === 'open') {
    cycles.push([...path.slice(path.indexOf(node)), node].join(' → '));
    return;
  }
  state.set(node, 'open');
  for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
  state.set(node, 'done');
};
for (const node of graph.keys()) visit(node, []);

// Top first: a folder after every folder that imports it (cycles broken where they close).
/** @type {string[]} */
const order = [];
const placed = new Set();
/** @param {string} node @param {Set<string>} seen */
const place = (node, seen) => {
  if (placed.has(node) || seen.has(node)) return;
  seen.add(node);
  for (const [other, targets] of graph) if (targets.has(node)) place(other, seen);
  placed.add(node);
  order.push(node);
};
for (const node of [...graph.keys()].sort()) place(node, new Set());

const width = Math.max(...order.map((n) => n.length));
console.log(`${root} at ${rev ?? 'the working tree'}: ${files.length} production files in ${graph.size} folder${graph.size === 1 ? '' : 's'}`);
for (const node of order) {
  const targets = [...(graph.get(node) ?? [])].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  console.log(`  ${node.padEnd(width)}  ${String(count.get(node)).padStart(3)} files  imports ${targets.length > 0 ? targets.join(' ') : '—'}`);
}
console.log(`  cycles between folders: ${cycles.length > 0 ? cycles.join('; ') : 'none'}`);
