/**
 * The workspace's knowledge end to end (issue 24): a dataset added with a model configured gets
 * its data dictionary drafted (one `data_dictionary` call), the user edits and accepts it, it
 * survives a reload, and the next question's request carries it — in the privacy log as sent —
 * together with a workspace rule; "Remember this" under an answer adds another rule.
 */
import type { ScriptedReply } from '../testing/mock-llm/server.mjs';
import { expect, test } from './support/fixtures';
import { ask, chat, configureEndpoint, openSteps, useMockLlm } from './support/mockLlm';

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
    // A second clarifying question for the same question is refused (issue 32): the model goes on.
    { type: 'tool_calls', calls: [{ id: 'c2', name: 'ask_clarification', arguments: { question: 'Which currency?', choices: ['EUR', 'USD'] } }] },
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
  // One clarification per question: the second was not asked, the answer says it assumed, and the
  // first question's choices are spent. The question showed as a question, without a confidence.
  await expect(page.getByRole('group', { name: /^Choices for: Which currency/ })).toHaveCount(0);
  await expect(c.answers.last()).toContainText('No further clarifying question was asked');
  await expect(choices.getByRole('button', { name: 'Include refunds' })).toBeDisabled();
  await expect(choices.getByRole('button', { name: 'Exclude refunds' })).toHaveAttribute('aria-pressed', 'true');
  await expect(c.answers.first()).toContainText('A question before answering');
  await expect(c.answers.first()).not.toContainText('Confidence');
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

test('a dictionary follows its data: a rename keeps it, another file under the same name is only offered it', async ({ app, page }) => {
  test.setTimeout(180_000);
  await configureEndpoint(page, mock, { key: 'sk-e2e-knowledge-789' });
  await mock.script([draft]);
  await app.fileInput.setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(ORDERS) });
  await app.expectDataset('orders');
  const dictionary = page.getByRole('region', { name: 'Data dictionary' });
  await expect(dictionary.getByText('Draft written by the model — review it and accept')).toBeVisible({ timeout: 60_000 });
  await dictionary.getByRole('textbox', { name: 'Description of amount_cents' }).fill('Order amount before tax');
  await dictionary.getByRole('button', { name: 'Accept dictionary' }).click();
  await expect(dictionary.getByText('Accepted', { exact: true })).toBeVisible();

  // Renamed: still its dictionary, accepted, and no new draft is asked for.
  await app.rename('orders', 'orders_w3');
  await app.expectDataset('orders_w3');
  await app.selectDataset('orders_w3');
  await expect(dictionary.getByText('Accepted', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(dictionary.getByRole('textbox', { name: 'Description of amount_cents' })).toHaveValue('Order amount before tax');
  await page.getByText('What the model sees').click();
  const seen = page.getByLabel('Datasets and rules as the model sees them');
  await expect(seen).toHaveValue(/amount_cents BIGINT — Order amount before tax/);
  await expect(seen).toHaveValue(/### orders_w3 \(3 rows/);
  expect(await mock.chatRequests()).toHaveLength(1);

  // Removed, and a different orders.csv added: the old codes are offered, not applied.
  await app.remove('orders_w3');
  const other = ['order_id,cust_no,amount_cents,status', '7,201,990,X', '8,202,120,Y'].join('\n');
  await app.fileInput.setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(other) });
  await app.expectDataset('orders');
  await app.selectDataset('orders');
  const offer = dictionary.getByRole('group', { name: 'Dictionary offered' });
  // The dictionary moved with the renamed table (orders_w3), so it is offered for its columns.
  await expect(offer).toContainText('An accepted dictionary written for orders_w3 has the same columns');
  await expect(dictionary.getByText('Accepted', { exact: true })).toHaveCount(0);
  if (await seen.isVisible()) await page.getByRole('group').filter({ hasText: 'What the model sees' }).getByRole('button', { name: 'Refresh' }).click();
  else await page.getByText('What the model sees').click();
  await expect(seen).toHaveValue(/### orders \(2 rows/);
  expect(await seen.inputValue()).not.toContain('Order amount before tax');
  // Taken on purpose, it becomes this file's draft to review.
  await offer.getByRole('button', { name: 'Use that dictionary as a draft' }).click();
  await expect(dictionary.getByRole('textbox', { name: 'Description of amount_cents' })).toHaveValue('Order amount before tax');
  await expect(dictionary.getByText(/^Draft/)).toBeVisible();
  expect(app.pageErrors).toEqual([]);
});

