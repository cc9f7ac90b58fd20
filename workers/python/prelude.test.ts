/** The Python-side runner, run in real Pyodide under Node (no browser needed). */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPyodide } from 'pyodide';
import type { PyCallable } from 'pyodide/ffi';
import { parseOutcome } from './outcome';

let run: PyCallable;
let typed: (code: string) => string;

beforeAll(async () => {
  const py = await loadPyodide();
  py.FS.mkdirTree('/lib/dataseer');
  py.FS.writeFile('/lib/dataseer/_dataseer.py', readFileSync(new URL('./prelude.py', import.meta.url), 'utf8'));
  run = py.runPython('import sys\nsys.path.insert(0, "/lib/dataseer")\nimport _dataseer\n_dataseer.run') as PyCallable;
  typed = (code: string) => String(py.runPython(`import _dataseer\nrepr(${code})`));
}, 120_000);

const exec = (code: string) => parseOutcome(String(run(code, [])), 0);

describe('prelude runner', () => {
  it('describes scalars, records, column dicts and reprs', () => {
    expect(exec('result = 2 ** 10')).toMatchObject({ ok: true, result: { kind: 'scalar', value: 1024 } });
    expect(exec('result = {"a": [1, 2], "b": [3, 4]}')).toMatchObject({ ok: true, result: { kind: 'table', columns: ['a', 'b'], rows: [[1, 3], [2, 4]] } });
    expect(exec('result = [{"k": "x", "v": 1.5}]')).toMatchObject({ ok: true, result: { kind: 'table', columns: ['k', 'v'], rows: [['x', 1.5]] } });
    expect(exec('result = {"nested": {"x": [1, None]}}')).toMatchObject({ ok: true, result: { kind: 'json', value: { nested: { x: [1, null] } } } });
    expect(exec('result = {1, 2}')).toMatchObject({ ok: true, result: { kind: 'repr', text: '{1, 2}' } });
  });

  it('returns a Plotly dict as the figure and a bad fig as a warning', () => {
    const ok = exec('fig = {"data": [{"type": "scatter", "y": [1, 2]}], "layout": {}}');
    expect(ok).toMatchObject({ ok: true, figure: { data: [{ type: 'scatter', y: [1, 2] }] } });
    const bad = exec('fig = 42');
    expect(bad.ok && bad.warnings[0]).toMatch(/plotly figure or a dict/);
  });

  it('reports errors with source lines and without runner frames', () => {
    const out = exec('def f(d):\n    return d["missing"]\nf({})');
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error.type).toBe('KeyError');
    expect(out.error.traceback).toContain('return d["missing"]');
    expect(out.error.traceback).not.toContain('_dataseer');
  });

  it('reports a syntax error with its pointer', () => {
    const out = exec('x = (1,');
    expect(!out.ok && out.error.type).toBe('SyntaxError');
    expect(!out.ok && out.error.traceback).toContain('<python>');
  });

  it('turns a size that cannot be addressed into a MemoryError that restarts the worker', () => {
    const out = exec('x = "a" * 10**10');
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error.type).toBe('MemoryError');
    expect(out.restarted).toBe(true);
  });

  it('gives each run without a session a fresh namespace', () => {
    exec('leftover = 1\nresult = 1');
    const out = exec('result = "leftover" in dir()');
    expect(out).toMatchObject({ ok: true, result: { kind: 'scalar', value: false } });
  });

  describe('sessions', () => {
    const inSession = (session: string, code: string, names: string[] = []) => parseOutcome(String(run(code, names, session)), 0);

    it('keeps variables, imports and functions across runs of one session, and says when it started empty', () => {
      expect(inSession('s-a', 'import statistics\nx = [1, 2, 3]\ndef double(v):\n    return v * 2')).toMatchObject({ ok: true, sessionFresh: true });
      expect(inSession('s-a', 'result = double(statistics.mean(x))')).toMatchObject({ ok: true, sessionFresh: false, result: { value: 4 } });
    });

    it('keeps sessions apart', () => {
      inSession('s-b', 'only_here = 1');
      const other = inSession('s-c', 'result = only_here');
      expect(!other.ok && other.error.type).toBe('NameError');
    });

    it('clears result and fig before each run, so a stale one never comes back', () => {
      inSession('s-d', 'result = 41\nfig = {"data": [{"type": "bar", "y": [1]}]}');
      const next = inSession('s-d', 'y = 1');
      expect(next).toMatchObject({ ok: true });
      expect(next.ok && next.result).toBeUndefined();
      expect(next.ok && next.figure).toBeUndefined();
    });

    it("refreshes its own helpers but never a user's variable of the same name", () => {
      inSession('s-e', 'result = type(datasets).__name__', ['a']);
      expect(inSession('s-e', 'result = list(datasets)', ['a', 'b'])).toMatchObject({ result: { kind: 'json', value: ['a', 'b'] } });
      inSession('s-e', 'datasets = "mine"\ndf = 5');
      expect(inSession('s-e', 'result = [datasets, df]', ['a'])).toMatchObject({ result: { kind: 'json', value: ['mine', 5] } });
    });

    it('drops the least recently used sessions past the limit, which then start empty', () => {
      inSession('keep', 'kept = 1');
      for (let i = 0; i < 16; i++) {
        inSession(`filler-${i}`, 'pass');
        if (i % 4 === 0) inSession('keep', 'pass');
      }
      expect(inSession('keep', 'result = kept')).toMatchObject({ ok: true, sessionFresh: false });
      expect(inSession('filler-0', 'pass')).toMatchObject({ sessionFresh: true });
    });

    it('compiles top-level await (it runs where JavaScript promise integration is, as in the browser)', () => {
      const out = inSession('s-f', 'import asyncio\nawait asyncio.sleep(0)\nresult = 1');
      // Node without JSPI cannot drive the coroutine; what matters here is that it is no SyntaxError.
      expect(!out.ok && out.error.type).not.toBe('SyntaxError');
    });
  });

  it('explains sql() without a data engine', () => {
    const out = exec('sql("select 1")');
    expect(!out.ok && out.error.message).toMatch(/No data engine/);
  });

  it('hands DATE and TIMESTAMP values to Python as datetime objects, naive unless the column has a zone', () => {
    expect(typed('_dataseer._typed_column(["2024-02-29", None], "DATE")')).toBe('[datetime.date(2024, 2, 29), None]');
    expect(typed('_dataseer._typed_column(["2024-02-29T13:14:15.123Z"], "TIMESTAMP")')).toBe('[datetime.datetime(2024, 2, 29, 13, 14, 15, 123000)]');
    expect(typed('_dataseer._typed_column(["2024-02-29T13:14:15.000Z"], "TIMESTAMP WITH TIME ZONE")')).toBe('[datetime.datetime(2024, 2, 29, 13, 14, 15, tzinfo=datetime.timezone.utc)]');
    expect(typed('_dataseer._typed_column([1, 2], "INTEGER")')).toBe('[1, 2]');
  });

  it('df with several datasets, or none, says what to write instead', () => {
    const several = run('df.head()', ['penguins', 'cars']);
    const out = parseOutcome(String(several), 0);
    expect(!out.ok && out.error).toMatchObject({ type: 'NameError' });
    expect(!out.ok && out.error.message).toContain("there are 2: penguins, cars. Use datasets['penguins']");
    const none = parseOutcome(String(run('len(df)', [])), 0);
    expect(!none.ok && none.error.message).toContain('no dataset is loaded yet');
  });
});
