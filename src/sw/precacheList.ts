/**
 * Which build files the service worker precaches. Pure, so the selection is tested without a
 * build. Heavy engine files are left to be cached on first use: precaching 70 MB of DuckDB builds
 * (only one of which a browser uses) would make every first visit download all of them.
 */

export interface BuildFile {
  /** Path relative to the build root, with `/` separators. */
  path: string;
  bytes: number;
}

/** Files above this are the engines' wasm and workers, Plotly and the like: cached on first use. */
export const PRECACHE_LIMIT_BYTES = 600 * 1024;

const NEVER = [/\.map$/, /^sw\.js$/, /(^|\/)\./];
/**
 * Fallback font formats (KaTeX ships woff2, woff and ttf of each face): every browser that runs
 * Dataseer uses woff2, so the others are served on demand rather than precached.
 */
const NOT_PRECACHED = [/\.(woff|ttf)$/];

export function selectPrecache(files: readonly BuildFile[], limitBytes = PRECACHE_LIMIT_BYTES): string[] {
  return files
    .filter((f) => !NEVER.some((re) => re.test(f.path)) && !NOT_PRECACHED.some((re) => re.test(f.path)))
    .filter((f) => f.path === 'index.html' || f.bytes <= limitBytes)
    .map((f) => f.path)
    .sort();
}

/** Every file the worker may serve from a cache: the rest are pruned from older builds. */
export function servableFiles(files: readonly BuildFile[]): string[] {
  return files
    .filter((f) => !NEVER.some((re) => re.test(f.path)))
    .map((f) => f.path)
    .sort();
}