test('a tight budget keeps the accepted dictionary and names what it left out, in the model view and the steps', async ({ app, page }) => {
  test.setTimeout(180_000);
  await configureEndpoint(page, mock, { key: 'sk-e2e-knowledge-tight', contextTokens: 4000 });
  await mock.script([draft]);
  await app.fileInput.setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(ORDERS) });
  await app.expectDataset('orders');
  const dictionary = page.getByRole('region', { name: 'Data dictionary' });
  await expect(dictionary.getByText('Draft written by the model — review it and accept')).toBeVisible({ timeout: 60_000 });
  await dictionary.getByRole('button', { name: 'Accept dictionary' }).click();
  await expect(dictionary.getByText('Accepted', { exact: true })).toBeVisible();

  // A 300-column table beside it (its draft fails: no reply scripted for it).
  await mock.reset();
  await mock.script([{ type: 'error', status: 400, message: 'no draft', when: 'data_dictionary' }]);
  const header = Array.from({ length: 300 }, (_, i) => `sensor_reading_${i}`).join(',');
  const row = (r: number) => Array.from({ length: 300 }, (_, i) => (r * 7 + i) % 97).join(',');
  await app.fileInput.setInputFiles({ name: 'sensors.csv', mimeType: 'text/csv', buffer: Buffer.from(`${header}\n${row(1)}\n${row(2)}\n`) });
  await app.expectDataset('sensors');
  await app.selectDataset('orders');
  await page.getByText('What the model sees').click();
  const seen = page.getByLabel('Datasets and rules as the model sees them');
  await expect(seen).toHaveValue(/status VARCHAR — Order status; codes: C = completed; R = refund/);
  await expect(seen).toHaveValue(/Also available in less detail[^\n]*sensors/);
  await expect(page.getByRole('list', { name: 'Left out to fit the context' })).toContainText('sensors');

  await mock.reset();
  await mock.script([{ type: 'text', content: 'There are three orders.' }]);
  await ask(page, 'How many orders are there?');
  const c = chat(page);
  await expect(c.answers.last()).toContainText('There are three orders.', { timeout: 60_000 });
  const steps = await openSteps(page);
  await expect(steps).toContainText('Knowledge fitted to the context');
  await expect(steps).toContainText('sensors');
  // The question's first request (a dictionary draft of the wide table may be recorded too).
  const first = (await mock.chatRequests()).find((r) => !r.raw_body.includes('"name":"data_dictionary"'));
  expect(first?.raw_body).toContain('C = completed; R = refund');
  expect(app.pageErrors).toEqual([]);
});

test('a query marked as trusted and a metric reach the model for a similar question, and the answer cites them', async ({ app, page }) => {
  test.setTimeout(180_000);
  await configureEndpoint(page, mock, { key: 'sk-e2e-knowledge-trusted' });
  await mock.script([{ type: 'error', status: 400, message: 'no draft', when: 'data_dictionary' }]);
  await app.fileInput.setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(ORDERS) });
  await app.expectDataset('orders');
  // The draft's calls end before the question's are scripted (else they would take its replies).
  await expect(page.getByRole('region', { name: 'Data dictionary' }).getByRole('alert')).toContainText('The draft could not be written', { timeout: 60_000 });

  const sql = "SELECT status, sum(amount_cents) AS total FROM orders WHERE status <> 'R' GROUP BY status";
  await app.runSql(sql);
  await page.getByRole('button', { name: 'Mark as trusted' }).click();
  await page.getByRole('textbox', { name: 'Question this query answers' }).fill('What is the total amount by status without refunds?');
  await page.getByRole('button', { name: 'Save trusted query' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Trusted for' })).toBeVisible();

  await app.openView('Data');
  await app.selectDataset('orders');
  await page.getByRole('textbox', { name: 'Metric name' }).fill('net_amount');
  await page.getByRole('textbox', { name: 'Metric definition' }).fill("sum(amount_cents) filter (where status <> 'R')");
  await page.getByRole('button', { name: 'Add metric' }).click();
  await expect(page.getByRole('list', { name: 'Metrics of orders' })).toContainText('net_amount');
  await expect(page.getByRole('list', { name: 'Trusted queries of orders' })).toContainText('What is the total amount by status without refunds?');

  await mock.reset();
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 't1', name: 'run_sql', arguments: { sql } }] },
    { type: 'text', content: 'Using the trusted query: completed orders total 3750 cents (net_amount).' },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);
  await ask(page, 'Total amount by status, without refunds?');
  const c = chat(page);
  await expect(c.answers.last()).toContainText('completed orders total 3750 cents', { timeout: 60_000 });
  const used = c.answers.last().getByRole('list', { name: 'Knowledge used' });
  await expect(used).toContainText('Reused the trusted query for “What is the total amount by status without refunds?”');
  await expect(used).toContainText('Metric net_amount (orders)');
  const [first] = await mock.chatRequests();
  expect(first?.raw_body).toContain('Trusted queries for similar questions');
  expect(first?.raw_body).toContain('- net_amount (table orders) = sum(amount_cents) filter (where status <>');
  expect(app.pageErrors).toEqual([]);
});

