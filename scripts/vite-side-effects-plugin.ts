import type { Plugin } from 'vite';

/**
 * Keeps a bare `import '<package file>'` whose package declares `"sideEffects": false`.
 * DuckDB-WASM's worker script is such a file: it has no exports, only the side effect of
 * installing its message handler, so without this the bundler drops it as unused.
 */
export function keepSideEffects(specifiers: readonly string[]): Plugin {
  return {
    name: 'dataseer:keep-side-effects',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!specifiers.includes(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved ? { ...resolved, moduleSideEffects: true } : null;
    },
  };
}
