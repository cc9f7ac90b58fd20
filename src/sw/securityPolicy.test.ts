import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, policyHeaderFor, workerTarget } from './securityPolicy';

describe('content security policy', () => {
  it('finds each worker by its built or dev script name', () => {
    expect(workerTarget('/assets/python.worker-zTML7NxN.js')).toBe('python-worker');
    expect(workerTarget('/workers/python/python.worker.ts')).toBe('python-worker');
    expect(workerTarget('/sub/assets/data.worker-CoSSKCKw.js')).toBe('data-worker');
    expect(workerTarget('/assets/agent.worker-D0lWUrfH.js')).toBe('agent-worker');
    expect(workerTarget('/assets/duckdb-browser-eh.worker-hQa-dcAV.js')).toBe('duckdb-worker');
    expect(workerTarget('/assets/duckdb-browser-cached.worker-kzRREX2-.js')).toBe('duckdb-worker');
    expect(workerTarget('/assets/decode.worker-D3iz3Xts.js')).toBe('decode-worker');
    expect(contentSecurityPolicy('decode-worker')).toContain("connect-src 'none'");
    expect(workerTarget('/assets/parse.worker-B1x2y3Zq.js')).toBe('parse-worker');
    expect(workerTarget('/workers/parse/parse.worker.ts')).toBe('parse-worker');
    expect(workerTarget('/assets/index-lXOrIx4A.js')).toBeUndefined();
  });

  it('gives the parse worker (imports) no network and no eval', () => {
    const parse = contentSecurityPolicy('parse-worker');
    expect(parse).toContain("connect-src 'none'");
    expect(parse).toContain("worker-src 'none'");
    expect(parse).not.toContain('unsafe-eval');
  });

  it('keeps model-written code off the network and away from eval', () => {
    const python = contentSecurityPolicy('python-worker');
    expect(python).toContain("connect-src 'self' https://cdn.jsdelivr.net/pyodide/");
    expect(python).toContain("worker-src 'none'");
    expect(python).not.toContain("'unsafe-eval'");
    expect(python).not.toMatch(/script-src[^;]*(data:|blob:|https:)/);
    // DuckDB's workers: 'self' and this DuckDB version's path of its extension repository, nothing else.
    for (const target of ['data-worker', 'duckdb-worker'] as const) expect(contentSecurityPolicy(target)).toContain("connect-src 'self' https://extensions.duckdb.org/v1.4.3/;");
    const page = contentSecurityPolicy('page');
    expect(page).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(page).toContain("img-src 'self' data: blob:");
    expect(page).not.toContain("'unsafe-eval'");
    // MapLibre's blob: worker on the page only; no worker may start one.
    expect(page).toContain("worker-src 'self' blob:");
    for (const target of ['python-worker', 'data-worker', 'duckdb-worker', 'agent-worker', 'parse-worker'] as const) expect(contentSecurityPolicy(target)).not.toMatch(/worker-src[^;]*blob:/);
  });

  it('gives documents the page policy and plain assets none', () => {
    expect(policyHeaderFor('/', true)).toBe(contentSecurityPolicy('page'));
    expect(policyHeaderFor('/index.html', false)).toBe(contentSecurityPolicy('page'));
    expect(policyHeaderFor('/assets/duckdb-eh-9ubY-jlA.wasm', false)).toBeUndefined();
  });
});
