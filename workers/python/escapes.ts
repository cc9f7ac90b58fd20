/**
 * Closes the ways from Python into the worker's JavaScript that sealScope cannot see: Emscripten's
 * `emscripten_run_script*` (reachable through ctypes or `pyodide_js._module`) evaluate a string
 * with `eval`. The worker's content security policy (no 'unsafe-eval') refuses that already;
 * this removes `eval` itself, disarms the runners and hides the Emscripten module, so each layer
 * stops the attack on its own.
 */
import { SandboxError, removeMember } from './sandbox';

/** Emscripten's JS library functions that evaluate a C string as JavaScript. */
export const SCRIPT_RUNNERS = ['_emscripten_run_script', '_emscripten_run_script_int', '_emscripten_run_script_string', '_emscripten_async_run_script'] as const;

function refuse(): never {
  throw new EvalError('running JavaScript from Python is disabled in the Python sandbox');
}

export function closeEmscriptenEscapes(scope: typeof globalThis, pyodide: Record<string, unknown>): void {
  removeMember(scope, 'eval');
  const mod = pyodide._module as Record<string, unknown> | undefined;
  if (mod) {
    for (const name of SCRIPT_RUNNERS) if (name in mod) mod[name] = refuse;
    for (const name of ['ccall', 'cwrap', 'dynCall', 'getWasmTableEntry', 'wasmTable', 'addFunction']) if (name in mod) mod[name] = refuse;
  }
  for (let o: object | null = pyodide; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    const desc = Object.getOwnPropertyDescriptor(o, '_module');
    if (!desc) continue;
    if (desc.configurable) delete (o as Record<string, unknown>)._module;
  }
  if ('_module' in pyodide && pyodide._module !== undefined) {
    try {
      Object.defineProperty(pyodide, '_module', { value: undefined, writable: false, configurable: false });
    } catch {
      throw new SandboxError('could not hide the Emscripten module');
    }
  }
}
