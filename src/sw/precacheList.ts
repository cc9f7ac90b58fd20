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

/**
 * `shell`: the files index.html loads (its module script, preloads, styles) — precached whatever
 * their size. Cached on first use, the main bundle would be missing offline: the first visit
 * loads it before the service worker controls the page, and an offline reload is a blank page.
 */
export function selectPrecache(files: readonly BuildFile[], limitBytes = PRECACHE_LIMIT_BYTES, shell: ReadonlySet<string> = new Set()): string[] {
  return files
    .filter((f) => !NEVER.some((re) => re.test(f.path)) && !NOT_PRECACHED.some((re) => re.test(f.path)))
    .filter((f) => f.path === 'index.html' || shell.has(f.path) || f.bytes <= limitBytes)
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

/**
 * The build files index.html loads: each one whose build path it names as a URL (Vite writes
 * them as `./assets/…` or `/base/assets/…` in `src`/`href` attributes). Only files of this build
 * are candidates, so nothing is guessed: a path is in the page's HTML or it is not.
 */
export function filesNamedBy(html: string, files: readonly BuildFile[]): Set<string> {
  const named = new Set<string>();
  for (const f of files) {
    if (f.path === 'index.html' || NEVER.some((re) => re.test(f.path))) continue;
    if (html.includes(`/${f.path}"`) || html.includes(`"${f.path}"`) || html.includes(`/${f.path}'`)) named.add(f.path);
  }
  return named;
}
