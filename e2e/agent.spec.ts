/**
 * The agent end to end: the real app, the real agent worker and `@langchain/openai` client,
 * against the scripted OpenAI-compatible endpoint (testing/mock-llm) started here on a free port.
 * Everything is found by the contract's accessible names (AGENT-CONTRACT.md).
 */
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import type { ScriptedReply } from '../testing/mock-llm/server.mjs';
import { expect, test, type DataApp } from './support/fixtures';
import { ask, chat, configureEndpoint, expectIdle, openSteps, useMockLlm } from './support/mockLlm';
import { vega } from './support/paths';

const KEY = 'sk-e2e-Zq8v3kWm';
const TOOLS = ['profile_data', 'run_sql', 'run_python', 'create_chart', 'validate_results', 'search_examples', 'describe_columns', 'ask_clarification'];

interface Penguin {
  Species: string;
  'Body Mass (g)': number | null;
  [column: string]: unknown;
}
const penguins = JSON.parse(readFileSync(vega('penguins.json'), 'utf8')) as Penguin[];

/** The true figure, computed here from the source file (not by the app). */
function adelieMeanMass(): string {
  const masses = penguins.filter((p) => p.Species === 'Adelie' && p['Body Mass (g)'] !== null).map((p) => p['Body Mass (g)'] as number);
  return (masses.reduce((a, b) => a + b, 0) / masses.length).toFixed(2);
}

const mock = useMockLlm();

/** Settings through "Test connection", picking the model from the list. */
const configure = (page: Page, opts: { contextTokens?: number } = {}) => configureEndpoint(page, mock, { key: KEY, testConnection: true, ...opts });

interface ChatBody {
  messages: { role: string; content: unknown }[];
  tools?: { function: { name: string } }[];
  response_format?: unknown;
}

async function withPenguins(app: DataApp): Promise<void> {
  await app.loadSample('penguins');
}

test('answers a data question through run_sql and validation, with the key only in the Authorization header', async ({ app, page }) => {
  await withPenguins(app);
  await configure(page);
  const figure = adelieMeanMass();
  const sql = `SELECT round(avg("Body Mass (g)"), 2) AS mean_mass, count("Body Mass (g)") AS birds FROM penguins WHERE "Species" = 'Adelie'`;
  const answer = `Adelie penguins weigh ${figure} g on average (151 birds with a recorded mass).`;
  await mock.script([
    // Held back a little so the run is visibly in progress.
    { type: 'tool_calls', calls: [{ id: 'c1', name: 'run_sql', arguments: { sql } }], delay_ms: 1500 },
    {
      type: 'tool_calls',
      calls: [{ id: 'c2', name: 'validate_results', arguments: { question: 'mean mass', approach: 'SQL average', results: figure, code: sql } }],
    },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.92 } },
    { type: 'text', content: answer, chunk_size: 8, chunk_delay_ms: 20 },
  ]);

  const c = chat(page);
  await ask(page, 'What is the average body mass of Adelie penguins?');
  await expect(c.stop).toBeVisible();
  await expect(c.log).toContainText('What is the average body mass of Adelie penguins?');

  const card = c.log.getByRole('article', { name: 'Answer' });
  await expect(card).toContainText(answer, { timeout: 60_000 });
  await expect(card).toContainText('Confidence 92%');
  await expectIdle(page);

  // The run_sql step (under How I got this) shows the query and its result.
  const steps = await openSteps(page);
  const sqlStep = steps.getByRole('listitem').filter({ hasText: 'run_sql' });
  await sqlStep.getByText('run_sql').click();
  await expect(sqlStep.getByRole('grid', { name: 'run_sql output' })).toContainText('mean_mass');
  await expect(sqlStep.getByRole('grid', { name: 'run_sql output' })).toContainText(figure);
  await expect(steps.getByRole('listitem').filter({ hasText: 'validate_results' })).toContainText('looks right');

  // What the endpoint saw.
  const requests = await mock.recorded();
  const chats = requests.filter((r) => r.path === '/v1/chat/completions' && r.method === 'POST');
  expect(chats.length).toBe(4);
  const modelsCalls = requests.filter((r) => r.path === '/v1/models' && r.method === 'GET');
  expect(modelsCalls.length).toBeGreaterThanOrEqual(1);
  for (const r of requests.filter((r) => r.method !== 'OPTIONS' && r.path.startsWith('/v1/'))) {
    expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    const elsewhere = JSON.stringify({ body: r.body, path: r.path, query: r.query, headers: { ...r.headers, authorization: undefined } });
    expect(elsewhere).not.toContain(KEY);
  }
  const first = chats[0]?.body as ChatBody;
  const system = first.messages.find((m) => m.role === 'system');
  const systemText = typeof system?.content === 'string' ? system.content : JSON.stringify(system?.content);
  expect(systemText).toContain('penguins');
  for (const column of Object.keys(penguins[0] ?? {})) expect(systemText).toContain(column);
  // Python is wired to the agent: the context lists what run_python can import.
  expect(systemText).toContain('Python (run_python): importable packages beyond the standard library');
  expect(systemText).not.toMatch(/run_python\) is NOT available/);
  expect((first.tools ?? []).map((t) => t.function.name).sort()).toEqual([...TOOLS].sort());
  // The critic call is the structured `validation_report`.
  expect(chats.some((r) => JSON.stringify((r.body as ChatBody).response_format ?? '').includes('validation_report'))).toBe(true);

  // The key is not kept on disk unless asked ("Remember on this device" was off).
  const stored = await page.evaluate(() => ({ local: JSON.stringify(localStorage), session: JSON.stringify(sessionStorage) }));
  expect(stored.local).not.toContain(KEY);
  expect(stored.session).toContain(KEY);
});

