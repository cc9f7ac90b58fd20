/**
 * Time-zone-aware timestamps in the offline build (no ICU): a CSV whose times end in Z or an
 * offset is read by DuckDB as TIMESTAMP WITH TIME ZONE, stored as UTC TIMESTAMP, and then
 * hour() / date_trunc / ::DATE work in the SQL console and in the agent's SQL, giving what native
 * DuckDB gives for the same instants in UTC. The preview shows those columns with +00:00.
 */
import type { Page } from '@playwright/test';
import { TIMEZONE_CSV } from '../scripts/loadReportCases.mjs';
import { expect, test } from './support/fixtures';
import { expectSameRows } from './support/compare';
import { ask, chat, configureEndpoint, expectIdle, openSteps, useMockLlm } from './support/mockLlm';
import { nativeQuery } from './support/native';
import { bad } from './support/paths';

const TABLE = 'tz_events';
const path = bad(TIMEZONE_CSV.file);
// Native DuckDB (with ICU) over the same file, its zoned column as UTC wall time.
const native = { [TABLE]: `(SELECT * REPLACE (timezone('UTC', event_time) AS event_time) FROM read_csv('${path}'))` };

const mock = useMockLlm();

async function loadTz(app: import('./support/fixtures').DataApp): Promise<void> {
  await app.addFiles(path);
  expect(await app.waitForLoad(TIMEZONE_CSV.file, TABLE)).toEqual({ kind: 'loaded', name: TABLE });
}

test('hour(), date_trunc, ::DATE and + INTERVAL work on a TIMESTAMPTZ file in the SQL console', async ({ app }) => {
  await loadTz(app);
  const queries = [
    `SELECT id, hour(event_time) AS h FROM ${TABLE} ORDER BY id`,
    `SELECT strftime(date_trunc('day', event_time), '%Y-%m-%d %H:%M') AS day, count(*) AS n FROM ${TABLE} GROUP BY 1 ORDER BY 1`,
    `SELECT id, event_time::DATE::VARCHAR AS d, strftime(event_time + INTERVAL 90 MINUTE, '%Y-%m-%d %H:%M') AS later FROM ${TABLE} ORDER BY id`,
  ];
  for (const sql of queries) {
    const got = await app.runSql(sql);
    expectSameRows(got.rows, (await nativeQuery(sql, native)).rows);
  }
  expect(await app.scalar(`SELECT typeof(event_time) FROM ${TABLE} LIMIT 1`)).toBe('TIMESTAMP');

  // The Data view says how the column was stored, and its preview shows the UTC offset.
  await app.selectDataset(TABLE);
  const report = app.page.getByRole('region', { name: 'Load report' });
  await expect(report).toContainText('event_time had time-zone offsets in the file and is stored as TIMESTAMP in UTC');
  const panel = await app.openTab('Preview');
  await expect(panel.getByRole('grid')).toContainText('2024-03-10 21:30:00+00:00');
  // Its header's range reads like its cells (it came from DuckDB's text, which has no offset).
  await expect(panel.getByRole('columnheader', { name: /event_time/ })).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+00:00 – /);
});

async function configure(page: Page): Promise<void> {
  await configureEndpoint(page, mock, { key: 'sk-e2e-tz', testConnection: true });
}

test('a scripted agent answers a date question on a TIMESTAMPTZ file, and the model is told the column is UTC', async ({ app, page }) => {
  await loadTz(app);
  await configure(page);
  // The user's time zone is a setting of its own (applies at once): the model is told it.
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByRole('dialog').getByRole('combobox', { name: 'Time zone' }).selectOption('Europe/Paris');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel', exact: true }).click();
  const sql = `SELECT date_trunc('day', event_time)::DATE AS day, count(*) AS events, min(hour(event_time)) AS first_hour FROM ${TABLE} GROUP BY 1 ORDER BY 1`;
  const want = await nativeQuery(sql, native);
  expect(want.rows.map((r) => r[1])).toEqual(['2', '2']);
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 'c1', name: 'run_sql', arguments: { sql } }] },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
    { type: 'text', content: 'There were 2 events on each of 10 and 11 March 2024 (UTC).', chunk_size: 12 },
  ]);
  const c = chat(page);
  await ask(page, 'How many events per day, in UTC?');
  await expect(c.answers.last()).toContainText('2 events on each of 10 and 11 March', { timeout: 60_000 });
  await expectIdle(page);
  // The steps sit collapsed under the answer (How I got this).
  const steps = await openSteps(page);
  const step = steps.getByRole('listitem').filter({ hasText: 'run_sql' });
  await step.getByText('run_sql').click();
  const table = step.getByRole('grid', { name: 'run_sql output' });
  await expect(table).toContainText('2024-03-10');
  await expect(table).toContainText('2024-03-11');
  await expect(steps.getByText(/Error:/)).toHaveCount(0);

  const [first] = await mock.chatRequests();
  const body = JSON.stringify(first?.body ?? {});
  expect(body).toContain('stored as TIMESTAMP in UTC');
  expect(body).toContain("the user's time zone is Europe/Paris");
});
