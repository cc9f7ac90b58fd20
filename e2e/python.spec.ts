/**
 * The Python console end to end: results, streams, charts, errors, the time limit, memory bombs,
 * and the sandbox (a local listener must see no request; the app's IndexedDB stays out of reach).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './support/fixtures';
import { ATTEMPT_PY, pythonConsole } from './support/pythonConsole';


test('sums, statistics, stdout and a dict result', async ({ app }) => {
  const py = await pythonConsole(app.page);
  await py.exec('result = sum(x * x for x in range(1, 11))');
  await expect(py.result()).toHaveText('385');

  await py.exec('import statistics\nvals = [2, 4, 4, 4, 5, 5, 7, 9]\nprint("n =", len(vals))\nresult = {"mean": statistics.mean(vals), "pstdev": statistics.pstdev(vals)}');
  await expect(py.output()).toContainText('n = 8');
  await expect(py.result()).toContainText('"mean": 5');
  await expect(py.result()).toContainText('"pstdev": 2');
});

test('a list of records becomes a table', async ({ app }) => {
  const py = await pythonConsole(app.page);
  await py.exec('result = [{"city": "Oslo", "temp": 4.5}, {"city": "Lima", "temp": 19.0}]');
  const table = py.panel.getByRole('grid', { name: 'Python result' });
  await expect(table.locator('[data-column-name]')).toHaveText(['city', 'temp']);
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByRole('gridcell', { name: 'Lima' })).toBeVisible();
});

test('a Plotly dict in fig becomes an interactive chart', async ({ app }) => {
  const py = await pythonConsole(app.page);
  await py.exec('fig = {"data": [{"type": "bar", "x": ["a", "b", "c"], "y": [3, 1, 2]}], "layout": {"title": {"text": "Letters"}}}');
  const chart = py.panel.getByRole('figure', { name: /Letters/ });
  await expect(chart).toBeVisible();
  await expect(chart.getByRole('button', { name: 'Download PNG' })).toBeEnabled({ timeout: 60_000 });
  await expect(chart.getByRole('button', { name: 'Download SVG' })).toBeEnabled();
  await expect(chart.locator('svg').first()).toBeVisible();
});

test('a map figure is drawn: the map library starts its worker (the page policy allows its blob: worker)', async ({ app }) => {
  const refused: string[] = [];
  app.page.on('console', (m) => {
    if (/Content Security Policy|Worker failed/.test(m.text())) refused.push(m.text());
  });
  const py = await pythonConsole(app.page);
  await py.exec('fig = {"data": [{"type": "scattermap", "lat": [59.9, -12.0], "lon": [10.7, -77.0], "mode": "markers"}], "layout": {"title": {"text": "Two cities"}, "map": {"zoom": 1}}}');
  const chart = py.panel.getByRole('figure', { name: /Two cities/ });
  await expect(chart).toBeVisible();
  // MapLibre draws on a canvas once its worker runs; before, the card said "Map error."
  await expect(chart.locator('canvas.maplibregl-canvas')).toBeVisible({ timeout: 30_000 });
  await expect(py.panel).not.toContainText('could not be drawn');
  expect(refused).toEqual([]);
});

test('errors come back with the type, the message and a traceback of the user code only', async ({ app }) => {
  const py = await pythonConsole(app.page);
  await py.exec('def ratio(a, b):\n    return a / b\n\nratio(1, 0)');
  await expect(py.error()).toContainText('ZeroDivisionError');
  const tb = py.panel.getByLabel('Traceback');
  await expect(tb).toContainText('return a / b');
  await expect(tb).not.toContainText('_dataseer');
  await expect(tb).not.toContainText('/lib/python');
  await py.expectUsable();
});

test('an infinite loop is stopped by the time limit and the console stays usable', async ({ app }) => {
  const py = await pythonConsole(app.page);
  await py.expectUsable();
  const limit = app.page.getByLabel('Time limit (seconds)');
  await limit.fill('3');
  await limit.dispatchEvent('change');
  await py.exec('while True:\n    pass', 30_000);
  // The time limit ended it (not Stop, not a crash). How soon is measured by the bench's
  // "Python interrupt latency" row: a wall-clock bound here fails whenever the machine is busy.
  await expect(py.error()).toContainText('Stopped: the run went past the 3 s time limit.');
  await py.expectUsable();
});

test('a memory bomb ends in a clear error and a fresh worker', async ({ app }) => {
  const py = await pythonConsole(app.page);
  await py.exec('x = []\nwhile True:\n    x.append(bytearray(10**8))');
  await expect(py.error()).toContainText(/MemoryError|memory/);
  await py.exec('x = "a" * 10**10');
  await expect(py.error()).toContainText(/MemoryError|OverflowError/);
  await py.expectUsable();
});

test('Python reads loaded datasets through df, datasets and sql()', async ({ app }) => {
  await app.loadSample('penguins');
  const py = await pythonConsole(app.page);
  await py.exec('result = len(df)');
  await expect(py.result()).toHaveText('344');
  await py.exec('t = sql("SELECT count(*) AS n FROM penguins WHERE \\"Island\\" = \'Biscoe\'")\nresult = t.rows[0][0] if not hasattr(t, "iloc") else int(t.iloc[0, 0])');
  await expect(py.result()).toHaveText('168');
  await py.exec('print(sorted(datasets))');
  await expect(py.output()).toContainText("['penguins']");
  // Dates and timestamps arrive as datetime objects, naive for a naive column.
  await py.exec('t = sql("SELECT DATE \'2024-02-29\' AS d, TIMESTAMP \'2024-02-29 13:14:15\' AS ts")\nrow = t.rows[0] if not hasattr(t, "iloc") else [t.iloc[0, 0].date(), t.iloc[0, 1].to_pydatetime()]\nresult = f"{type(row[0]).__name__} {row[1].isoformat()} {row[1].tzinfo}"');
  await expect(py.result()).toHaveText('date 2024-02-29T13:14:15 None');
  // With two datasets, df says which names to use instead.
  await app.loadSample('cars');
  await py.exec('df.head()');
  await expect(py.error()).toContainText("df is defined only when one dataset is loaded; there are 2");
});

// A start after the first restores the interpreter from a memory snapshot (workers/python/
// snapshot.ts). What the worker wires up after every start must work again: output, sql(), the
// interrupt behind the time limit.
test('after a reload Python starts from its memory snapshot, with output, sql() and the time limit wired again', async ({ app }) => {
  const status = app.page.getByRole('status', { name: 'Python status' });
  const py = await pythonConsole(app.page);
  await py.expectUsable();
  await expect(status).toHaveAttribute('data-started-from', 'fresh');
  // The snapshot is written in the background after that first start.
  const saved = () =>
    app.page.evaluate(async () => {
      const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('engine-cache', { create: true });
      for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys()) if (name.endsWith('.snapshot')) return true;
      return false;
    });
  await expect.poll(saved, { timeout: 30_000 }).toBe(true);

  await app.reload();
  await app.loadSample('penguins');
  const again = await pythonConsole(app.page);
  await again.exec('print("from the snapshot")\nt = sql("SELECT count(*) AS n FROM penguins")\nresult = t.rows[0][0] if not hasattr(t, "iloc") else int(t.iloc[0, 0])');
  await expect(status).toHaveAttribute('data-started-from', 'snapshot');
  await expect(again.output()).toContainText('from the snapshot');
  await expect(again.result()).toHaveText('344');
  const limit = app.page.getByLabel('Time limit (seconds)');
  await limit.fill('2');
  await limit.dispatchEvent('change');
  await again.exec('while True:\n    pass', 30_000);
  await expect(again.error()).toContainText('time limit');
  await expect(status).toHaveAttribute('data-recovery-how', 'interrupted');
  await again.expectUsable();
});

test.describe('sandbox', () => {
  let server: Server;
  let hits: string[] = [];
  let url = '';

  test.beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.end('leak');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/leak`;
  });
  test.afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  test.beforeEach(() => {
    hits = [];
  });

  test('no network escape reaches a local listener', async ({ app }) => {
    const py = await pythonConsole(app.page);
    const code = `
import js
URL = ${JSON.stringify(url)}
${ATTEMPT_PY}
def via_js(name):
    def f():
        obj = getattr(js, name)
        if name == "fetch":
            from pyodide.ffi import run_sync
            run_sync(obj(URL))
        elif name == "XMLHttpRequest":
            x = obj.new(); x.open("GET", URL, False); x.send()
        elif name in ("WebSocket", "EventSource"):
            obj.new(URL.replace("http", "ws") if name == "WebSocket" else URL)
        elif name == "importScripts":
            obj(URL)
        elif name == "navigator":
            obj.sendBeacon(URL, "x")
    return f
for name in ["fetch", "XMLHttpRequest", "WebSocket", "EventSource", "importScripts", "navigator"]:
    attempt("js." + name, via_js(name))
def http_open():
    import pyodide.http
    pyodide.http.open_url(URL)
attempt("pyodide.http.open_url", http_open)
def http_fetch():
    import pyodide.http
    from pyodide.ffi import run_sync
    run_sync(pyodide.http.pyfetch(URL))
attempt("pyodide.http.pyfetch", http_fetch)
attempt("Function constructor", lambda: js.Object.constructor("return fetch")()(URL))
attempt("string timer", lambda: js.setTimeout("fetch('" + URL + "')", 0))
def load_package():
    import pyodide_js
    from pyodide.ffi import run_sync
    run_sync(pyodide_js.loadPackage(URL + ".whl"))
    import sys
    assert "leak" not in sys.modules
    raise RuntimeError("package not loaded")
attempt("pyodide_js.loadPackage", load_package)
import time
time.sleep(0.5)
result = out
`;
    await py.exec(code);
    const shown = await py.result().innerText();
    const report = JSON.parse(shown) as Record<string, string>;
    for (const [name, outcome] of Object.entries(report)) expect(outcome, name).toMatch(/^blocked/);
    // Give stray requests (timers, beacons) time to arrive before counting.
    await app.page.waitForTimeout(1_000);
    expect(hits).toEqual([]);
  });

  test('the app’s IndexedDB, caches and storage are out of reach', async ({ app }) => {
    const py = await pythonConsole(app.page);
    const code = `
import js
${ATTEMPT_PY}
attempt("js.indexedDB", lambda: js.indexedDB.open("dataseer"))
attempt("js.caches", lambda: js.caches.keys())
attempt("navigator.storage", lambda: js.navigator.storage.getDirectory())
def idbfs():
    import os, pyodide_js
    from pyodide.ffi import run_sync, create_once_callable
    import asyncio
    FS = pyodide_js.FS
    os.makedirs("/idb", exist_ok=True)
    FS.mount(FS.filesystems.IDBFS, js.Object.new(), "/idb")
    fut = asyncio.get_event_loop().create_future()
    FS.syncfs(True, create_once_callable(lambda err=None: fut.set_result(err)))
    err = run_sync(fut)
    if err is not None:
        raise RuntimeError(str(err))
attempt("IDBFS", idbfs)
result = out
`;
    await py.exec(code);
    const report = JSON.parse(await py.result().innerText()) as Record<string, string>;
    expect(Object.keys(report)).toHaveLength(4);
    for (const [name, outcome] of Object.entries(report)) expect(outcome, name).toMatch(/^blocked/);
  });
});
