/**
 * The house's layering, checked over every production import:
 * - workers/ and shared/ never import the page (src/);
 * - production code never imports test code (testing/ folders, *.test, e2e/);
 * - src/ feature folders form no cycle (a feature only imports "downward").
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const files = execFileSync('git', ['ls-files', 'src', 'workers', 'shared'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.(ts|svelte)$/.test(f) && !/\.test\.ts$/.test(f) && !f.includes('/testing/'));

/** Repo-relative targets of a file's relative imports (static and dynamic). */
function importsOf(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(ROOT, file), 'utf8');
  } catch {
    return []; // listed by git but deleted in the working tree
  }
  const out: string[] = [];
  for (const m of text.matchAll(/(?:from\s+|import\s*\()\s*['"](\.[^'"]+)['"]/g)) {
    out.push(relative(ROOT, normalize(join(ROOT, dirname(file), m[1] ?? ''))));
  }
  return out;
}

const edges = files.flatMap((f) => importsOf(f).map((to) => ({ from: f, to })));

describe('layering', () => {
  it('has production files to check', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it('workers/ and shared/ never import src/', () => {
    expect(edges.filter((e) => /^(workers|shared)\//.test(e.from) && e.to.startsWith('src/'))).toEqual([]);
  });

  it('production code never imports test code', () => {
    expect(edges.filter((e) => /(^|\/)testing\/|\.test(\.ts)?$|^e2e\//.test(e.to))).toEqual([]);
  });

  it('src/ feature folders import each other without cycles', () => {
    const feature = (p: string) => (p.split('/').length > 2 ? p.split('/')[1] : null);
    const graph = new Map<string, Set<string>>();
    for (const e of edges) {
      if (!e.from.startsWith('src/') || !e.to.startsWith('src/')) continue;
      const a = feature(e.from);
      const b = feature(e.to);
      if (!a || !b || a === b) continue;
      graph.set(a, (graph.get(a) ?? new Set()).add(b));
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (node: string, path: string[]) => {
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
    expect(cycles).toEqual([]);
  });
});