test('run_python runs in the page\'s Python, reads DuckDB through sql(), and its result is shown', async ({ app, page }) => {
  await withPenguins(app);
  await configure(page);
  const count = penguins.length;
  // The count is computed by Python from what sql() returned, never written into the script.
  const code = 't = sql("SELECT count(*) AS n FROM penguins")\nn = t.rows[0][0] if hasattr(t, "rows") else int(t.iloc[0, 0])\nprint("penguins:", n)\nresult = n';
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 'p1', name: 'run_python', arguments: { code } }] },
    {
      type: 'tool_calls',
      calls: [{ id: 'p2', name: 'validate_results', arguments: { question: 'how many penguins', approach: 'Python count via sql()', results: String(count), code } }],
    },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
    { type: 'text', content: `There are ${count} penguins in the data.` },
  ]);
  const c = chat(page);
  await ask(page, 'How many penguins are there? Use Python.');
  const card = c.log.getByRole('article', { name: 'Answer' });
  await expect(card).toContainText(`There are ${count} penguins in the data.`, { timeout: 90_000 });
  await expectIdle(page);

  const steps = await openSteps(page);
  const pyStep = steps.getByRole('listitem').filter({ hasText: 'run_python' });
  await expect(pyStep).toContainText('Ran Python code');
  await pyStep.getByText('run_python').click();
  await expect(pyStep).toContainText(new RegExp(`"result": ${count}\\b`));
  await expect(pyStep).toContainText(`penguins: ${count}`);
  await expect(steps.getByRole('listitem').filter({ hasText: 'validate_results' })).toContainText('looks right');

  // The model saw Python's output in the tool message.
  const chats = await mock.chatRequests();
  const second = chats[1]?.body as ChatBody;
  const toolMsg = second.messages.find((m) => m.role === 'tool');
  expect(String(toolMsg?.content)).toContain(`penguins: ${count}`);
  expect(app.pageErrors).toEqual([]);
});

