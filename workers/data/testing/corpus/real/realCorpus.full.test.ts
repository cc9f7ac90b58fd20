/// <reference types="node" />
/**
 * The whole real-file corpus (manifest.json), run by `npm run corpus` once the files are in the
 * cache (`node workers/data/testing/corpus/real/materialise.mjs`). Skipped when the cache is
 * absent, as on CI: the committed subset runs every time in realCorpus.test.ts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFile, openHost, type FileResult } from './realCorpus';
import { CACHE_DIR, loadManifest } from './manifest';

const dir = process.env.CORPUS_DIR ?? CACHE_DIR;
const entries = loadManifest().filter((e) => existsSync(join(dir, e.file)));
const only = process.env.CORPUS_ONLY;

describe.skipIf(entries.length === 0)('real CSV corpus (full)', { timeout: 3_600_000 }, () => {
  it(`loads ${entries.length} real files as native DuckDB does, with the expected findings and fixes`, async () => {
    const app = await openHost();
    const results: FileResult[] = [];
    const problems: string[] = [];
    for (const e of entries) {
      if (only && !e.file.includes(only)) continue;
      const path = join(dir, e.file);
      let r: FileResult;
      try {
        r = await checkFile(app, path, e.file.split('/').pop()!, new Uint8Array(readFileSync(path)));
      } catch (err) {
        r = { file: e.file, rows: 0, columns: [], differs: [], findings: [], fixes: [], timeZones: [], dateSqlFailures: [], error: String(err) };
      }
      r.file = e.file;
      results.push(r);
      problems.push(...expectationProblems(e, r));
    }
    if (process.env.CORPUS_OUT) writeFileSync(process.env.CORPUS_OUT, JSON.stringify(results, null, 1));
    expect(problems).toEqual([]);
  });
});

import type { ManifestEntry } from './manifest';

/** What differs from the entry's expectation (findings by kind and columns; every check clean). */
export function expectationProblems(e: ManifestEntry, r: FileResult): string[] {
  const out: string[] = [];
  const at = (s: string) => out.push(`${e.file}: ${s}`);
  if (r.error && !e.expect.error) at(`error ${r.error}`);
  if (e.expect.error) return out;
  if (r.differs.length > 0) at(`differs from native DuckDB in ${r.differs.join(', ')}`);
  for (const f of r.fixes) if (!f.ok) at(`fix ${f.kind} ${JSON.stringify(f.options)} ${f.error ?? `differs in ${f.differs.join(', ')}`}`);
  for (const d of r.dateSqlFailures) at(`date SQL: ${d}`);
  const got = r.findings.map((f) => `${f.kind}:${[...f.columns].sort().join('|')}${f.fix ? '+fix' : ''}`).sort();
  const want = [...e.expect.findings].sort();
  if (JSON.stringify(got) !== JSON.stringify(want)) at(`findings ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  const tz = [...r.timeZones].sort();
  if (JSON.stringify(tz) !== JSON.stringify([...(e.expect.timeZones ?? [])].sort())) at(`time-zone columns ${JSON.stringify(tz)}, expected ${JSON.stringify(e.expect.timeZones ?? [])}`);
  return out;
}
