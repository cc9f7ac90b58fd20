/// <reference types="node" />
/**
 * The whole real-file corpus (manifest.json), run by `npm run corpus`, which first writes the files
 * into the gitignored cache (materialise.mjs). Skipped otherwise: realCorpus.test.ts runs the real
 * files' shapes every time.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFile, openHost, type FileResult } from './realCorpus';
import { CACHE_DIR, loadManifest } from './manifest';
import { expectationProblems } from './expectations';

const dir = process.env.CORPUS_DIR ?? CACHE_DIR;
// Opt-in (`npm run corpus`): minutes of loads, and the files are not in the repository.
const entries = process.env.CORPUS_FULL ? loadManifest().filter((e) => existsSync(join(dir, e.file))) : [];
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
    const kinds = new Map<string, number>();
    for (const f of results.flatMap((x) => x.findings)) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
    const fixes = results.flatMap((x) => x.fixes);
    console.log(
      `${results.length} files; findings ${JSON.stringify(Object.fromEntries(kinds))}; fixes equal to native ${fixes.filter((f) => f.ok).length}/${fixes.length}; ` +
        `time-zone columns ${results.reduce((n, x) => n + x.timeZones.length, 0)} (date SQL failures ${results.reduce((n, x) => n + x.dateSqlFailures.length, 0)}); ` +
        `tables unlike native ${results.filter((x) => x.differs.length > 0).length}; not loaded ${results.filter((x) => x.error).length}; expectation problems ${problems.length}`,
    );
    expect(problems).toEqual([]);
  });
});