test('a refused key shows "the key was refused" with a way to Settings, and keeps the question', async ({ app, page }) => {
  expect(app.pageErrors).toEqual([]);
  await configure(page);
  await mock.script([{ type: 'error', status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key' }]);
  const c = chat(page);
  await ask(page, 'How many rows are there?');
  const alert = c.log.getByRole('alert');
  await expect(alert).toContainText(/key was refused/i, { timeout: 60_000 });
  await expect(c.log).toContainText('How many rows are there?');
  await expectIdle(page);
  await alert.getByRole('button', { name: 'Change API key' }).click();
  await expect(page.getByRole('dialog').getByRole('textbox', { name: 'API key' })).toHaveValue(KEY);
});

test('malformed tool-call JSON is fed back as a tool error, then the run answers', async ({ app, page }) => {
  await withPenguins(app);
  await configure(page);
  const count = String(penguins.length);
  await mock.script([
    { type: 'malformed_tool_call', name: 'run_sql', arguments_text: '{"sql": SELECT count(*) AS n FROM penguins}' },
    { type: 'tool_calls', calls: [{ id: 'ok1', name: 'run_sql', arguments: { sql: 'SELECT count(*) AS n FROM penguins' } }] },
    { type: 'text', content: `The penguins table has ${count} rows.` },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);
  const c = chat(page);
  await ask(page, 'How many penguins are in the data?');
  const card = c.log.getByRole('article', { name: 'Answer' });
  await expect(card).toContainText(`The penguins table has ${count} rows.`, { timeout: 60_000 });
  await expectIdle(page);

  const steps = await openSteps(page);
  await expect(steps.getByRole('listitem').filter({ hasText: 'failed' })).toHaveCount(1);
  // The model was told its arguments were not valid JSON, as a tool message.
  const chats = await mock.chatRequests();
  const second = chats[1]?.body as ChatBody;
  const toolMsg = second.messages.find((m) => m.role === 'tool');
  expect(String(toolMsg?.content)).toMatch(/^Error:/);
});

test('a conversation survives a reload: listed in Conversations, question and answer shown', async ({ app, page }) => {
  await configure(page);
  const answer = 'No datasets are loaded yet; add one under Add data.';
  await mock.script([{ type: 'text', content: answer }]);
  const question = 'Which datasets can you see?';
  await ask(page, question);
  const c = chat(page);
  await expect(c.log.getByRole('article', { name: 'Answer' })).toContainText(answer, { timeout: 60_000 });
  await expectIdle(page);
  await expect(c.threads.getByRole('button', { name: question })).toBeVisible();

  await app.reload();
  const after = chat(page);
  await expect(after.log).not.toContainText(question);
  const item = after.threads.getByRole('button', { name: question });
  await expect(item).toBeVisible({ timeout: 60_000 });
  await item.click();
  await expect(after.log).toContainText(question);
  await expect(after.log).toContainText(answer);
  // Settings were session-only: the tab keeps them across a reload.
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(page.getByRole('dialog').getByRole('textbox', { name: 'Model' })).toHaveValue('mock-model');
});

test('Stop aborts a run in progress and the question stays', async ({ app, page }) => {
  expect(app.pageErrors).toEqual([]);
  await configure(page);
  await mock.script([{ type: 'text', content: 'This answer takes a long time to start.', delay_ms: 30_000 }]);
  const c = chat(page);
  await ask(page, 'Take your time?');
  await expect(c.stop).toBeVisible();
  await c.stop.click();
  await expect(c.log.getByRole('alert')).toContainText(/stopped/i, { timeout: 30_000 });
  await expectIdle(page);
  await expect(c.log).toContainText('Take your time?');
});

test('a rate limit is retried with its status shown, then reported in an alert', async ({ app, page }) => {
  expect(app.pageErrors).toEqual([]);
  await configure(page);
  const limited: ScriptedReply = { type: 'error', status: 429, message: 'Rate limit reached', retry_after: 1 };
  await mock.script([limited, limited, limited]);
  const c = chat(page);
  await ask(page, 'Anything interesting?');
  await expect(c.log.getByRole('list', { name: 'Steps' })).toContainText(/Retrying:.*429/, { timeout: 60_000 });
  await expect(c.log.getByRole('alert')).toContainText(/rate limiting requests \(HTTP 429\)/, { timeout: 60_000 });
  await expectIdle(page);
  await expect(c.log).toContainText('Anything interesting?');
  // A few attempts (the first plus the client's small retry budget), never LangChain's default 7.
  const chats = await mock.chatRequests();
  expect(chats.length).toBeGreaterThanOrEqual(2);
  expect(chats.length).toBeLessThanOrEqual(4);
});

test('a dropped stream is retried once on its own; dropped again, it keeps the partial text and offers Retry, which completes the answer', async ({ app, page }) => {
  expect(app.pageErrors).toEqual([]);
  await configure(page);
  const full = 'The datasets panel lists every table you loaded; none are loaded yet.';
  // Chunks spaced out like a real stream, so some text has arrived when the connection drops.
  // The first drop is retried automatically (issue #22); the second ends the run.
  await mock.script([
    { type: 'cut', content: full, after_chunks: 3, chunk_delay_ms: 200 },
    { type: 'cut', content: full, after_chunks: 3, chunk_delay_ms: 200 },
  ]);
  const c = chat(page);
  await ask(page, 'What can I ask?');
  const alert = c.log.getByRole('alert');
  await expect(c.log).toContainText('The partial reply was discarded and the request sent again.', { timeout: 60_000 });
  await expect(alert).toContainText(/partial answer is kept/i, { timeout: 60_000 });
  await expectIdle(page);
  const partial = (await c.log.textContent()) ?? '';
  expect(partial).toContain(full.slice(0, 5));
  expect(partial).not.toContain(full);

  await mock.script([{ type: 'text', content: full }]);
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(c.log.getByRole('article', { name: 'Answer' })).toContainText(full, { timeout: 60_000 });
  await expect(c.log.getByRole('alert')).toHaveCount(0);
  await expect(c.log).toContainText('What can I ask?');
});

test('a number that no tool produced is flagged in the answer', async ({ app, page }) => {
  await withPenguins(app);
  await configure(page);
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 'n1', name: 'run_sql', arguments: { sql: 'SELECT count(*) AS n FROM penguins' } }] },
    { type: 'text', content: `There are ${penguins.length} penguins, and 9876 of them are happy.` },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);
  await ask(page, 'How many penguins, and how many are happy?');
  const card = chat(page).log.getByRole('article', { name: 'Answer' });
  await expect(card).toContainText('9876 of them are happy', { timeout: 60_000 });
  await expect(card.locator('mark')).toHaveText(['9876']);
  await expect(card.getByRole('note')).toContainText('Not found in any tool output');
});