test('a notebook cell’s query and an answer’s run_sql step are marked as trusted, with the tables DuckDB binds, and reach the model', async ({ app, page }) => {
  test.setTimeout(180_000);
  await configureEndpoint(page, mock, { key: 'sk-e2e-knowledge-trusted-routes' });
  await mock.script([{ type: 'error', status: 400, message: 'no draft', when: 'data_dictionary' }]);
  await app.fileInput.setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(ORDERS) });
  await app.expectDataset('orders');
  await expect(page.getByRole('region', { name: 'Data dictionary' }).getByRole('alert')).toContainText('The draft could not be written', { timeout: 60_000 });

  // From a notebook's SQL cell. Its CTE is named `customers`: DuckDB's binder says it reads orders.
  await app.openView('Notebook');
  const notebook = page.getByRole('region', { name: 'Notebook', exact: true });
  await notebook.getByRole('button', { name: 'Add SQL cell', exact: true }).click();
  await notebook.getByRole('textbox', { name: 'SQL cell 1', exact: true }).fill('WITH customers AS (SELECT * FROM orders) SELECT cust_no, count(*) AS n FROM customers GROUP BY cust_no');
  await notebook.getByRole('button', { name: 'Run SQL cell 1', exact: true }).click();
  await expect(notebook.getByRole('grid', { name: 'Result of SQL cell 1' })).toBeVisible({ timeout: 60_000 });
  const cell = notebook.getByRole('listitem', { name: 'SQL cell 1', exact: true });
  await cell.getByRole('button', { name: 'Mark as trusted', exact: true }).click();
  await cell.getByRole('textbox', { name: 'Question this query answers' }).fill('How many orders did each customer place?');
  await cell.getByRole('button', { name: 'Save trusted query' }).click();
  await expect(cell.getByRole('status').filter({ hasText: 'Trusted for' })).toBeVisible();

  // From an answer's run_sql step: the box starts with the question the answer answered.
  await mock.reset();
  const stepSql = 'SELECT status, count(*) AS n FROM orders GROUP BY status';
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 's1', name: 'run_sql', arguments: { sql: stepSql } }] },
    { type: 'text', content: 'Two orders are completed and one is a refund.' },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);
  await ask(page, 'How many orders per status?');
  const c = chat(page);
  await expect(c.answers.last()).toContainText('Two orders are completed', { timeout: 60_000 });
  const steps = await openSteps(page);
  const sqlStep = steps.getByRole('listitem').filter({ hasText: 'run_sql' });
  await sqlStep.getByText('run_sql').click();
  await sqlStep.getByRole('button', { name: 'Mark as trusted', exact: true }).click();
  await expect(sqlStep.getByRole('textbox', { name: 'Question this query answers' })).toHaveValue('How many orders per status?');
  await sqlStep.getByRole('button', { name: 'Save trusted query' }).click();
  await expect(sqlStep.getByRole('status').filter({ hasText: 'Trusted for “How many orders per status?”' })).toBeVisible();

  // Both are the table's: the CTE's name did not make the cell's query a `customers` one.
  await app.openView('Data');
  await app.selectDataset('orders');
  const list = page.getByRole('list', { name: 'Trusted queries of orders' });
  await expect(list).toContainText('How many orders did each customer place?');
  await expect(list).toContainText('How many orders per status?');

  // A similar question, in a new conversation, gets both in its prompt.
  await page.getByRole('button', { name: 'New conversation' }).click();
  await mock.reset();
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 's2', name: 'run_sql', arguments: { sql: stepSql } }] },
    { type: 'text', content: 'Orders per status: see the trusted query.' },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);
  await ask(page, 'Orders per status, how many?');
  await expect(c.answers.last()).toContainText('Orders per status: see the trusted query.', { timeout: 60_000 });
  await expect(c.answers.last().getByRole('list', { name: 'Knowledge used' })).toContainText('Reused the trusted query for “How many orders per status?”');
  const [first] = await mock.chatRequests();
  expect(first?.raw_body).toContain('Trusted queries for similar questions');
  expect(first?.raw_body).toContain(stepSql);
  expect(first?.raw_body).toContain('How many orders did each customer place?');
  expect(app.pageErrors).toEqual([]);
});

