/**
 * The seams between workers: when the data worker crashes (an uncaught error inside it, as a
 * real fault would be), the page restarts it and hands the agent a port to the new one, so a
 * call in flight fails with a clear error and the next questions work — nothing waits forever.
 */
import type { Page, Worker } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { ask, chat, configureEndpoint, expectIdle, useMockLlm } from './support/mockLlm';
import { pythonConsole } from './support/pythonConsole';

const mock = useMockLlm();

async function engineWorker(page: Page, file: 'data.worker' | 'agent.worker' | 'python.worker'): Promise<Worker> {
  await expect.poll(() => page.workers().some((w) => w.url().includes(file)), { timeout: 60_000 }).toBe(true);
  const worker = page.workers().find((w) => w.url().includes(file));
  if (!worker) throw new Error(`no ${file}`);
  return worker;
}

/** Throws inside a worker: its `error` event reaches the page as a real fault's would. */
async function crash(worker: Worker): Promise<void> {
  await worker.evaluate(() => {
    setTimeout(() => {
      throw new Error('simulated fault');
    }, 0);
  });
}

async function crashDataWorker(page: Page): Promise<void> {
  await crash(await engineWorker(page, 'data.worker'));
  await expect(page.getByRole('alert').filter({ hasText: 'was restarted' })).toBeVisible({ timeout: 60_000 });
}

test('after a data-worker crash the agent reaches the restarted engine, and a call caught in the crash fails clearly', async ({ app, page }) => {
  test.setTimeout(180_000);
  await app.loadSample('penguins');
  await configureEndpoint(page, mock, { key: 'sk-engines' });
  const { rows } = await app.runSql('SELECT count(*) AS n FROM penguins');
  const count = rows[0]?.[0] ?? '';

  // 1. Crash while idle: the next question's tools reach the new engine.
  await crashDataWorker(page);
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 'a1', name: 'run_sql', arguments: { sql: 'SELECT count(*) AS n FROM penguins' } }] },
    { type: 'text', content: `There are ${count} penguins.` },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);
  await ask(page, 'How many penguins are there?');
  const c = chat(page);
  await expect(c.log.getByRole('article', { name: 'Answer' })).toContainText(`There are ${count} penguins.`, { timeout: 90_000 });
  await expectIdle(page);

  // 2. Crash during a long query: that call fails with a clear error, the retry works.
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 'b1', name: 'run_sql', arguments: { sql: 'SELECT count(*) AS n FROM range(20000000000)' } }] },
    { type: 'tool_calls', calls: [{ id: 'b2', name: 'run_sql', arguments: { sql: 'SELECT count(*) AS n FROM penguins' } }] },
    { type: 'text', content: `Still ${count} penguins.` },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);
  await c.log.getByRole('button', { name: 'New conversation' }).or(page.getByRole('button', { name: 'New conversation' })).first().click();
  await ask(page, 'Count them again, the slow way first.');
  await expect.poll(async () => (await mock.chatRequests()).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  // The slow query is running in the engine now.
  await page.waitForTimeout(1500);
  await crashDataWorker(page);
  await expect(c.log.getByRole('article', { name: 'Answer' }).last()).toContainText(`Still ${count} penguins.`, { timeout: 120_000 });
  const bodies = (await mock.chatRequests()).map((r) => JSON.stringify(r.body));
  expect(bodies.some((b) => b.includes('restarted while this was running'))).toBe(true);
  expect(app.pageErrors).toEqual([]);
});

/** What a conversation shows: each step table's name, size line and first rows, and the answer's charts. */
async function snapshot(page: Page): Promise<{ tables: { label: string; size: string; head: string[] }[]; charts: string[]; answer: string }> {
  const log = chat(page).log;
  await expect(log.getByRole('article', { name: 'Answer' })).toBeVisible({ timeout: 60_000 });
  // Open every step so its output is rendered.
  await log.evaluate((el) => el.querySelectorAll('details').forEach((d) => (d.open = true)));
  await expect(log.getByRole('grid', { name: 'run_sql output' })).toBeVisible();
  // Plotly loads lazily: compare the drawn chart, not its placeholder.
  await expect(log.getByText('Loading chart…')).toHaveCount(0, { timeout: 60_000 });
  return log.evaluate((el) => ({
    tables: Array.from(el.querySelectorAll('[role="grid"][aria-label]')).map((t) => ({
      label: t.getAttribute('aria-label') ?? '',
      size: (t.closest('.tool-table')?.querySelector('.table-size')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
      head: Array.from(t.querySelectorAll('[role="row"]')).slice(0, 4).map((r) => (r.textContent ?? '').replace(/\s+/g, ' ').trim()),
    })),
    charts: Array.from(el.querySelectorAll('article figure[aria-label]')).map((f) => f.getAttribute('aria-label') ?? ''),
    answer: (el.querySelector('article')?.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 200),
  }));
}

test('a conversation with a 5,000-row table and a chart looks the same after a reload as it did live', async ({ app, page }) => {
  test.setTimeout(180_000);
  await app.loadSample('penguins');
  await configureEndpoint(page, mock, { key: 'sk-reload' });
  const sql = 'SELECT i, i * 2 AS twice FROM range(5000) t(i)';
  const chartSql = 'SELECT "Species", count(*) AS n FROM penguins GROUP BY 1 ORDER BY 1';
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 't1', name: 'run_sql', arguments: { sql, max_rows: 5000 } }] },
    { type: 'tool_calls', calls: [{ id: 't2', name: 'create_chart', arguments: { sql: chartSql, chart: { type: 'bar', x: 'Species', y: 'n', title: 'Penguins per species' } } }] },
    { type: 'text', content: 'The table has 5000 rows; the chart counts penguins per species.' },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);
  const question = 'Show me 5000 numbers and a chart.';
  await ask(page, question);
  await expectIdle(page);
  const live = await snapshot(page);
  expect(live.tables.find((t) => t.label === 'run_sql output')?.size).toMatch(/^5,000 rows/);
  expect(live.charts).toHaveLength(1);

  await app.reload();
  const c = chat(page);
  await c.threads.getByRole('button', { name: question }).click();
  await expect(c.log).toContainText(question);
  expect(await snapshot(page)).toEqual(live);
});