test('Pipeline mode plans, runs the code and explains, with the same events', async ({ app, page }) => {
  await withPenguins(app);
  await configure(page);
  const islands = new Set(penguins.map((p) => p.Island)).size;
  await mock.script([
    { type: 'structured', when: 'execution_plan', value: { needs_code: true, needs_evaluation: false, needs_explanation: true, reasoning: 'count' } },
    { type: 'tool_calls', calls: [{ name: 'run_sql', arguments: { sql: 'SELECT count(DISTINCT "Island") AS islands FROM penguins' } }] },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.85 } },
    { type: 'text', content: `The penguins come from ${islands} islands.` },
  ]);
  const c = chat(page);
  await c.mode.selectOption({ label: 'Pipeline' });
  await ask(page, 'How many islands are there?');
  await expect(c.log.getByRole('article', { name: 'Answer' })).toContainText(`The penguins come from ${islands} islands.`, { timeout: 60_000 });
  await expectIdle(page);
  await expect(c.mode).toBeDisabled();
  await expect(c.threads.getByRole('button', { name: /How many islands are there\?.*pipeline/ })).toBeVisible();
  const chats = await mock.chatRequests();
  expect(JSON.stringify((chats[0]?.body as ChatBody).response_format)).toContain('execution_plan');
});

test('a reload mid-run keeps the question and offers to continue from the last checkpoint', async ({ app, page }) => {
  await configure(page);
  await mock.script([{ type: 'text', content: 'Too late.', delay_ms: 60_000 }]);
  const question = 'Will this survive a reload?';
  await ask(page, question);
  const c = chat(page);
  await expect(c.stop).toBeVisible();
  // The question is checkpointed before the model is called; wait until that request is out.
  await expect.poll(async () => (await mock.chatRequests()).length).toBe(1);
  await app.reload();

  const item = c.threads.getByRole('button', { name: question });
  await expect(item).toBeVisible({ timeout: 60_000 });
  await item.click();
  await expect(c.log).toContainText(question);
  await expect(c.log.getByRole('status')).toContainText('stopped before it finished');
  await mock.script([{ type: 'text', content: 'Yes: the thread continued after the reload.' }]);
  await c.log.getByRole('button', { name: 'Retry' }).click();
  await expect(c.log.getByRole('article', { name: 'Answer' })).toContainText('Yes: the thread continued after the reload.', { timeout: 60_000 });
  await expect(c.log.getByText(question)).toHaveCount(1);
});