// dbt's MetricFlow shapes (semantic_models with measures; metrics with type_params): the docs are
// cited beside shared/knowledge/dbtMetrics.test.ts.
test('one dbt import brings descriptions and metrics, shows both before applying, skips what it cannot translate with the reason, and undoes', async ({ app, page }) => {
  test.setTimeout(120_000);
  await app.fileInput.setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(ORDERS) });
  await app.expectDataset('orders');
  await app.openView('Data');
  await app.selectDataset('orders');
  const region = page.getByRole('region', { name: 'Data dictionary' });
  const schema = [
    'models:',
    '  - name: orders',
    '    columns:',
    '      - { name: status, description: Order status }',
    'semantic_models:',
    '  - name: orders',
    "    model: ref('orders')",
    '    entities: [{ name: order, type: primary, expr: order_id }]',
    '    dimensions: [{ name: order_status, type: categorical, expr: status }]',
    '    measures:',
    '      - { name: amount, agg: sum, expr: amount_cents }',
    '      - { name: missing_column, agg: sum, expr: no_such_column }',
  ].join('\n');
  const metrics = [
    'metrics:',
    '  - name: net_amount',
    '    description: Amount without refunds',
    '    type: simple',
    '    type_params: { measure: amount }',
    `    filter: "{{ Dimension('order__order_status') }} <> 'R'"`,
    '  - name: running_amount',
    '    type: cumulative',
    '    type_params: { measure: amount }',
    '  - name: broken',
    '    type: simple',
    '    type_params: { measure: missing_column }',
  ].join('\n');
  await region.getByLabel('Import dictionary file').setInputFiles([
    { name: 'orders.yml', mimeType: 'application/yaml', buffer: Buffer.from(schema) },
    { name: 'metrics.yml', mimeType: 'application/yaml', buffer: Buffer.from(metrics) },
  ]);
  const preview = region.getByRole('region', { name: 'Import preview' });
  await expect(preview).toContainText('Added (1): status');
  const listed = preview.getByRole('list', { name: 'Metrics in the import' });
  await expect(listed).toContainText("Metrics added (1): net_amount (orders) = sum(amount_cents) FILTER (WHERE (status) <> 'R')");
  await expect(listed).toContainText('Metrics skipped (2)');
  await expect(listed).toContainText('running_amount — a cumulative metric');
  // DuckDB's binder, not a guess, says the column is not there.
  await expect(listed).toContainText('broken — DuckDB does not accept sum(no_such_column) over orders');
  // Nothing is applied before Apply.
  await expect(page.getByRole('list', { name: 'Metrics of orders' })).toHaveCount(0);

  await preview.getByRole('button', { name: 'Apply import' }).click();
  await expect(page.getByRole('list', { name: 'Metrics of orders' })).toContainText('net_amount');
  await expect(region.getByRole('status')).toContainText('1 metric saved.');
  await region.getByRole('button', { name: 'Undo import' }).click();
  await expect(page.getByRole('list', { name: 'Metrics of orders' })).toHaveCount(0);
  expect(app.pageErrors).toEqual([]);
});

