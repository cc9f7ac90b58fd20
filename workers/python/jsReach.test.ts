/**
 * pyodide_js (the Pyodide API, which hands out the Emscripten module) and ctypes (any C function,
 * any address) must stay out of reach of user code after the sandbox is closed
 * (`_dataseer._block_modules`, as pyodideEngine.ts runs it), by every route found: a plain import, the
 * import hook's own table, an edited or replaced sys.meta_path, importlib, the _imp module's
 * constructors (and their originals), and module objects found through gc. Real Pyodide under
 * Node; the worker's JavaScript scope is covered by the e2e escape suite.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPyodide, type PyodideAPI } from 'pyodide';

let py: PyodideAPI;

beforeAll(async () => {
  py = await loadPyodide();
  py.FS.mkdirTree('/lib/dataseer');
  py.FS.writeFile('/lib/dataseer/_dataseer.py', readFileSync(new URL('./prelude.py', import.meta.url), 'utf8'));
  py.runPython('import sys\nsys.path.insert(0, "/lib/dataseer")\nimport _dataseer');
  // Both were imported during start-up before the sandbox closes (as in the worker).
  py.runPython('import ctypes, pyodide_js');
  py.runPython('import _dataseer\n_dataseer._block_modules()');
}, 120_000);

/** Runs an attack; the text of the exception it ended with, or `reached: …` when it got through. */
function attempt(code: string): string {
  try {
    return `reached: ${String(py.runPython(code, { globals: py.toPy({}) as never }))}`;
  } catch (e) {
    return String((e as Error).message).trim().split('\n').at(-1) ?? '';
  }
}

const ROUTES: Record<string, string> = {
  'import pyodide_js': 'import pyodide_js\npyodide_js',
  'from pyodide_js import _api': 'from pyodide_js import _api\n_api',
  'import the import hook’s table': 'import _pyodide._importhook as h\nh.jsfinder.jsproxies["pyodide_js"]',
  'the hook’s find_spec': 'import _pyodide._importhook as h\ns = h.jsfinder.find_spec("pyodide_js", None)\ns.loader.create_module(s)',
  'meta_path edited': 'import sys\nsys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_BlockedModules"]\nimport pyodide_js\npyodide_js',
  'meta_path replaced': 'import sys, importlib.machinery as m\nsys.meta_path = [m.BuiltinImporter, m.FrozenImporter, m.PathFinder]\nimport pyodide_js\npyodide_js',
  'importlib.import_module': 'import importlib\nimportlib.import_module("pyodide_js")',
  '__import__': '__import__("pyodide_js")',
  'importlib.import_module("_ctypes")': 'import importlib\nimportlib.import_module("_ctypes")',
  'importlib.import_module("ctypes")': 'import importlib\nimportlib.import_module("ctypes").string_at(id(1), 8)',
  'import ctypes': 'import ctypes\nctypes.string_at(id(1), 8)',
  'import _ctypes': 'import _ctypes\n_ctypes',
  // Refused before any finder looks, so it holds also where cffi is installed.
  'import _cffi_backend (cffi)': 'import _cffi_backend\n_cffi_backend',
  'ctypes after meta_path edit': 'import sys\nsys.meta_path.clear()\nimport importlib.machinery as m\nsys.meta_path += [m.BuiltinImporter, m.PathFinder]\nimport _ctypes\n_ctypes',
  '_imp.create_builtin': 'import _imp, importlib.machinery as m\n_imp.create_builtin(m.ModuleSpec("_ctypes", m.BuiltinImporter, origin="built-in"))',
  'a fresh _imp': 'import sys, importlib\ndel sys.modules["_imp"]\nimport _imp\n_imp',
  'ctypes module object found by gc, reading memory': 'import gc, types\nm = [o for o in gc.get_objects() if isinstance(o, types.ModuleType) and o.__name__ == "ctypes"][0]\nm.string_at(id(1), 8)',
  'ctypes found by gc, calling a C function': 'import gc, types\nm = [o for o in gc.get_objects() if isinstance(o, types.ModuleType) and o.__name__ == "ctypes"][0]\nm.CDLL(None).emscripten_run_script',
  'the original create_builtin behind the guard': [
    'import _imp, importlib.machinery as m',
    'orig = _imp.create_builtin.__defaults__[0]',
    'c = orig(m.ModuleSpec("_ctypes", m.BuiltinImporter, origin="built-in"))',
    'c.dlopen(None)',
  ].join('\n'),
  'the original create_builtin, then memory': [
    'import _imp, importlib.machinery as m',
    'c = _imp.create_builtin.__defaults__[0](m.ModuleSpec("_ctypes", m.BuiltinImporter, origin="built-in"))',
    'class P(c._SimpleCData): _type_ = "P"',
    'P.from_address(id(1))',
  ].join('\n'),
  'a JS proxy of the API found by gc': [
    'import gc',
    'from pyodide.ffi import JsProxy',
    'hits = []',
    'for o in gc.get_objects():',
    '    if isinstance(o, JsProxy):',
    '        try:',
    '            if hasattr(o, "runPython") or hasattr(o, "_module") or hasattr(o, "setInterruptBuffer") or hasattr(o, "FS"): hits.append(o)',
    '        except Exception: pass',
    'hits[0]',
  ].join('\n'),
};

describe('Python cannot reach pyodide_js or ctypes', () => {
  for (const [route, code] of Object.entries(ROUTES)) {
    it(route, () => {
      const out = attempt(code);
      expect(out).not.toMatch(/^reached:/);
      // Refused by the sandbox, or nothing there to find.
      if (route.includes('cffi')) expect(out).toMatch(/not available in Dataseer's Python sandbox/);
      else expect(out).toMatch(/not available in Dataseer's Python sandbox|No module named 'pyodide_js'|list index out of range|KeyError: 'pyodide_js'|'NoneType' object has no attribute/);
    });
  }

  it('ordinary imports and code still work', () => {
    expect(attempt('import json, math, statistics, importlib, collections\nstr(math.sqrt(16))')).toBe('reached: 4.0');
    expect(attempt('import sys\nsys.meta_path[:] = sys.meta_path[1:]\nimport decimal\nstr(decimal.Decimal("1.5") * 2)')).toBe('reached: 3.0');
  });
});
