// After merging a branch that edited files another branch moved (git follows the rename, but an
// import the first branch added is still written from the file's old place, or to a file's old
// place), this rewrites every relative import that resolves to nothing, using the renames
// `git diff -M <base> <ref>` records for each ref:
//   node scripts/followMoves.mjs <base> [<ref>…] [--dry]     (ref defaults to HEAD)
// e.g. after `git merge k2` on a tree that has a1's moves: node scripts/followMoves.mjs 776df60 a1
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const args = process.argv.slice(2);
const dry = args.includes('--dry');
const [base, ...refs] = args.filter((a) => !a.startsWith('--'));
if (!base) {
  console.error('usage: node scripts/followMoves.mjs <base> [<ref>…] [--dry]');
  process.exit(2);
}

/** new path → old path, and old path → new path, over every ref's renames since `base`. */
const newToOld = new Map();
const oldToNew = new Map();
for (const ref of refs.length ? refs : ['HEAD']) {
  const out = execFileSync('git', ['diff', '-M', '--diff-filter=R', '--name-status', base, ref], { encoding: 'utf8' });
  for (const line of out.split('\n')) {
    const [status, from, to] = line.split('\t');
    if (!status?.startsWith('R') || !from || !to) continue;
    newToOld.set(to, from);
    oldToNew.set(from, to);
  }
}

const EXTENSIONS = ['', '.ts', '.svelte', '.mjs', '.js', '/index.ts'];
const isFile = (p) => statSync(p, { throwIfNoEntry: false })?.isFile() === true;
/** The file a path names (with the extension it left out), or null. */
const find = (path, exists) => {
  for (const e of EXTENSIONS) if (exists(path + e)) return { file: path + e, ext: e };
  return null;
};

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.(ts|svelte|mjs|mts)$/.test(f) && !f.startsWith('node_modules/'));

let changed = 0;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const was = newToOld.get(file) ?? file;
  const out = text.replace(/((?:from\s+|import\s*\(\s*|import\s+|new\s+URL\(\s*)['"])(\.{1,2}\/[^'"?]*)/g, (whole, head, spec) => {
    if (find(normalize(join(dirname(file), spec)), isFile)) return whole;
    if (statSync(normalize(join(dirname(file), spec)), { throwIfNoEntry: false })?.isDirectory()) return whole; // a folder URL
    // Written from the file's old place, or to a file's old place: find where that file is now.
    for (const from of new Set([file, was])) {
      const target = normalize(join(dirname(from), spec));
      const hit = find(target, (p) => isFile(p) || oldToNew.has(p));
      if (!hit) continue;
      const now = oldToNew.get(hit.file) ?? hit.file;
      if (!isFile(now)) continue;
      let rel = relative(dirname(file), hit.ext ? now.slice(0, now.length - hit.ext.length) : now);
      if (!rel.startsWith('.')) rel = `./${rel}`;
      console.log(`${file}: ${spec} → ${rel}`);
      return head + rel;
    }
    console.log(`${file}: ${spec} → (not found)`);
    return whole;
  });
  if (out !== text) {
    changed++;
    if (!dry) writeFileSync(file, out);
  }
}
console.log(`${dry ? 'would rewrite' : 'rewrote'} imports in ${changed} files`);