// The envelope (issue 37): a project 100× the one above — 30 YAML files, 2,000 metrics, doc blocks —
// is read, parsed and translated in the parse worker; DuckDB checks the metrics; the preview names
// every one (the rows in view drawn), the two DuckDB rejects first, with its reason.
test('a big dbt project (30 YAML files, 2,000 metrics) is imported off the page and every metric is listed', async ({ app, page }) => {
  test.setTimeout(180_000);
  await app.fileInput.setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from(ORDERS) });
  await app.expectDataset('orders');
  await app.openView('Data');
  await app.selectDataset('orders');
  const region = page.getByRole('region', { name: 'Data dictionary' });
  const measures = ['sum', 'average', 'max', 'min', 'count_distinct'].map((agg, i) => `      - { name: m${i}, agg: ${agg}, expr: amount_cents }`);
  const files = [
    {
      name: 'orders.yml',
      text: [
        'models:',
        '  - name: orders',
        `    description: "{{ doc('orders_row') }}"`,
        '    columns:',
        `      - { name: status, description: "{{ doc('status_doc') }}" }`,
        'semantic_models:',
        '  - name: orders',
        "    model: ref('orders')",
        '    entities: [{ name: order, type: primary, expr: order_id }]',
        '    dimensions: [{ name: order_status, type: categorical, expr: status }]',
        '    measures:',
        ...measures,
        '      - { name: typo, agg: sum, expr: amount_cent }',
      ].join('\n'),
    },
  ];
  for (let f = 0; f < 29; f++) {
    const lines = [`models:`, `  - name: stg_${f}`, '    columns:', ...Array.from({ length: 69 }, (_, c) => `      - { name: field_${f}_${c}, description: Field ${c} }`), 'metrics:'];
    for (let j = Math.floor((2_000 * f) / 29); j < Math.floor((2_000 * (f + 1)) / 29); j++) {
      lines.push(`  - name: metric_${j}`, '    type: simple', `    type_params: { measure: ${j === 777 || j === 1_555 ? 'typo' : `m${j % 5}`} }`, `    filter: "{{ Dimension('order__order_status') }} <> 'R' AND order_id > ${j}"`);
    }
    files.push({ name: `stg_${f}.yml`, text: lines.join('\n') });
  }
  files.push({ name: 'docs.md', text: '{% docs orders_row %}One order{% enddocs %}\n{% docs status_doc %}C completed, R refunded{% enddocs %}' });
  await region.getByLabel('Import dictionary file').setInputFiles(files.map((f) => ({ name: f.name, mimeType: f.name.endsWith('.md') ? 'text/markdown' : 'application/yaml', buffer: Buffer.from(f.text) })));
  const preview = region.getByRole('region', { name: 'Import preview' });
  await expect(preview).toContainText('Added (1): status', { timeout: 120_000 });
  const listed = preview.getByRole('list', { name: 'Metrics in the import' });
  await expect(preview).toContainText('2,000 metrics: 1,998 added, 0 replaced, 0 unchanged, 2 skipped (listed first, each with why).');
  await expect(listed).toContainText('Metrics added (1998)');
  await expect(listed).toContainText('Metrics skipped (2)');
  // The skipped come first, each with DuckDB's reason.
  for (const j of [777, 1_555]) await expect(listed).toContainText(`metric_${j} — DuckDB does not accept sum(amount_cent) FILTER (WHERE (status) <> 'R' AND order_id > ${j}) over orders: Binder Error`);
  // Only the rows in view are drawn (issue 37), each saying its place among all 2,004 (four group heads);
  // the keyboard scrolls the list to its last metric.
  const rows = listed.locator(':scope > li[data-index]');
  expect(await rows.count()).toBeLessThan(60);
  await expect(rows.first()).toHaveAttribute('aria-setsize', '2004');
  await listed.focus();
  await page.keyboard.press('End');
  await expect(listed).toContainText("metric_1999 (orders) = count(DISTINCT amount_cents) FILTER (WHERE (status) <> 'R' AND order_id > 1999)");
  expect(await rows.count()).toBeLessThan(60);

  await preview.getByRole('button', { name: 'Apply import' }).click();
  await expect(region.getByRole('status')).toContainText('1998 metrics saved.', { timeout: 60_000 });
  await expect(page.getByRole('list', { name: 'Metrics of orders' })).toContainText('metric_1999');
  expect(app.pageErrors).toEqual([]);
});
