// Pyodide rows for `npm run bench`, measured through the app's Python console (the same
// controls a user has): cold start, a warm run, interrupt latency, terminate-and-restart, and
// moving a 100k-row DuckDB result into Python.

const RUN_TIMEOUT = 120_000;

/** Opens the Python console (a tab named Python when the app has tabs). */
async function openConsole(page, baseURL) {
  await page.goto(baseURL);
  const tab = page.getByRole('tab', { name: /python/i });
  if (await tab.count()) await tab.first().click();
  const code = page.getByRole('textbox', { name: 'Python code' });
  await code.waitFor({ timeout: 60_000 });
  return code;
}

/** Runs code from the console; resolves when its result or error is on the page. */
async function run(page, code, text) {
  const panel = page.getByRole('region', { name: 'Python console' });
  const before = await panel.locator('[data-run-id]').getAttribute('data-run-id', { timeout: 1 }).catch(() => null);
  await code.fill(text);
  const t0 = Date.now();
  await page.getByRole('button', { name: 'Run Python' }).click();
  // Done when a newer run than before shows an outcome and nothing is queued.
  await page.waitForFunction(
    (prev) => {
      const section = document.querySelector('section[aria-label="Python console"]');
      const runEl = section?.querySelector('[data-run-id]');
      return section?.getAttribute('aria-busy') === 'false' && runEl && runEl.getAttribute('data-run-id') !== prev && runEl.getAttribute('data-outcome') !== 'pending';
    },
    before,
    { timeout: RUN_TIMEOUT, polling: 20 },
  );
  const ms = Date.now() - t0;
  const alert = panel.getByRole('alert');
  const error = (await alert.count()) ? await alert.first().innerText() : null;
  const result = panel.getByRole('status', { name: 'Python result' });
  const value = (await result.count()) ? await result.first().innerText() : null;
  return { ms, error, value };
}

async function status(page) {
  const s = page.getByRole('status', { name: 'Python status' });
  return {
    state: await s.getAttribute('data-status'),
    startupMs: Number(await s.getAttribute('data-startup-ms')),
    recoveryHow: await s.getAttribute('data-recovery-how'),
    recoveryMs: Number(await s.getAttribute('data-recovery-ms')),
  };
}

async function setLimitSeconds(page, seconds) {
  const input = page.getByLabel('Time limit (seconds)');
  await input.fill(String(seconds));
  await input.dispatchEvent('change');
}

/** @returns {Promise<{name: string, value: number, unit: string}[]>} */
export async function pythonRows(page, baseURL) {
  const rows = [];
  const code = await openConsole(page, baseURL);

  const first = await run(page, code, 'result = 1 + 1');
  if (first.error) throw new Error(`first Python run failed: ${first.error}`);
  const s0 = await status(page);
  rows.push({ name: 'Pyodide cold start (worker init → ready)', value: s0.startupMs, unit: 'ms' });
  rows.push({ name: 'Python first run after page load (click → result)', value: first.ms, unit: 'ms' });

  const warm = [];
  for (let i = 0; i < 5; i++) warm.push((await run(page, code, `result = sum(range(${100 + i}))`)).ms);
  warm.sort((a, b) => a - b);
  rows.push({ name: 'Python warm run, trivial script (click → result, median of 5)', value: warm[2], unit: 'ms' });

  await setLimitSeconds(page, 2);
  const loop = await run(page, code, 'while True:\n    pass');
  const s1 = await status(page);
  if (!loop.error || s1.recoveryHow !== 'interrupted') throw new Error(`the loop was not interrupted (${s1.recoveryHow}): ${loop.error}`);
  rows.push({ name: 'Python interrupt latency (time limit → usable again)', value: s1.recoveryMs, unit: 'ms' });

  // Swallowing KeyboardInterrupt defeats the interrupt: the worker is terminated after the
  // 2 s grace period and a fresh one started.
  const stubborn = await run(page, code, 'while True:\n    try:\n        while True:\n            pass\n    except KeyboardInterrupt:\n        pass');
  const s2 = await status(page);
  if (!stubborn.error || s2.recoveryHow !== 'restarted') throw new Error(`the worker was not restarted (${s2.recoveryHow}): ${stubborn.error}`);
  rows.push({ name: 'Python terminate-and-restart (time limit → usable, incl. 2 s grace)', value: s2.recoveryMs, unit: 'ms' });
  // The new worker's own start: from the memory snapshot the first start saved (goal ≤ 1.5 s).
  const startedFrom = await page.getByRole('status', { name: 'Python status' }).getAttribute('data-started-from');
  rows.push({ name: `Python restart: new worker start → ready (from ${startedFrom || 'a full start'}, goal ≤ 1500)`, value: s2.startupMs, unit: 'ms' });
  await setLimitSeconds(page, 30);

  // Twice in one run: the first call also pays one-time costs (DuckDB's first query of this
  // shape, the first stack switch), the second is the steady state.
  const move = await run(
    page,
    code,
    [
      'import time',
      'Q = "SELECT range AS i, random() AS x, \'row \' || range AS s FROM range(100000)"',
      'ms = []',
      'for _ in range(2):',
      '    t0 = time.perf_counter()',
      '    t = sql(Q)',
      '    ms.append(round((time.perf_counter() - t0) * 1000, 1))',
      '    assert len(t) == 100000, len(t)',
      'result = " ".join(map(str, ms))',
    ].join('\n'),
  );
  if (move.error || move.value === null) throw new Error(`moving 100k rows into Python failed: ${move.error}`);
  const [firstCall, warmCall] = move.value.trim().split(/\s+/).map(Number);
  rows.push({ name: 'DuckDB → Python, 100k rows × 3 columns, first sql() call', value: firstCall, unit: 'ms' });
  rows.push({ name: 'DuckDB → Python, 100k rows × 3 columns, warm sql() call', value: warmCall, unit: 'ms' });
  return rows;
}
