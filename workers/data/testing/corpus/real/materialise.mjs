#!/usr/bin/env node
// Writes the real-file corpus (manifest.json) into the gitignored cache, each file taken from a
// local git copy of its repository at the manifest's commit. Repositories are looked for under
// $CORPUS_MIRRORS (default /work/.mirror), as `owner+name/repo` (bare) or `owner+name` (a clone).
// A file whose repository is absent is listed and skipped; realCorpus.test.ts (realPatterns.ts)
// runs without any of this.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const mirrors = process.env.CORPUS_MIRRORS ?? '/work/.mirror';
const cache = process.env.CORPUS_DIR ?? join(here, '..', '..', '..', '..', '..', '.cache', 'corpus-real');
const manifest = JSON.parse(readFileSync(join(here, 'manifest.json'), 'utf8'));
/** The first n lines (LF-terminated), byte for byte. */
function headLines(bytes, n) {
  let end = 0;
  for (let k = 0; k < n; k++) {
    const lf = bytes.indexOf(10, end);
    if (lf < 0) return bytes;
    end = lf + 1;
  }
  return bytes.subarray(0, end);
}
let wrote = 0;
const missing = new Set();
for (const e of manifest) {
  const key = e.repo.replace('/', '+');
  const git = [join(mirrors, key, 'repo'), join(mirrors, key)].find((d) => existsSync(d));
  if (!git) {
    missing.add(e.repo);
    continue;
  }
  const out = join(cache, e.file);
  mkdirSync(dirname(out), { recursive: true });
  const bytes = execFileSync('git', ['-C', git, 'show', `${e.commit}:${e.path}`], { maxBuffer: 64 << 20 });
  writeFileSync(out, e.lines ? headLines(bytes, e.lines) : bytes);
  wrote++;
}
console.log(`${wrote} of ${manifest.length} files written to ${cache}`);
if (missing.size > 0) console.log(`no local copy of: ${[...missing].join(', ')}`);
