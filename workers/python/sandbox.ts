/**
 * Closes every way out of the Python worker's global scope: network, storage, other workers and
 * the service worker, plus code generation from strings (which would reach `import()`). Package
 * loading keeps working because Pyodide's free `fetch` is replaced by one that only serves the
 * self-hosted core assets and the package base URL.
 */

/** Globals that reach the network or the app's storage from a worker. */
export const ESCAPE_GLOBALS = [
  'XMLHttpRequest',
  'WebSocket',
  'WebSocketStream',
  'EventSource',
  'WebTransport',
  'importScripts',
  'indexedDB',
  'caches',
  'Worker',
  'SharedWorker',
  'BroadcastChannel',
  'fetchLater',
  'RTCPeerConnection',
  'webkitRTCPeerConnection',
  'RTCDataChannel',
  'cookieStore',
] as const;

/** Members of `navigator` that reach storage, the service worker or devices. */
export const ESCAPE_NAVIGATOR = ['storage', 'serviceWorker', 'sendBeacon', 'usb', 'hid', 'serial', 'bluetooth'] as const;

export class SandboxError extends Error {
  override name = 'SandboxError';
}

/**
 * Removes `name` wherever it is defined on `obj`'s prototype chain. Throws when it stays
 * reachable: user code must never run in a scope we failed to seal.
 */
export function removeMember(obj: object, name: string): void {
  for (let o: object | null = obj; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    const desc = Object.getOwnPropertyDescriptor(o, name);
    if (!desc) continue;
    if (desc.configurable) {
      delete (o as Record<string, unknown>)[name];
    } else if ('value' in desc && desc.writable) {
      (o as Record<string, unknown>)[name] = undefined;
    }
  }
  if ((obj as Record<string, unknown>)[name] !== undefined) throw new SandboxError(`could not remove ${name}`);
}

export interface FetchGuard {
  /** Exact URLs (self-hosted assets) that may be fetched, mapped to where they really live. */
  assets: Map<string, string>;
  /**
   * Exact package files that may be fetched: the lock file's `file_name`s under the package base
   * URL. A whole prefix would let a query string (`x.whl?d=<rows>`) carry data to the CDN's logs.
   */
  files: ReadonlySet<string>;
}

/** Every package file the lock file names, as the absolute URLs Pyodide fetches. */
export function lockFileUrls(packages: Iterable<{ file_name?: string }>, packageBaseUrl: string): Set<string> {
  const out = new Set<string>();
  for (const pkg of packages) {
    if (typeof pkg.file_name !== 'string' || pkg.file_name === '') continue;
    const url = new URL(pkg.file_name, packageBaseUrl);
    // A lock file entry is a plain file name: one with a query or fragment is not a package file.
    if (url.search === '' && url.hash === '' && url.href.startsWith(packageBaseUrl)) out.add(url.href);
  }
  return out;
}

function requestUrl(input: RequestInfo | URL): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

/**
 * A `fetch` limited to the guard's URLs, with GET only. Kept in a closure: the real fetch is
 * never reachable from the scope once `sealScope` ran.
 */
export function guardedFetch(realFetch: typeof fetch, guard: FetchGuard, base: string): typeof fetch {
  return (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    let url: URL;
    try {
      url = new URL(requestUrl(input), base);
    } catch {
      return Promise.reject(new TypeError('fetch is not available in the Python sandbox'));
    }
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const mapped = guard.assets.get(url.href);
    // Exact matches only: `href` keeps any query string or fragment, so `x.whl?d=…` or `x.whl#…`
    // is a URL the lock file never named.
    const allowed = method === 'GET' && (mapped !== undefined || guard.files.has(url.href));
    if (!allowed) return Promise.reject(new TypeError('fetch is not available in the Python sandbox'));
    // Only the integrity option is passed on: nothing the caller sets can change where it goes.
    return realFetch(mapped ?? url.href, { method: 'GET', integrity: init?.integrity, credentials: 'omit' });
  };
}

type TimerHandler = (...args: unknown[]) => void;

/**
 * setTimeout/setInterval that refuse string handlers (which would evaluate code) and call the
 * handler with `this` undefined. A browser calls a timer's handler with the global scope as
 * `this`: a proxy made with `create_proxy(cb, capture_this=True)`, or a built-in such as
 * `Array.prototype.push` then `forEach` (whose callback gets its receiver), would hand Python the
 * worker's global, and with it everything sealScope left for the worker's own use.
 */
function functionOnlyTimer<T extends (handler: TimerHandler, ms?: number, ...args: unknown[]) => number>(timer: T): T {
  return ((handler: unknown, ms?: number, ...args: unknown[]) => {
    if (typeof handler !== 'function') throw new TypeError('timers need a function in the Python sandbox');
    const fn = handler as TimerHandler;
    return timer(() => callQuietly(fn, args), ms);
  }) as T;
}

/**
 * Calls a callback with no receiver. What it throws is logged, not left uncaught: an uncaught
 * error ends the worker (the page restarts it, and the user's Python state with it), and a
 * callback the run scheduled has no caller left to tell.
 */
function callQuietly(fn: (...args: unknown[]) => void, args: unknown[]): void {
  try {
    Reflect.apply(fn, undefined, args);
  } catch (e) {
    console.error('a scheduled callback failed in the Python sandbox:', e);
  }
}

/** queueMicrotask whose callback never sees a receiver, whatever the engine passes. */
function receiverlessMicrotask(queue: (cb: () => void) => void): (cb: () => void) => void {
  return (cb) => {
    if (typeof cb !== 'function') throw new TypeError('queueMicrotask needs a function');
    queue(() => callQuietly(cb, []));
  };
}