test('a thread over its context budget summarises older turns; the model gets the summary, the view keeps them', async ({ app, page }) => {
  expect(app.pageErrors).toEqual([]);
  // A tiny budget (a real setting) so the second question already overflows it.
  await configure(page, { contextTokens: 300 });
  const c = chat(page);
  const oldest = 'OLDEST: which datasets can you see?';
  await mock.script([{ type: 'text', content: `None yet. ${'Load one under Add data and ask again. '.repeat(20)}` }]);
  await ask(page, oldest);
  await expect(c.log.getByRole('article', { name: 'Answer' })).toContainText('None yet.', { timeout: 60_000 });
  await expectIdle(page);
  const before = (await mock.chatRequests()).length;

  await mock.script([
    { type: 'structured', when: 'conversation_summary', value: { summary: 'SUMMARY-E2E: the user asked which datasets exist; none were loaded.' } },
    { type: 'text', content: 'Still no datasets are loaded.' },
  ]);
  await ask(page, 'And now?');
  await expect(c.log.getByRole('article', { name: 'Answer' }).last()).toContainText('Still no datasets are loaded.', { timeout: 60_000 });
  await expectIdle(page);
  await expect(c.log).toContainText('Summarising earlier turns');
  // The full history stays in the conversation view.
  await expect(c.log).toContainText(oldest);

  const chats = (await mock.chatRequests()).slice(before);
  expect(chats).toHaveLength(2);
  expect(JSON.stringify((chats[0]?.body as ChatBody).response_format)).toContain('conversation_summary');
  const sent = JSON.stringify((chats[1]?.body as ChatBody).messages);
  expect(sent).toContain('SUMMARY-E2E');
  expect(sent).toContain('And now?');
  expect(sent).not.toContain('OLDEST');
});

