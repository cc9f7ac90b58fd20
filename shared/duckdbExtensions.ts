/**
 * Where DuckDB's own extensions come from: DuckDB's extension repository, for the exact DuckDB
 * version this DuckDB-WASM embeds and the build in use (wasm_eh / wasm_mvp). Shared by the data
 * worker (which loads them), the service worker (which caches them) and the content security
 * policy (which allows that path and nothing else).
 */

export const DUCKDB_EXTENSION_REPOSITORY = 'https://extensions.duckdb.org';
/** The DuckDB inside @duckdb/duckdb-wasm 1.32.0 (a test checks it against the engine's own version). */
export const DUCKDB_VERSION = 'v1.4.3';
export const DUCKDB_EXTENSIONS = ['icu', 'json', 'parquet'] as const;
export type DuckdbExtension = (typeof DUCKDB_EXTENSIONS)[number];
export type WasmPlatform = 'wasm_eh' | 'wasm_mvp';

/** The repository path of one DuckDB version's extensions (what the CSP allows). */
export function extensionDir(repository = DUCKDB_EXTENSION_REPOSITORY, version = DUCKDB_VERSION): string {
  return `${repository}/${version}/`;
}

export function extensionUrl(name: DuckdbExtension, platform: WasmPlatform, repository = DUCKDB_EXTENSION_REPOSITORY, version = DUCKDB_VERSION): string {
  return `${extensionDir(repository, version)}${platform}/${name}.duckdb_extension.wasm`;
}

/** Whether a URL is one of these extension files (the service worker caches exactly these). */
export function isDuckdbExtensionUrl(url: URL, repository = DUCKDB_EXTENSION_REPOSITORY, version = DUCKDB_VERSION): boolean {
  const dir = new URL(extensionDir(repository, version));
  if (url.origin !== dir.origin || url.search !== '' || !url.pathname.startsWith(dir.pathname)) return false;
  const rest = url.pathname.slice(dir.pathname.length);
  return /^wasm_(eh|mvp)\/(icu|json|parquet)\.duckdb_extension\.wasm$/.test(rest);
}