/**
 * Members of the global scope the worker's own code no longer needs once sealed and that would
 * let code holding the global watch or end the worker: the page's later messages
 * (`addEventListener('message')`, `onmessage`), `close`, and `navigator` (the device, the
 * user agent). Shadowed by an own, read-only `undefined`, so `EventTarget.prototype` stays whole
 * for the ports and signals the worker still uses.
 */
export const SHADOWED_GLOBALS = [
  'addEventListener', 'removeEventListener', 'dispatchEvent', 'onmessage', 'onmessageerror', 'close', 'navigator',
] as const;

/** Defines `name` on `obj` itself as a read-only `undefined`; throws when it stays reachable. */
export function shadowMember(obj: object, name: string): void {
  try {
    Object.defineProperty(obj, name, { value: undefined, writable: false, configurable: false, enumerable: false });
  } catch {
    throw new SandboxError(`could not shadow ${name}`);
  }
  if ((obj as Record<string, unknown>)[name] !== undefined) throw new SandboxError(`could not shadow ${name}`);
}

/**
 * V8 hands `Error.prepareStackTrace` the call sites of every stack it formats, and a call site's
 * `getThis()`/`getFunction()` return receivers and functions of sloppy frames. Fixed to undefined
 * so a Python callable can never be installed there.
 */
export function lockStackTraceHook(ErrorCtor: ErrorConstructor): void {
  Object.defineProperty(ErrorCtor, 'prepareStackTrace', { value: undefined, writable: false, configurable: false });
}

/** Blocks `fn.constructor("code")` for every function kind; internal `new Function` still works. */
export function blockCodeGeneration(): void {
  const kinds = [function () {}, async function () {}, function* () {}, async function* () {}].map(
    (f) => Object.getPrototypeOf(f) as { constructor: { name: string } },
  );
  for (const proto of kinds) {
    const blocked = function (): never {
      throw new EvalError('code generation from strings is disabled in the Python sandbox');
    };
    // Pyodide reads `constructor.name` to type JS objects: keep the names it expects.
    Object.defineProperty(blocked, 'name', { value: proto.constructor.name });
    Object.defineProperty(proto, 'constructor', { value: blocked, writable: false, configurable: false });
  }
}

/**
 * What Python's `js` module sees: plain language built-ins and function-only timers, nothing
 * that touches the outside world.
 */
export function safeJsGlobals(scope: typeof globalThis): Record<string, unknown> {
  const names = [
    'Object', 'Array', 'Number', 'String', 'Boolean', 'Symbol', 'BigInt', 'Math', 'JSON', 'Date', 'RegExp',
    'Map', 'Set', 'WeakMap', 'WeakSet', 'WeakRef', 'FinalizationRegistry', 'Promise', 'Error', 'TypeError',
    'RangeError', 'ArrayBuffer', 'DataView', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array',
    'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array',
    'BigUint64Array', 'Intl', 'TextEncoder', 'TextDecoder', 'console', 'performance', 'NaN', 'Infinity',
    'undefined', 'isNaN', 'isFinite', 'parseInt', 'parseFloat', 'structuredClone', 'queueMicrotask',
    'AbortController', 'AbortSignal',
  ];
  const js: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const source = scope as unknown as Record<string, unknown>;
  for (const name of names) if (name in scope) js[name] = source[name];
  js.setTimeout = functionOnlyTimer(scope.setTimeout.bind(scope));
  js.setInterval = functionOnlyTimer(scope.setInterval.bind(scope));
  js.queueMicrotask = receiverlessMicrotask(scope.queueMicrotask.bind(scope));
  js.clearTimeout = scope.clearTimeout.bind(scope);
  js.clearInterval = scope.clearInterval.bind(scope);
  return Object.freeze(js);
}

/**
 * Seals the worker scope. `fetch` becomes the guarded one; every escape global and navigator
 * member is removed; string timers and function constructors are blocked. Throws if anything
 * stays reachable.
 */
export function sealScope(scope: typeof globalThis, fetchImpl: typeof fetch): void {
  removeMember(scope, 'fetch');
  Object.defineProperty(scope, 'fetch', { value: fetchImpl, writable: false, configurable: false, enumerable: true });
  for (const name of ESCAPE_GLOBALS) removeMember(scope, name);
  const nav = (scope as { navigator?: object }).navigator;
  if (nav) for (const name of ESCAPE_NAVIGATOR) removeMember(nav, name);
  const timers = {
    setTimeout: functionOnlyTimer(scope.setTimeout.bind(scope)),
    setInterval: functionOnlyTimer(scope.setInterval.bind(scope)),
  };
  removeMember(scope, 'setTimeout');
  removeMember(scope, 'setInterval');
  Object.assign(scope, timers);
  blockCodeGeneration();
  lockStackTraceHook(scope.Error);
  for (const name of SHADOWED_GLOBALS) shadowMember(scope, name);
}

/**
 * Caps how far any wasm memory in this worker may grow. A refused grow makes malloc fail, so a
 * memory bomb ends as Python's MemoryError well before the browser's own 4 GB ceiling.
 */
export function capWasmMemory(maxBytes: number): void {
  const proto = WebAssembly.Memory.prototype;
  const grow = proto.grow;
  const PAGE = 65536;
  Object.defineProperty(proto, 'grow', {
    value: function (this: WebAssembly.Memory, delta: number): number {
      if (this.buffer.byteLength + delta * PAGE > maxBytes) throw new RangeError('WebAssembly.Memory.grow(): memory limit reached');
      return grow.call(this, delta);
    },
    writable: false,
    configurable: false,
  });
}
