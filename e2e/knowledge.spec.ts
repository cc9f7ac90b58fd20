/**
 * The workspace's knowledge end to end (issue 24): a dataset added with a model configured gets
 * its data dictionary drafted (one `data_dictionary` call), the user edits and accepts it, it
 * survives a reload, and the next question's request carries it — in the privacy log as sent —
 * together with a workspace rule; "Remember this" under an answer adds another rule.
 */
import type { ScriptedReply } from '../testing/mock-llm/server.mjs';
import { expect, test } from './support/fixtures';
import { ask, chat, configureEndpoint, useMockLlm } from './support/mockLlm';

const mock = useMockLlm();

const ORDERS = ['order_id,cust_no,amount_cents,status', '1,101,1250,C', '2,102,4000,R', '3,101,2500,C'].join('\n');

const draft: ScriptedReply = {
  type: 'structured',
  when: 'data_dictionary',
  value: {
    row_meaning: 'one order',
    grain: 'order_id',
    caveats: [],
    columns: [
      { name: 'order_id', description: 'Order number', unit: '', role: 'identifier', codes: [], missing: [] },
      { name: 'amount_cents', description: 'Amount', unit: '', role: 'measure', codes: [], missing: [] },
      { name: 'status', description: 'Order status', unit: '', role: 'dimension', codes: [{ code: 'C', meaning: 'completed' }, { code: 'R', meaning: 'refund' }], missing: [] },
    ],
    joins: [],
  },
};

test('a drafted dictionary is edited, accepted, kept over a reload and sent with a rule', async ({ app, page }) => {
  test.setTimeout(180_000);
  await configureEndpoint(page, mock, { key: 'sk-e2e-knowledge-123' });
  await mock.script([draft]);
  await app.fileInput.setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(ORDERS) });
  await app.expectDataset('orders');

  const dictionary = page.getByRole('region', { name: 'Data dictionary' });
  await expect(dictionary.getByText('Draft written by the model — review it and accept')).toBeVisible({ timeout: 60_000 });
  await expect(dictionary.getByRole('textbox', { name: 'Codes of status' })).toHaveValue('C = completed; R = refund');
  const requests = await mock.chatRequests();
  expect(requests).toHaveLength(1);
  expect(requests[0]?.raw_body).toContain('data_dictionary');

  // Edited and accepted.
  await dictionary.getByRole('textbox', { name: 'Description of amount_cents' }).fill('Order amount before tax');
  await dictionary.getByRole('textbox', { name: 'Unit of amount_cents' }).fill('cents');
  await expect(dictionary.getByText('Edited, not saved')).toBeVisible();
  await dictionary.getByRole('button', { name: 'Accept dictionary' }).click();
  await expect(dictionary.getByText('Accepted', { exact: true })).toBeVisible();

  const rules = page.getByRole('region', { name: 'Workspace rules' });
  await rules.getByRole('textbox', { name: 'New rule' }).fill('Revenue excludes refunds');
  await rules.getByRole('button', { name: 'Add rule' }).click();
  await expect(rules.getByRole('list', { name: 'Workspace rules' })).toContainText('Revenue excludes refunds');

  await app.reload();
  await app.expectDataset('orders');
  const after = page.getByRole('region', { name: 'Data dictionary' });
  await expect(after.getByText('Accepted', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(after.getByRole('textbox', { name: 'Description of amount_cents' })).toHaveValue('Order amount before tax');
  await expect(page.getByRole('list', { name: 'Workspace rules' })).toContainText('Revenue excludes refunds');

  // Used in a run: the request carries the accepted dictionary and the rule.
  await mock.reset();
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 's1', name: 'run_sql', arguments: { sql: "SELECT sum(amount_cents) / 100.0 AS revenue FROM orders WHERE status <> 'R'" } }] },
    { type: 'text', content: 'Revenue is 37.50 euros.' },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);
  await ask(page, 'What is the revenue?');
  const c = chat(page);
  await expect(c.answers.last()).toContainText('Revenue is 37.50 euros.', { timeout: 60_000 });
  await expect(c.stop).toBeHidden({ timeout: 60_000 });
  const [first] = await mock.chatRequests();
  expect(first?.raw_body).toContain('amount_cents BIGINT — Order amount before tax; unit: cents');
  expect(first?.raw_body).toContain('- Revenue excludes refunds');

  await page.getByRole('button', { name: 'Privacy log', exact: true }).click();
  const log = page.getByRole('dialog', { name: 'Privacy log' });
  const item = log.getByRole('list', { name: 'Requests' }).getByRole('listitem').first();
  await item.getByRole('button', { name: 'Show body' }).click();
  const body = await item.getByRole('textbox', { name: 'Body of request 1' }).inputValue();
  expect(body).toContain('Order amount before tax; unit: cents');
  expect(body).toContain('Revenue excludes refunds');
  await page.keyboard.press('Escape');
  await expect(log).toBeHidden();

  // "Remember this" on the answer adds a rule every later run gets.
  await page.getByRole('button', { name: 'Remember this' }).click();
  await page.getByRole('textbox', { name: 'Rule to remember' }).fill('Report money in euros');
  await page.getByRole('button', { name: 'Save rule' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved as a rule' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Workspace rules' })).toContainText('Report money in euros');
  expect(app.pageErrors).toEqual([]);
});

