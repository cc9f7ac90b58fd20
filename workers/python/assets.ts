/**
 * The self-hosted Pyodide core. Pyodide looks for fixed file names under `indexURL`; the bundler
 * gives them hashed names, so `map` tells the guarded fetch where each really lives.
 */
import asmJsUrl from 'pyodide/pyodide.asm.mjs?url';
import wasmUrl from 'pyodide/pyodide.asm.wasm?url';
import stdlibUrl from 'pyodide/python_stdlib.zip?url';
import lockfileUrl from 'pyodide/pyodide-lock.json?url';

export interface PyodideAssetUrls {
  indexURL: string;
  asmJs: string;
  stdlib: string;
  lockfile: string;
  /** Requested URL → real URL, for every core file Pyodide fetches. */
  map: Map<string, string>;
}

export function pyodideAssets(base: string): PyodideAssetUrls {
  const abs = (u: string) => new URL(u, base).href;
  const wasm = abs(wasmUrl);
  const indexURL = new URL('./', wasm).href;
  const stdlib = abs(stdlibUrl);
  const lockfile = abs(lockfileUrl);
  const map = new Map([
    [indexURL + 'pyodide.asm.wasm', wasm],
    [stdlib, stdlib],
    [lockfile, lockfile],
  ]);
  return { indexURL, asmJs: abs(asmJsUrl), stdlib, lockfile, map };
}
