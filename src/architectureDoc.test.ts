/**
 * docs/ARCHITECTURE.md cannot drift from the tree: every file or folder it names in backticks
 * exists, and every top-level folder and every subfolder of a worker is named in it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..');
const DOC = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
/** Where a name in the doc may be written relative to (the doc names files by their feature folder). */
const BASES = ['', 'src', 'workers', 'protocol', 'shared', 'testing', 'scripts', 'bench', 'e2e', 'docs', 'workers/agent', 'workers/data', 'workers/python'];
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'test-results', 'playwright-report']);

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path.slice(ROOT.length + 1));
  }
  return out;
}

const FILES = walk(ROOT);
const BASENAMES = new Set(FILES.map((f) => basename(f)));

/** Backticked names that are paths: a folder (`x/`), or a file with a source or doc extension. */
function namedPaths(doc: string): string[] {
  const names = [...doc.matchAll(/`([^`\s]+)`/g)].map((m) => m[1] ?? '');
  return [...new Set(names.filter((n) => /^[\w.@-]+(\/[\w.@-]+)*(\/|\.(ts|svelte|mjs|js|json|md|css|html))$/.test(n) && !n.includes('*')))];
}

function exists(name: string): boolean {
  const clean = name.replace(/\/$/, '');
  if (BASES.some((b) => existsSync(join(ROOT, b, clean)))) return true;
  // A file named by itself, in the paragraph about its folder.
  return !clean.includes('/') && BASENAMES.has(clean);
}

const dirs = (path: string) =>
  readdirSync(join(ROOT, path)).filter((n) => !SKIP_DIRS.has(n) && !n.startsWith('.') && statSync(join(ROOT, path, n)).isDirectory());

describe('docs/ARCHITECTURE.md', () => {
  it('names only files and folders that exist', () => {
    const missing = namedPaths(DOC).filter((n) => !exists(n));
    expect(missing, 'named in ARCHITECTURE.md but not in the tree').toEqual([]);
  });

  it('names every top-level folder and every subfolder of a worker', () => {
    const folders = [...dirs('.'), ...['agent', 'data', 'python'].flatMap((w) => dirs(join('workers', w)).map((d) => `workers/${w}/${d}`))];
    const unnamed = folders.filter((f) => {
      const leaf = f.split('/').at(-1) ?? f;
      const inLayout = new RegExp(`(^|\\s|\\*\\*)${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(\\s|\\*\\*|$)`, 'm').test(DOC);
      return !inLayout && !DOC.includes(`\`${f}/\``) && !DOC.includes(`\`${leaf}/\``);
    });
    expect(unnamed, 'folders ARCHITECTURE.md does not name').toEqual([]);
  });
});