test('an ambiguous question gets choices; the choice is asked and kept as a rule; the model view counts tokens', async ({ app, page }) => {
  test.setTimeout(180_000);
  await configureEndpoint(page, mock, { key: 'sk-e2e-knowledge-456', contextTokens: 8000 });
  // No dictionary draft this time: an empty reply makes the draft fail, which the editor says.
  await mock.script([{ type: 'error', status: 400, message: 'no draft', when: 'data_dictionary' }]);
  await app.fileInput.setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(ORDERS) });
  await app.expectDataset('orders');
  await expect(page.getByRole('region', { name: 'Data dictionary' }).getByRole('alert')).toContainText('The draft could not be written', { timeout: 60_000 });

  await mock.reset();
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 'c1', name: 'ask_clarification', arguments: { question: 'Should refunds count?', choices: ['Include refunds', 'Exclude refunds'] } }] },
    { type: 'tool_calls', calls: [{ id: 's1', name: 'run_sql', arguments: { sql: "SELECT sum(amount_cents) AS total FROM orders WHERE status <> 'R'" } }] },
    { type: 'text', content: 'Without refunds the total is 3750 cents.' },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);
  await ask(page, 'What is the total amount?');
  const c = chat(page);
  await expect(c.answers.last()).toContainText('Should refunds count?', { timeout: 60_000 });
  await expect(c.stop).toBeHidden({ timeout: 60_000 });
  const choices = page.getByRole('group', { name: 'Choices for: Should refunds count?' });
  await choices.getByRole('checkbox', { name: 'Remember my choice as a rule' }).check();
  await choices.getByRole('button', { name: 'Exclude refunds' }).click();
  await expect(c.answers.last()).toContainText('Without refunds the total is 3750 cents.', { timeout: 60_000 });
  await expect(page.getByRole('list', { name: 'Workspace rules' })).toContainText('Should refunds count? → Exclude refunds');
  const asked = (await mock.chatRequests()).filter((r) => r.raw_body.includes('Exclude refunds'));
  expect(asked.length).toBeGreaterThan(0);

  await page.getByText('What the model sees').click();
  const seen = page.getByLabel('Datasets and rules as the model sees them');
  await expect(seen).toHaveValue(/### orders \(3 rows, 4 columns\)/);
  expect(await seen.inputValue()).toContain('- Should refunds count? → Exclude refunds');
  await expect(page.getByRole('status').filter({ hasText: 'tokens allowed' })).toContainText("of 3200 tokens allowed (the run's budget is 8000");
  expect(app.pageErrors).toEqual([]);
});
