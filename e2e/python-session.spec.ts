/**
 * A stateful Python session (issue 14, item 4): the console keeps variables, imports and
 * functions between runs until Python restarts, and says so when a restart lost them; top-level
 * `await` works; `result` never comes back stale; DATE values arrive as `datetime.date`. The
 * agent's `run_python` calls share one namespace per conversation, and never another's.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { pythonConsole } from './support/pythonConsole';
import { ask, chat, configureEndpoint, expectIdle, useMockLlm } from './support/mockLlm';

const mock = useMockLlm();

test('the console keeps state across runs, top-level await works, and a restart says the state is gone', async ({ app }) => {
  const py = await pythonConsole(app.page);
  await py.exec('import statistics\nbase = [3, 5, 10]\ndef spread(v):\n    return max(v) - min(v)\nresult = "defined"');
  await expect(py.result()).toHaveText('defined');
  await py.exec('result = [statistics.mean(base), spread(base)]');
  await expect(py.result()).toContainText('6');
  await expect(py.result()).toContainText('7');

  // A run that sets no result shows none (the last one's is cleared, never shown again).
  await py.exec('print("no result here")');
  await expect(py.output()).toContainText('no result here');
  await expect(py.result()).toHaveCount(0);

  await py.exec('import asyncio\nawait asyncio.sleep(0.01)\nresult = "awaited " + str(len(base))');
  await expect(py.result()).toHaveText('awaited 3');

  // DATE arrives as datetime.date (from DuckDB through sql()).
  await py.exec('t = sql("SELECT DATE \'2024-02-29\' AS d")\nv = t["d"][0] if hasattr(t, "columns") and not hasattr(t, "iloc") else t["d"].iloc[0]\nresult = type(v).__module__ + "." + type(v).__name__');
  await expect(py.result()).toHaveText(/datetime\.(date|Timestamp)/);

  // The notebook's Restart Python restarts the one interpreter the console shares.
  await app.openView('Notebook');
  const notebook = app.page.getByRole('region', { name: 'Notebook', exact: true });
  await notebook.getByRole('button', { name: 'Restart Python', exact: true }).click();
  await expect(notebook.getByRole('status').filter({ hasText: 'variables, imports and functions were cleared' })).toBeVisible({ timeout: 60_000 });
  await py.exec('result = base');
  await expect(py.error()).toContainText('NameError');
  await expect(py.error()).toContainText('Python was restarted since the last run here');
  await py.expectUsable();
  expect(app.pageErrors).toEqual([]);
});

/** Asks a question answered by one run_python call, then `answer`, and waits for the run to end. */
async function askWithPython(page: Page, question: string, code: string, answer: string): Promise<void> {
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 'p1', name: 'run_python', arguments: { code } }] },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
    { type: 'text', content: answer },
  ]);
  await ask(page, question);
  await expect(chat(page).answers.filter({ hasText: answer })).toBeVisible({ timeout: 90_000 });
  await expectIdle(page);
}

/** What the model was sent as the result of the last tool call. */
async function lastToolMessage(): Promise<string> {
  const requests = await mock.chatRequests();
  for (const r of requests.slice().reverse()) {
    const messages = (r.body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
    const tool = messages.filter((m) => m.role === 'tool').at(-1);
    if (tool) return String(tool.content);
  }
  return '';
}

test("run_python calls of one conversation share variables; another conversation's do not", async ({ app, page }) => {
  await configureEndpoint(page, mock, { key: 'sk-e2e-python-session' });
  await app.loadSample('penguins');
  await askWithPython(page, 'Remember a number?', 'kept_value = 6 * 7\nresult = kept_value', 'KEPT-ONE');
  await askWithPython(page, 'Use it again?', 'result = kept_value + 1', 'KEPT-TWO');
  expect(await lastToolMessage()).toContain('43');

  await page.getByRole('button', { name: 'New conversation', exact: true }).click();
  await askWithPython(page, 'Is it there in a new conversation?', 'result = kept_value', 'KEPT-THREE');
  const sent = await lastToolMessage();
  expect(sent).toContain('NameError');
  expect(sent).toContain('kept_value');
  expect(app.pageErrors).toEqual([]);
});
