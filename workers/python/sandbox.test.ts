import { describe, expect, it, vi } from 'vitest';
import { guardedFetch, removeMember, safeJsGlobals, SandboxError } from './sandbox';

describe('removeMember', () => {
  it('removes a member defined on the prototype chain', () => {
    class Base {
      get indexedDB(): string {
        return 'db';
      }
    }
    const scope = new Base();
    Object.defineProperty(scope, 'own', { value: 1, configurable: true });
    removeMember(scope, 'indexedDB');
    removeMember(scope, 'own');
    expect((scope as unknown as Record<string, unknown>).indexedDB).toBeUndefined();
    expect((scope as unknown as Record<string, unknown>).own).toBeUndefined();
  });

  it('fails closed when a member cannot be removed', () => {
    const scope = {};
    Object.defineProperty(scope, 'fetch', { get: () => 'still here', configurable: false });
    expect(() => removeMember(scope, 'fetch')).toThrow(SandboxError);
  });
});

describe('guardedFetch', () => {
  const assets = new Map([['https://app.test/py/pyodide.asm.wasm', 'https://app.test/assets/pyodide.asm-abc.wasm']]);
  const guard = { assets, prefixes: ['https://cdn.test/pyodide/v1/full/'] };

  it('maps a self-hosted asset to its real URL', async () => {
    const real = vi.fn(async () => new Response('ok'));
    const f = guardedFetch(real, guard, 'https://app.test/worker.js');
    await f('https://app.test/py/pyodide.asm.wasm');
    expect(real).toHaveBeenCalledWith('https://app.test/assets/pyodide.asm-abc.wasm', expect.objectContaining({ method: 'GET' }));
  });

  it('allows GETs under the package base URL', async () => {
    const real = vi.fn(async () => new Response('ok'));
    const f = guardedFetch(real, guard, 'https://app.test/');
    await f(new URL('https://cdn.test/pyodide/v1/full/pandas.whl'), { integrity: 'sha256-x' });
    expect(real).toHaveBeenCalledWith('https://cdn.test/pyodide/v1/full/pandas.whl', { method: 'GET', integrity: 'sha256-x', credentials: 'omit' });
  });

  it('refuses any other URL or method without touching the network', async () => {
    const real = vi.fn(async () => new Response('ok'));
    const f = guardedFetch(real, guard, 'https://app.test/');
    await expect(f('http://127.0.0.1:9/steal?k=1')).rejects.toThrow(/not available/);
    await expect(f('https://cdn.test/pyodide/v1/full/x', { method: 'POST', body: 'secret' })).rejects.toThrow(/not available/);
    await expect(f('https://cdn.test.evil/pyodide/v1/full/x')).rejects.toThrow(/not available/);
    await expect(f('/assets/other.js')).rejects.toThrow(/not available/);
    expect(real).not.toHaveBeenCalled();
  });
});

describe('safeJsGlobals', () => {
  it('exposes language built-ins but no network or storage', () => {
    const js = safeJsGlobals(globalThis);
    expect(js.Math).toBe(Math);
    for (const name of ['fetch', 'XMLHttpRequest', 'WebSocket', 'indexedDB', 'caches', 'navigator', 'self', 'globalThis', 'eval', 'Function', 'importScripts']) {
      expect(js[name]).toBeUndefined();
    }
    expect(Object.isFrozen(js)).toBe(true);
  });

  it('refuses string timer handlers', () => {
    const js = safeJsGlobals(globalThis);
    const setTimeoutSafe = js.setTimeout as (h: unknown, ms?: number) => unknown;
    expect(() => setTimeoutSafe('1+1', 0)).toThrow(/function/);
  });
});
