/**
 * What it costs (issue 26, item 5), against the scripted endpoint: each answer shows the tokens
 * its requests used and an estimated cost, the conversation its total, a price entered in
 * Settings reprices them at once, and both come back after a reload; Evaluate estimates a
 * gauntlet run before it starts.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { ask, chat, configureEndpoint, expectIdle, useMockLlm } from './support/mockLlm';

const mock = useMockLlm();
const ANSWER = 'Nothing to compute here: this is a plain answer.';

/** The mock's usage (testing/mock-llm/server.mjs): a quarter of the messages' JSON and of the reply. */
async function expectedTokens(): Promise<{ input: number; output: number }> {
  const reqs = await mock.chatRequests();
  expect(reqs.length).toBeGreaterThan(0);
  const t = { input: 0, output: 0 };
  for (const r of reqs) {
    const body = r.body as { messages: unknown[]; stream_options?: { include_usage?: boolean } };
    // The app asks for the usage chunk on every streamed request.
    expect(body.stream_options?.include_usage).toBe(true);
    t.input += Math.ceil(JSON.stringify(body.messages).length / 4);
    t.output += Math.ceil(ANSWER.length / 4);
  }
  return t;
}

async function setPrice(page: Page, input: string, output: string) {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const prices = page.getByRole('dialog').getByRole('group', { name: 'Prices' });
  await prices.getByRole('textbox', { name: 'Input price (USD per 1M tokens)' }).fill(input);
  await prices.getByRole('textbox', { name: 'Input price (USD per 1M tokens)' }).press('Tab');
  await prices.getByRole('textbox', { name: 'Output price (USD per 1M tokens)' }).fill(output);
  await prices.getByRole('textbox', { name: 'Output price (USD per 1M tokens)' }).press('Tab');
  await expect(prices.getByRole('button', { name: 'Reset price' })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
}

test('each answer shows its tokens and cost, repriced from Settings and kept after a reload', async ({ app, page }) => {
  await configureEndpoint(page, mock, { key: 'sk-costs-1' });
  await mock.script([{ type: 'text', content: ANSWER }]);
  await ask(page, 'What will this cost?');
  const c = chat(page);
  await expect(c.answers).toContainText(ANSWER, { timeout: 60_000 });
  await expectIdle(page);

  const counted = await expectedTokens();
  const tokens = (counted.input + counted.output).toLocaleString('en-US');
  const total = page.getByRole('note', { name: 'Conversation cost' });
  // The mock listens on 127.0.0.1: a local server costs nothing until it is given a price.
  await expect(c.answers).toContainText(`${tokens} tokens · $0 (local)`);
  await expect(total).toContainText(`This conversation: ${tokens} tokens · $0 (local)`);

  // $10 / $20 per million tokens make the thousand-odd tokens cost about a cent.
  await setPrice(page, '10', '20');
  const priced = `est. $${((counted.input * 10 + counted.output * 20) / 1e6).toFixed(4)}`;
  await expect(c.answers).toContainText(`${tokens} tokens · ${priced} (${counted.input.toLocaleString('en-US')} in, ${counted.output.toLocaleString('en-US')} out over`);
  await expect(total).toContainText(`This conversation: ${tokens} tokens · ${priced}`);

  await app.reload();
  await expect(chat(page).answers).toContainText(ANSWER, { timeout: 60_000 });
  await expect(chat(page).answers).toContainText(`${tokens} tokens · ${priced}`);
  await expect(page.getByRole('note', { name: 'Conversation cost' })).toContainText(priced);
  expect(app.pageErrors).toEqual([]);
});

test('Evaluate estimates a gauntlet run before it starts', async ({ app, page }) => {
  await configureEndpoint(page, mock, { key: 'sk-costs-2' });
  await app.openView('Evaluate');
  const region = page.getByRole('region', { name: 'Evaluate' });
  await region.getByRole('combobox', { name: 'Questions' }).selectOption({ label: 'A random 10' });
  await region.getByRole('combobox', { name: 'Agent or Pipeline' }).selectOption({ label: 'Agent' });
  const estimate = region.getByRole('note', { name: 'Gauntlet estimate' });
  await expect(estimate).toContainText('10 items × ≈12,800 tokens (a typical item, none measured yet) ≈ 128,000 tokens · $0 (local server)');
  await region.getByRole('combobox', { name: 'Agent or Pipeline' }).selectOption({ label: 'Agent and Pipeline' });
  await expect(estimate).toContainText('20 items');
  await setPrice(page, '1', '10');
  // 20 × (12,000 × $1 + 800 × $10) / 1M = $0.40.
  await expect(estimate).toContainText('est. $0.4000 at the price in Settings');
  expect(app.pageErrors).toEqual([]);
});
