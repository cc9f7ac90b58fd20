import { describe, expect, it } from 'vitest';
import { cacheKey, routeFor, type RequestFacts } from './policy';

const SCOPE = 'https://me.github.io/dataseer/';
const get = (url: string, extra: Partial<RequestFacts> = {}): RequestFacts => ({ url, method: 'GET', mode: 'cors', range: null, cache: 'default', ...extra });
const kind = (facts: RequestFacts) => routeFor(facts, SCOPE).kind;

describe('routeFor', () => {
  it('leaves every cross-origin request alone except Pyodide packages on the CDN', () => {
    expect(kind(get('https://api.openai.com/v1/chat/completions'))).toBe('passthrough');
    expect(kind(get('http://localhost:11434/v1/models'))).toBe('passthrough');
    expect(kind(get('https://example.org/data.csv'))).toBe('passthrough');
    expect(kind(get('https://cdn.jsdelivr.net/pyodide/v0.28.0/full/numpy-2.0.0-cp313-cp313-pyodide_2025_0_wasm32.whl'))).toBe('cdn-package');
    // no-cors answers are opaque, a range is partial: neither is worth keeping.
    expect(kind(get('https://cdn.jsdelivr.net/pyodide/v0.28.0/full/numpy.whl', { mode: 'no-cors' }))).toBe('passthrough');
    expect(kind(get('https://cdn.jsdelivr.net/pyodide/v0.28.0/full/numpy.whl', { range: 'bytes=0-9' }))).toBe('passthrough');
    expect(kind(get('https://cdn.jsdelivr.net/npm/left-pad'))).toBe('passthrough');
    // A package base URL of the user's own: its wheels are version-pinned too, other files are not.
    expect(kind(get('https://pkgs.example.org/py/pandas-2.2.3-cp313-cp313-pyodide_2025_0_wasm32.whl'))).toBe('cdn-package');
    expect(kind(get('https://pkgs.example.org/py/pyodide-lock.json'))).toBe('passthrough');
    expect(kind(get('http://pkgs.example.org/py/pandas-2.2.3-cp313-cp313-pyodide_2025_0_wasm32.whl'))).toBe('passthrough');
  });

  it("caches exactly DuckDB's extension files for this DuckDB version, fetched with CORS", () => {
    expect(kind(get('https://extensions.duckdb.org/v1.4.3/wasm_eh/icu.duckdb_extension.wasm'))).toBe('cdn-package');
    expect(kind(get('https://extensions.duckdb.org/v1.4.3/wasm_mvp/parquet.duckdb_extension.wasm'))).toBe('cdn-package');
    expect(kind(get('https://extensions.duckdb.org/v1.4.3/wasm_eh/json.duckdb_extension.wasm'))).toBe('cdn-package');
    expect(kind(get('https://extensions.duckdb.org/v1.4.3/wasm_eh/httpfs.duckdb_extension.wasm'))).toBe('passthrough');
    expect(kind(get('https://extensions.duckdb.org/v1.4.2/wasm_eh/icu.duckdb_extension.wasm'))).toBe('passthrough');
    expect(kind(get('https://extensions.duckdb.org/v1.4.3/wasm_eh/icu.duckdb_extension.wasm?x=1'))).toBe('passthrough');
    expect(kind(get('https://extensions.duckdb.org/v1.4.3/wasm_eh/icu.duckdb_extension.wasm', { mode: 'no-cors' }))).toBe('passthrough');
    expect(kind(get('http://extensions.duckdb.org/v1.4.3/wasm_eh/icu.duckdb_extension.wasm'))).toBe('passthrough');
  });

  it('never answers writes, even same-origin', () => {
    expect(kind(get(`${SCOPE}echo`, { method: 'POST' }))).toBe('passthrough');
    expect(kind(get('https://api.openai.com/v1/chat/completions', { method: 'POST' }))).toBe('passthrough');
  });

  it('stays inside its scope: another app on the same origin is not served', () => {
    expect(kind(get('https://me.github.io/other-app/index.html'))).toBe('passthrough');
    expect(kind(get('https://me.github.io/dataseer-old/index.html'))).toBe('passthrough');
  });

  it('routes the app files by how they change', () => {
    expect(kind(get(SCOPE, { mode: 'navigate' }))).toBe('navigation');
    expect(kind(get(`${SCOPE}?thread=3`, { mode: 'navigate' }))).toBe('navigation');
    expect(kind(get(`${SCOPE}assets/duckdb-eh-9ubY-jlA.wasm`, { mode: 'same-origin' }))).toBe('immutable');
    expect(kind(get(`${SCOPE}samples/penguins.json`))).toBe('fresh');
    expect(kind(get(`${SCOPE}manifest.webmanifest`))).toBe('fresh');
    expect(kind(get(`${SCOPE}assets/x.wasm`, { range: 'bytes=0-99' }))).toBe('range');
    expect(kind(get(`${SCOPE}sw.js`))).toBe('passthrough');
  });

  it('lets the browser keep DevTools-only requests it cannot refetch', () => {
    expect(kind(get(`${SCOPE}assets/a.js`, { cache: 'only-if-cached', mode: 'no-cors' }))).toBe('passthrough');
    expect(kind(get(`${SCOPE}assets/a.js`, { cache: 'only-if-cached', mode: 'same-origin' }))).toBe('immutable');
  });
});

describe('cacheKey', () => {
  it('ignores query and fragment', () => {
    expect(cacheKey(`${SCOPE}samples/cars.json?v=2#x`)).toBe(`${SCOPE}samples/cars.json`);
  });
});
