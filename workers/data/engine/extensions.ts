import type { ExtensionState } from './duckdbEngine';
import { DUCKDB_EXTENSION_REPOSITORY, DUCKDB_EXTENSIONS, extensionUrl, type DuckdbExtension, type WasmPlatform } from '../../../shared/duckdbExtensions';
import { quoteLiteral } from '../../../shared/sql';
import { messageOf } from '../../../shared/errors';

/**
 * Loads DuckDB's ICU, JSON and Parquet extensions from DuckDB's extension repository during the
 * engine's set-up, before its configuration is locked. DuckDB-WASM fetches an extension with a
 * synchronous request inside its own worker, which nothing can time out; so each file is first
 * fetched here, with a time limit, through the service worker (which keeps it for offline use).
 * Only a file that arrived is then LOADed, and DuckDB fetches it again from that cache and checks
 * its signature itself. Offline or blocked, nothing is loaded and each load takes the fallback
 * (parquet-wasm, UTC conversion), and `detail` says why.
 */

export interface ExtensionDeps {
  /** Runs one statement on the engine's connection. */
  query(sql: string): Promise<unknown>;
  fetch(url: string, init: RequestInit): Promise<Response>;
  platform: WasmPlatform;
  repository?: string;
  /** How long each file may take to arrive (default 2.5 s). */
  timeoutMs?: number;
  /** False when the browser says it is offline: nothing is asked of the network. */
  online?: boolean;
}

export const NO_EXTENSIONS: ExtensionState = { icu: false, json: false, parquet: false, detail: [] };

async function arrived(deps: ExtensionDeps, name: DuckdbExtension): Promise<string | null> {
  const url = extensionUrl(name, deps.platform, deps.repository ?? DUCKDB_EXTENSION_REPOSITORY);
  try {
    const res = await deps.fetch(url, { mode: 'cors', credentials: 'omit', signal: AbortSignal.timeout(deps.timeoutMs ?? 2_500) });
    // Read to the end: the service worker stores the file only once its whole body came.
    const bytes = await res.arrayBuffer();
    if (!res.ok) return `${url} answered HTTP ${res.status}`;
    if (bytes.byteLength === 0) return `${url} was empty`;
    return null;
  } catch (e) {
    return `${url} could not be fetched (${messageOf(e)})`;
  }
}

/** Starts the fetches at once (they overlap DuckDB's own start); `load` waits for them, then LOADs. */
export function prefetchExtensions(deps: Omit<ExtensionDeps, 'query'>): { load(query: ExtensionDeps['query']): Promise<ExtensionState> } {
  const offline = deps.online === false;
  const fetched = offline ? undefined : Promise.all(DUCKDB_EXTENSIONS.map(async (name) => [name, await arrived({ ...deps, query: async () => undefined }, name)] as const));
  return {
    async load(query) {
      if (!fetched) return { ...NO_EXTENSIONS, detail: ['offline: no extension was fetched'] };
      const results = await fetched;
      const state: ExtensionState = { icu: false, json: false, parquet: false, detail: [] };
      if (results.every(([, why]) => why !== null)) {
        state.detail = results.map(([name, why]) => `${name}: not loaded: ${why}`);
        return state;
      }
      await query(`SET custom_extension_repository = ${quoteLiteral(deps.repository ?? DUCKDB_EXTENSION_REPOSITORY)}`);
      for (const [name, why] of results) {
        if (why !== null) {
          state.detail.push(`${name}: not loaded: ${why}`);
          continue;
        }
        try {
          await query(`INSTALL ${name}`);
          await query(`LOAD ${name}`);
          state[name] = true;
          state.detail.push(`${name}: loaded from ${deps.repository ?? DUCKDB_EXTENSION_REPOSITORY}`);
        } catch (e) {
          state.detail.push(`${name}: refused by DuckDB: ${messageOf(e).split('\n')[0]}`);
        }
      }
      // Date SQL gives the same answers with ICU as without (where zoned columns are stored as UTC).
      if (state.icu) await query("SET TimeZone = 'UTC'").catch(() => undefined);
      return state;
    },
  };
}