test('Stop during the agent’s run_python ends the run, and the next run_python works', async ({ app, page }) => {
  test.setTimeout(180_000);
  await configureEndpoint(page, mock, { key: 'sk-stop-python' });
  await mock.script([{ type: 'tool_calls', calls: [{ id: 'p1', name: 'run_python', arguments: { code: 'while True:\n    pass' } }] }]);
  const c = chat(page);
  await ask(page, 'Spin forever in Python.');
  // The loop is running once the model's call went out and nothing else came back.
  await expect.poll(async () => (await mock.chatRequests()).length, { timeout: 60_000 }).toBe(1);
  await expect(c.log.getByRole('list', { name: 'Steps' })).toContainText('run_python', { timeout: 60_000 });
  await page.waitForTimeout(1000);
  await c.stop.click();
  await expect(c.log.getByRole('alert')).toContainText(/stopped/i, { timeout: 30_000 });
  await expectIdle(page);
  await expect(c.log).toContainText('Spin forever in Python.');

  await mock.script([
    { type: 'tool_calls', calls: [{ id: 'p2', name: 'run_python', arguments: { code: 'result = 6 * 7' } }] },
    { type: 'text', content: 'It is 42.' },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);
  await ask(page, 'What is six times seven?');
  await expect(c.log.getByRole('article', { name: 'Answer' }).last()).toContainText('It is 42.', { timeout: 90_000 });
  expect(app.pageErrors).toEqual([]);
});

test('the agent worker killed mid-run: the run fails clearly and keeps the question; the next one reaches DuckDB and Python', async ({ app, page }) => {
  test.setTimeout(180_000);
  await app.loadSample('penguins');
  await configureEndpoint(page, mock, { key: 'sk-agent-crash' });
  const count = (await app.runSql('SELECT count(*) AS n FROM penguins')).rows[0]?.[0] ?? '';
  // The model takes its time: the agent is waiting on it when it dies.
  await mock.script([{ type: 'text', content: 'never seen', delay_ms: 30_000 }]);
  const c = chat(page);
  await ask(page, 'A question the agent will not live to answer.');
  await expect.poll(async () => (await mock.chatRequests()).length, { timeout: 60_000 }).toBe(1);
  await crash(await engineWorker(page, 'agent.worker'));
  await expect(c.log.getByRole('alert')).toContainText('The agent stopped', { timeout: 30_000 });
  await expect(c.log).toContainText('A question the agent will not live to answer.');
  await expectIdle(page);

  await mock.script([
    { type: 'tool_calls', calls: [{ id: 'k1', name: 'run_sql', arguments: { sql: 'SELECT count(*) AS n FROM penguins' } }] },
    { type: 'tool_calls', calls: [{ id: 'k2', name: 'run_python', arguments: { code: 'result = 6 * 7' } }] },
    { type: 'text', content: `There are ${count} penguins, and 6 × 7 is 42.` },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);
  await c.log.getByRole('button', { name: 'New conversation' }).or(page.getByRole('button', { name: 'New conversation' })).first().click();
  await ask(page, 'Count them, then multiply in Python.');
  await expect(c.log.getByRole('article', { name: 'Answer' }).last()).toContainText('and 6 × 7 is 42.', { timeout: 120_000 });
  const bodies = (await mock.chatRequests()).map((r) => JSON.stringify(r.body));
  // The restarted agent's ports are live: its tools came back with DuckDB's count and Python's 42.
  expect(bodies.some((b) => b.includes(`[${count}]`) || b.includes(`"n":${count}`))).toBe(true);
  expect(bodies.some((b) => b.includes('42'))).toBe(true);
});

test('the Python worker killed mid-run: the run fails clearly, the console and the agent’s run_python work afterwards', async ({ app, page }) => {
  test.setTimeout(180_000);
  const py = await pythonConsole(page);
  await py.expectUsable();
  // Code that swallows the interrupt: Stop cannot end it, so the page terminates the worker
  // (its sandbox leaves no way to throw inside it from outside, as a real fault would).
  await py.code.fill('while True:\n    try:\n        while True:\n            pass\n    except KeyboardInterrupt:\n        pass');
  await py.run.click();
  await expect(py.panel.locator('[data-outcome="pending"]')).toBeAttached();
  await page.waitForTimeout(500);
  const before = page.workers().filter((w) => w.url().includes('python.worker')).length;
  expect(before).toBe(1);
  await page.getByRole('button', { name: 'Stop Python' }).click();
  await expect(py.error()).toContainText('restarted', { timeout: 30_000 });
  await py.expectUsable();

  await configureEndpoint(page, mock, { key: 'sk-python-crash' });
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 'q1', name: 'run_python', arguments: { code: 'print("alive")\nresult = 6 * 7' } }] },
    { type: 'text', content: 'Python says 42.' },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);
  await ask(page, 'Is Python alive?');
  await expect(chat(page).log.getByRole('article', { name: 'Answer' }).last()).toContainText('Python says 42.', { timeout: 120_000 });
  const bodies = (await mock.chatRequests()).map((r) => JSON.stringify(r.body));
  expect(bodies.some((b) => b.includes('alive') && b.includes('42'))).toBe(true);
  expect(app.pageErrors).toEqual([]);
});
