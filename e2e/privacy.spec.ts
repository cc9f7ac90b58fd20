/**
 * The privacy log and "No raw rows", end to end: the real app and agent worker against the
 * scripted endpoint (testing/mock-llm), which records the raw bytes of every request it receives.
 * The log must match those bytes, in order, and never show the key; with "No raw rows" no row
 * value beyond N rows per tool output may reach the endpoint at all.
 */
import type { Locator, Page } from '@playwright/test';
import type { RecordedRequest, ScriptedReply } from '../testing/mock-llm/server.mjs';
import { expect, test, type DataApp } from './support/fixtures';
import { askAndWait, configureEndpoint, useMockLlm } from './support/mockLlm';

const KEY = 'sk-e2e-privacy-Vb4nT9';
/** Only row 2 holds it: it is among the sample values, and in the full query result at row 49. */
const SECRET = 'Quixotic Zebulon';
const CSV = ['id,name,city,amount', ...Array.from({ length: 50 }, (_, i) => `${i + 1},${i === 1 ? SECRET : `Person ${i + 1}`},${['Oslo', 'Lima', 'Pune'][i % 3]},${(i * 7) % 31}`)].join('\n');
const SQL = 'SELECT id, name, amount FROM people ORDER BY id DESC';

const mock = useMockLlm();

test.beforeEach(async ({ context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
});

/** The requests with a body the endpoint received (CORS preflights and /models left out). */
async function received(): Promise<RecordedRequest[]> {
  return (await mock.recorded()).filter((r) => r.method === 'POST');
}

const runReplies = (): ScriptedReply[] => [
  { type: 'tool_calls', calls: [{ id: 'p1', name: 'profile_data', arguments: { dataset: 'people' } }] },
  { type: 'tool_calls', calls: [{ id: 's1', name: 'run_sql', arguments: { sql: SQL } }] },
  // Answers without validate_results: the guard's forced validation quotes the last result.
  { type: 'text', content: 'There are 50 people; the highest id is 50.' },
  { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
];

async function loadPeople(app: DataApp): Promise<void> {
  await app.fileInput.setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await app.expectDataset('people');
}

async function openSettings(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  return dialog;
}

const configure = (page: Page) => configureEndpoint(page, mock, { key: KEY });

/**
 * Opens the log and checks it against what the endpoint received: one entry per request, in
 * order, each `Copy body` giving exactly the received bytes; the key nowhere in the dialog.
 */
async function expectLogMatches(page: Page, bodies: string[]): Promise<Locator> {
  await page.getByRole('button', { name: 'Privacy log', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Privacy log' });
  await expect(dialog).toBeVisible();
  const items = dialog.getByRole('list', { name: 'Requests' }).getByRole('listitem');
  await expect(items).toHaveCount(bodies.length);
  for (let i = 0; i < bodies.length; i++) {
    const item = items.nth(i);
    await expect(item).toContainText(`${mock.url}/v1/chat/completions`);
    await expect(item).toContainText('HTTP 200');
    await item.getByRole('button', { name: 'Copy body' }).click();
    await expect(item.getByRole('status')).toHaveText('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied, `request ${i + 1}`).toBe(bodies[i]);
    await item.getByRole('button', { name: 'Show body' }).click();
    const shown = item.getByRole('textbox', { name: `Body of request ${i + 1}` });
    await expect(shown).toBeVisible();
    expect(JSON.parse(await shown.inputValue())).toEqual(JSON.parse(bodies[i] ?? ''));
  }
  // Everything the dialog shows, including the expanded bodies.
  const shownText = await dialog.evaluate((el) => `${el.textContent ?? ''}\n${[...el.querySelectorAll('textarea')].map((t) => t.value).join('\n')}`);
  expect(shownText).not.toContain(KEY);
  return dialog;
}

test('the privacy log shows every request byte for byte as the endpoint received it, never the key', async ({ app, page }) => {
  await loadPeople(app);
  await configure(page);
  await mock.script(runReplies());
  await askAndWait(page, 'How many people are there?', 'There are 50 people');

  const got = await received();
  // agent → tools → agent → tools → agent → forced validation
  expect(got.map((r) => r.path)).toEqual(Array(4).fill('/v1/chat/completions'));
  for (const r of got) expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
  const dialog = await expectLogMatches(
    page,
    got.map((r) => r.raw_body),
  );
  // Tokens: the mock reports ceil(len(JSON of messages) / 4) prompt tokens per request.
  const input = got.reduce((sum, r) => sum + Math.ceil(JSON.stringify((r.body as { messages: unknown[] }).messages).length / 4), 0);
  await expect(dialog.getByRole('status').first()).toContainText(`Total tokens: ${input.toLocaleString('en-US')} in`);
  // Without "No raw rows" the sample values do go to the model: the control for the next test.
  expect(got.some((r) => r.raw_body.includes(SECRET))).toBe(true);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('with No raw rows, at most N rows per tool output and no sample values reach the endpoint', async ({ app, page }) => {
  await loadPeople(app);
  await configure(page);
  const settings = await openSettings(page);
  await settings.getByRole('checkbox', { name: 'No raw rows' }).check();
  const rows = settings.getByRole('spinbutton', { name: 'Rows per tool output' });
  await expect(rows).toHaveValue('20');
  await rows.fill('');
  await expect(settings.getByRole('alert')).toContainText('Rows per tool output must be a whole number');
  await settings.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(settings).toBeVisible(); // refused, nothing lost
  await rows.fill('3');
  await settings.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(settings).toBeHidden();

  await mock.script(runReplies());
  await askAndWait(page, 'How many people are there?', 'There are 50 people');

  const got = await received();
  expect(got).toHaveLength(4);
  for (const r of got) expect(r.raw_body).not.toContain(SECRET);
  const last = got[2]?.body as { messages: { role: string; content: string; tool_call_id?: string }[] };
  expect(last.messages[0]?.content).toContain('### people (50 rows, 4 columns)\nid BIGINT\nname VARCHAR\ncity VARCHAR\namount BIGINT');
  const sqlOut = JSON.parse(last.messages.find((m) => m.tool_call_id === 's1')?.content ?? '{}') as { rows: unknown[][]; row_count: number };
  expect(sqlOut.rows.length).toBeLessThanOrEqual(3);
  expect(sqlOut.row_count).toBe(50);
  const profile = JSON.parse(last.messages.find((m) => m.tool_call_id === 'p1')?.content ?? '{}') as { quality: Record<string, { sample: unknown[] }> };
  expect(Object.keys(profile.quality)).toEqual(['id', 'name', 'city', 'amount']);
  for (const q of Object.values(profile.quality)) expect(q.sample).toEqual([]);

  // The user can verify it in the privacy log: the same bytes, and no row value.
  const dialog = await expectLogMatches(
    page,
    got.map((r) => r.raw_body),
  );
  await expect(dialog).not.toContainText(SECRET);

  // The setting is kept.
  await dialog.getByRole('button', { name: 'Close' }).click();
  const again = await openSettings(page);
  await expect(again.getByRole('checkbox', { name: 'No raw rows' })).toBeChecked();
  await expect(again.getByRole('spinbutton', { name: 'Rows per tool output' })).toHaveValue('3');
});