test('Helpful saves the answer as an example that the next question is given; pressing again takes it back', async ({ app, page }) => {
  expect(app.pageErrors).toEqual([]);
  await configure(page);
  const c = chat(page);
  const saved = 'How many glaciers shrank by more than ten percent?';
  await mock.script([{ type: 'text', content: 'No datasets are loaded, so none can be counted yet.' }]);
  await ask(page, saved);
  const card = c.log.getByRole('article', { name: 'Answer' });
  await expect(card).toContainText('none can be counted', { timeout: 60_000 });
  await expectIdle(page);
  const helpful = card.getByRole('button', { name: 'Helpful', exact: true });
  const notHelpful = card.getByRole('button', { name: 'Not helpful', exact: true });
  await expect(helpful).toHaveAttribute('aria-pressed', 'false');
  await helpful.click();
  await expect(helpful).toHaveAttribute('aria-pressed', 'true');
  await expect(card).toContainText('Saved to your examples.');

  // A new conversation on the same topic: the saved question is among the prompt's examples.
  await page.getByRole('button', { name: 'New conversation' }).click();
  await mock.script([{ type: 'text', content: 'Still nothing loaded.' }]);
  await ask(page, 'Which glaciers shrank the most?');
  await expect(c.log.getByRole('article', { name: 'Answer' })).toContainText('Still nothing loaded.', { timeout: 60_000 });
  await expectIdle(page);
  const posts = await mock.chatRequests();
  expect(JSON.stringify((posts.at(-1)?.body as ChatBody).messages[0])).toContain(saved);

  // Not helpful on the first answer removes it again.
  await c.threads.getByRole('button', { name: saved }).click();
  const again = c.log.getByRole('article', { name: 'Answer' });
  await again.getByRole('button', { name: 'Not helpful', exact: true }).click();
  await expect(again.getByRole('button', { name: 'Not helpful', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(notHelpful).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'New conversation' }).click();
  await mock.script([{ type: 'text', content: 'Nothing yet.' }]);
  await ask(page, 'Which glaciers shrank the most?');
  await expect(c.log.getByRole('article', { name: 'Answer' })).toContainText('Nothing yet.', { timeout: 60_000 });
  await expectIdle(page);
  const last = (await mock.chatRequests()).at(-1);
  expect(JSON.stringify((last?.body as ChatBody).messages[0])).not.toContain(saved);
});

/** A valid PNG of width × height solid red pixels, built here (signature, IHDR, IDAT, IEND). */
function redPng(width = 2, height = 2): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = (crcTable[(c ^ b) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.from([0, ...Array.from({ length: width }, () => [255, 0, 0]).flat()])));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

test('an attached PNG goes to the model as an image_url part, and the reopened thread shows it', async ({ app, page }) => {
  await configure(page);
  const png = redPng();
  const c = chat(page);
  const pick = async (files: { name: string; mimeType: string; buffer: Buffer }[]) => {
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach image', exact: true }).click();
    await (await chooser).setFiles(files);
  };
  // A file that is not an image is refused with a message.
  await pick([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') }]);
  await expect(page.getByRole('alert').filter({ hasText: 'notes.txt is not a supported image' })).toBeVisible();

  await pick([{ name: 'red.png', mimeType: 'image/png', buffer: png }]);
  await expect(page.getByRole('button', { name: 'Remove attachment red.png' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Attached images' }).getByRole('img', { name: 'red.png' })).toBeVisible();
  // Pasting an image into the question box attaches it too; Remove takes it off again.
  await c.question.evaluate((box, base64) => {
    const bytes = Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], 'pasted.png', { type: 'image/png' }));
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, png.toString('base64'));
  const removePasted = page.getByRole('button', { name: 'Remove attachment pasted.png' });
  await expect(removePasted).toBeVisible();
  await removePasted.click();
  await expect(removePasted).toBeHidden();
  await expect(page.getByRole('list', { name: 'Attached images' }).getByRole('img')).toHaveCount(1);

  const answer = 'The image is a small solid red square.';
  await mock.script([{ type: 'text', content: answer }]);
  const question = 'What colour is this picture?';
  await ask(page, question);
  await expect(c.log.getByRole('article', { name: 'Answer' })).toContainText(answer, { timeout: 60_000 });
  await expectIdle(page);
  // Sent: the composer no longer holds the image; the question shows it.
  await expect(page.getByRole('button', { name: 'Remove attachment red.png' })).toBeHidden();
  await expect(c.log.getByRole('img', { name: 'Attached image 1' })).toBeVisible();

  const chats = await mock.chatRequests();
  const user = (chats[0]?.body as ChatBody).messages.find((m) => m.role === 'user');
  expect(user?.content).toEqual([
    { type: 'text', text: question },
    { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
  ]);

  // The image is part of the checkpointed message: the reopened thread shows it again.
  await app.reload();
  const after = chat(page);
  const item = after.threads.getByRole('button', { name: question });
  await expect(item).toBeVisible({ timeout: 60_000 });
  await item.click();
  await expect(after.log).toContainText(answer);
  const shown = after.log.getByRole('img', { name: 'Attached image 1' });
  await expect(shown).toBeVisible();
  expect(await shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
});

test('a model that refuses images ends the run with "does not accept images" and keeps the question', async ({ app, page }) => {
  expect(app.pageErrors).toEqual([]);
  await configure(page);
  await mock.script([{ type: 'error', status: 400, message: 'Invalid content: image_url is not supported by this model' }]);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach image', exact: true }).click();
  await (await chooser).setFiles([{ name: 'red.png', mimeType: 'image/png', buffer: redPng() }]);
  const c = chat(page);
  await ask(page, 'Describe this image');
  await expect(c.log.getByRole('alert')).toContainText('This model does not accept images', { timeout: 60_000 });
  await expect(c.log).toContainText('Describe this image');
  await expectIdle(page);
});
