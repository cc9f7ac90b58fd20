/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Where materialise.mjs puts the manifest's files (gitignored). */
export const CACHE_DIR = process.env.CORPUS_DIR ?? join(here, '..', '..', '..', '..', '..', '.cache', 'corpus-real');

export interface ManifestEntry {
  /** `owner+name/path`: where the file sits in the cache. */
  file: string;
  repo: string;
  path: string;
  commit: string;
  licence: string;
  /** What the file shows a loader (title line, day-first dates, time zones…), as judged by eye. */
  kinds: string[];
  expect: {
    /** `kind:col1|col2` (columns sorted) with `+fix` when the finding offers one. */
    findings: string[];
    timeZones?: string[];
    /** The app and native DuckDB both refuse the file. */
    error?: boolean;
  };
  /** Only the file's first N lines (an excerpt of a file too big to keep whole). */
  lines?: number;
  /** Why the expectation is what it is, where it is not obvious. */
  note?: string;
}

export function loadManifest(): ManifestEntry[] {
  return JSON.parse(readFileSync(join(here, 'manifest.json'), 'utf8')) as ManifestEntry[];
}
