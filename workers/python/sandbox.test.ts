import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { guardedFetch, lockFileUrls, lockStackTraceHook, removeMember, safeJsGlobals, SandboxError, SHADOWED_GLOBALS, shadowMember } from './sandbox';

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
  const base = 'https://cdn.test/pyodide/v1/full/';
  const guard = { assets, files: lockFileUrls([{ file_name: 'pandas.whl' }, { file_name: 'numpy-2.0-cp312.whl' }], base) };

  it('maps a self-hosted asset to its real URL', async () => {
    const real = vi.fn(async () => new Response('ok'));
    const f = guardedFetch(real, guard, 'https://app.test/worker.js');
    await f('https://app.test/py/pyodide.asm.wasm');
    expect(real).toHaveBeenCalledWith('https://app.test/assets/pyodide.asm-abc.wasm', expect.objectContaining({ method: 'GET' }));
  });

  it('allows GETs of the lock file’s package files', async () => {
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

  // Issue #31: a GET under the CDN path with the rows in its query string reached the CDN's logs.
  it('refuses a package file with a query string or fragment, and files the lock file does not name', async () => {
    const real = vi.fn(async () => new Response('ok'));
    const f = guardedFetch(real, guard, 'https://app.test/');
    for (const u of [
      `${base}pandas.whl?d=adelie,gentoo`,
      `${base}pandas.whl?`,
      `${base}pandas.whl#d=adelie`,
      `${base}x.whl?d=rows`,
      `${base}pandas.whl/../x?d=1`,
      `${base}`,
      `${base}PANDAS.whl`,
      `${base}pandas.whl;d=1`,
    ]) {
      await expect(f(u), u).rejects.toThrow(/not available/);
    }
    await expect(f(new Request(`${base}pandas.whl?d=1`))).rejects.toThrow(/not available/);
    expect(real).not.toHaveBeenCalled();
  });
});

describe('lockFileUrls', () => {
  it('names each package file under the base once, and nothing with a query, fragment or another host', () => {
    const urls = lockFileUrls(
      [{ file_name: 'a-1.whl' }, { file_name: 'b.zip' }, { file_name: 'c.whl?x=1' }, { file_name: 'd.whl#f' }, { file_name: 'https://evil.test/e.whl' }, {}, { file_name: '' }],
      'https://cdn.test/full/',
    );
    expect([...urls]).toEqual(['https://cdn.test/full/a-1.whl', 'https://cdn.test/full/b.zip']);
  });

  it('covers every package of the real lock file', () => {
    const lock = JSON.parse(readFileSync(new URL('../../node_modules/pyodide/pyodide-lock.json', import.meta.url), 'utf8')) as { packages: Record<string, { file_name: string }> };
    const urls = lockFileUrls(Object.values(lock.packages), 'https://cdn.jsdelivr.net/pyodide/v0/full/');
    expect(urls.size).toBe(Object.keys(lock.packages).length);
    expect(urls.has(`https://cdn.jsdelivr.net/pyodide/v0/full/${lock.packages.numpy?.file_name ?? ''}`)).toBe(true);
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

  // Issue #31: `js.setTimeout(create_proxy(cb, capture_this=True), 0)` handed Python the global
  // scope, since a browser calls a timer's handler with the global as `this`. The fake scope's
  // timer does what a browser does.
  it('calls timer and microtask handlers with no receiver, whatever the host passes', () => {
    const fakeGlobal = { marker: 'global' };
    const seen: unknown[] = [];
    const scope = {
      ...globalThis,
      setTimeout: (h: (...a: unknown[]) => void, _ms?: number, ...args: unknown[]) => (h.apply(fakeGlobal, args), 1),
      setInterval: (h: (...a: unknown[]) => void, _ms?: number, ...args: unknown[]) => (h.apply(fakeGlobal, args), 2),
      queueMicrotask: (h: () => void) => h.apply(fakeGlobal),
      clearTimeout: () => {},
      clearInterval: () => {},
    } as unknown as typeof globalThis;
    const js = safeJsGlobals(scope);
    const record = function (this: unknown, ...args: unknown[]) {
      seen.push(this, ...args);
    };
    (js.setTimeout as (h: unknown, ms: number, ...a: unknown[]) => unknown)(record, 0, 'a');
    (js.setInterval as (h: unknown, ms: number) => unknown)(record, 0);
    (js.queueMicrotask as (h: unknown) => void)(record);
    expect(seen).toEqual([undefined, 'a', undefined, undefined]);
    // The built-in route: push onto the receiver, then forEach hands its callback the receiver.
    // It throws (no receiver to push onto), and the throw is logged rather than ending the worker.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    (js.setTimeout as (h: unknown, ms: number, ...a: unknown[]) => unknown)(Array.prototype.push, 0, 1);
    expect((fakeGlobal as Record<string, unknown>)[0]).toBeUndefined();
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockRestore();
  });

  it('refuses string timer handlers', () => {
    const js = safeJsGlobals(globalThis);
    const setTimeoutSafe = js.setTimeout as (h: unknown, ms?: number) => unknown;
    expect(() => setTimeoutSafe('1+1', 0)).toThrow(/function/);
  });
});

describe('shadowMember and the stack-trace hook', () => {
  it('hides prototype members behind an own undefined, leaving the prototype whole', () => {
    const target = new EventTarget();
    for (const name of SHADOWED_GLOBALS) if (name !== 'navigator') shadowMember(target, name);
    expect((target as unknown as Record<string, unknown>).addEventListener).toBeUndefined();
    expect(() => {
      (target as unknown as Record<string, unknown>).addEventListener = () => {};
    }).toThrow(TypeError);
    // Other event targets (ports, signals) keep theirs.
    expect(typeof new EventTarget().addEventListener).toBe('function');
  });

  it('fixes Error.prepareStackTrace so no callable can be installed', () => {
    class FakeError extends Error {}
    const ctor = FakeError as unknown as ErrorConstructor;
    lockStackTraceHook(ctor);
    expect(() => {
      (ctor as unknown as Record<string, unknown>).prepareStackTrace = () => 'hooked';
    }).toThrow(TypeError);
    expect((ctor as unknown as Record<string, unknown>).prepareStackTrace).toBeUndefined();
  });
});
