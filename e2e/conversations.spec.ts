/**
 * Conversation controls end to end: Regenerate, Edit question (a fork that continues in
 * place), Rename, Search, Delete and ratings, in the real app against the scripted endpoint
 * (testing/mock-llm). What the endpoint received after a fork proves the dropped turn is no longer
 * part of what the model sees.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { askAndWait, chat, configureEndpoint, useMockLlm } from './support/mockLlm';

const mock = useMockLlm();
const configure = (page: Page) => configureEndpoint(page, mock, { key: 'sk-e2e-conversations' });

/** The conversation (no system prompt) of the last chat request the endpoint received. */
async function lastSentConversation(): Promise<string> {
  const body = (await mock.chatRequests()).at(-1)?.body as { messages: { role: string; content: unknown }[] } | undefined;
  if (!body) throw new Error('the endpoint received no chat request');
  return JSON.stringify(body.messages.filter((m) => m.role !== 'system'));
}

/** A conversation's entry in `Conversations`, found through its title button. */
function threadItem(page: Page, title: string) {
  const c = chat(page);
  return c.threads.getByRole('listitem').filter({ has: page.getByRole('button', { name: title, exact: true }) });
}

test('Regenerate replaces the last answer, and the model is not sent the old one', async ({ app, page }) => {
  await configure(page);
  const c = chat(page);
  await askAndWait(page, 'Regen one?', 'FIRST-ANSWER', mock);
  // Only the last answer offers Regenerate.
  await expect(c.log.getByRole('button', { name: 'Regenerate', exact: true })).toHaveCount(1);
  await askAndWait(page, 'Regen two?', 'OLD-SECOND-ANSWER', mock);
  await expect(c.log.getByRole('button', { name: 'Regenerate', exact: true })).toHaveCount(1);

  await mock.script([{ type: 'text', content: 'NEW-SECOND-ANSWER' }]);
  await c.log.getByRole('button', { name: 'Regenerate', exact: true }).click();
  await expect(c.answers.filter({ hasText: 'NEW-SECOND-ANSWER' })).toBeVisible({ timeout: 60_000 });
  await expect(c.stop).toBeHidden({ timeout: 60_000 });
  await expect(c.log).not.toContainText('OLD-SECOND-ANSWER');
  await expect(c.answers).toHaveCount(2);

  const sent = await lastSentConversation();
  expect(sent).toContain('FIRST-ANSWER');
  expect(sent).toContain('Regen two?');
  expect(sent).not.toContain('OLD-SECOND-ANSWER');
  expect(app.pageErrors).toEqual([]);
});

test('Edit question forks the thread in place: later turns are gone, also after a reload', async ({ app, page }) => {
  await configure(page);
  const c = chat(page);
  await askAndWait(page, 'Edit one?', 'REPLY-ALPHA', mock);
  await askAndWait(page, 'Edit two?', 'REPLY-BETA', mock);

  // Cancel (Escape) leaves the question as it was.
  await c.log.getByRole('button', { name: 'Edit question', exact: true }).first().click();
  const box = c.log.getByRole('textbox', { name: 'Edit question' });
  await expect(box).toBeFocused();
  await expect(box).toHaveValue('Edit one?');
  await box.press('Escape');
  await expect(box).toBeHidden();
  await expect(c.log).toContainText('REPLY-BETA');

  await c.log.getByRole('button', { name: 'Edit question', exact: true }).first().click();
  await box.fill('Edit one, changed?');
  await mock.script([{ type: 'text', content: 'REPLY-EDITED' }]);
  await c.log.getByRole('button', { name: 'Save and resend', exact: true }).click();
  await expect(c.answers.filter({ hasText: 'REPLY-EDITED' })).toBeVisible({ timeout: 60_000 });
  await expect(c.stop).toBeHidden({ timeout: 60_000 });
  for (const gone of ['Edit two?', 'REPLY-BETA', 'REPLY-ALPHA']) await expect(c.log).not.toContainText(gone);
  await expect(c.answers).toHaveCount(1);

  const sent = await lastSentConversation();
  expect(sent).toContain('Edit one, changed?');
  for (const gone of ['Edit one?', 'REPLY-ALPHA', 'Edit two?', 'REPLY-BETA']) expect(sent).not.toContain(gone);

  await app.reload();
  const item = c.threads.getByRole('button', { name: 'Edit one, changed?', exact: true });
  await expect(item).toBeVisible({ timeout: 60_000 });
  await item.click();
  await expect(c.answers.filter({ hasText: 'REPLY-EDITED' })).toBeVisible();
  await expect(c.log).not.toContainText('Edit two?');
  await expect(c.log).not.toContainText('REPLY-BETA');

  // The conversation continues from the edited turn.
  await askAndWait(page, 'Edit three?', 'REPLY-GAMMA', mock);
  const next = await lastSentConversation();
  expect(next).toContain('REPLY-EDITED');
  expect(next).not.toContain('REPLY-BETA');
});

test('Rename persists after a reload; Escape cancels; search filters by title, question and answer', async ({ app, page }) => {
  await configure(page);
  const c = chat(page);
  await askAndWait(page, 'Alpha: which island has most penguins?', 'Biscoe has the most penguins.', mock);
  await page.getByRole('button', { name: 'New conversation' }).click();
  await askAndWait(page, 'Beta: average wind?', 'Plain answer about wind.', mock);

  const alpha = threadItem(page, 'Alpha: which island has most penguins?');
  await alpha.getByRole('button', { name: 'Rename', exact: true }).click();
  const name = c.threads.getByRole('textbox', { name: 'Conversation name' });
  await expect(name).toBeFocused();
  await name.fill('My penguin study');
  await name.press('Enter');
  await expect(c.threads.getByRole('button', { name: 'My penguin study', exact: true })).toBeVisible();
  await expect(c.threads.getByRole('button', { name: 'My penguin study', exact: true })).toBeFocused();

  const beta = threadItem(page, 'Beta: average wind?');
  await beta.getByRole('button', { name: 'Rename', exact: true }).click();
  await name.fill('Not kept');
  await name.press('Escape');
  await expect(c.threads.getByRole('button', { name: 'Beta: average wind?', exact: true })).toBeVisible();
  await expect(c.threads).not.toContainText('Not kept');

  const titles = () => c.threads.getByRole('button').filter({ hasNotText: /^[✎×]$/ });
  await c.search.fill('biscoe');
  await expect(titles()).toHaveText(['My penguin study']);
  await c.search.fill('WIND average');
  await expect(titles()).toHaveText(['Beta: average wind?']);
  await c.search.fill('penguin study');
  await expect(titles()).toHaveText(['My penguin study']);
  await c.search.fill('no such words');
  await expect(page.getByRole('status').filter({ hasText: 'No conversation mentions' })).toBeVisible();
  await c.search.press('Escape');
  await expect(titles()).toHaveCount(2);

  await app.reload();
  await expect(c.threads.getByRole('button', { name: 'My penguin study', exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(c.threads.getByRole('button', { name: 'Beta: average wind?', exact: true })).toBeVisible();
});

test('a rating is stored with the answer and shown again after a reload', async ({ app, page }) => {
  await configure(page);
  const c = chat(page);
  await askAndWait(page, 'Rate me?', 'An answer to rate.', mock);
  const helpful = c.answers.getByRole('button', { name: 'Helpful', exact: true });
  const notHelpful = c.answers.getByRole('button', { name: 'Not helpful', exact: true });
  await notHelpful.click();
  await expect(notHelpful).toHaveAttribute('aria-pressed', 'true');

  await app.reload();
  await c.threads.getByRole('button', { name: 'Rate me?', exact: true }).click({ timeout: 60_000 });
  await expect(notHelpful).toHaveAttribute('aria-pressed', 'true');
  await expect(helpful).toHaveAttribute('aria-pressed', 'false');
  await helpful.click();
  await expect(helpful).toHaveAttribute('aria-pressed', 'true');

  // Reopened from the list (no reload): the new rating, not the old one.
  await page.getByRole('button', { name: 'New conversation' }).click();
  await c.threads.getByRole('button', { name: 'Rate me?', exact: true }).click();
  await expect(helpful).toHaveAttribute('aria-pressed', 'true');
  await expect(notHelpful).toHaveAttribute('aria-pressed', 'false');
});

test('Delete asks first: Cancel keeps the conversation, Delete removes it', async ({ app, page }) => {
  await configure(page);
  const c = chat(page);
  await askAndWait(page, 'Delete me?', 'Soon gone.', mock);
  const item = threadItem(page, 'Delete me?');
  await item.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this conversation?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(item).toBeVisible();

  await item.getByRole('button', { name: 'Delete', exact: true }).click();
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(c.threads.getByRole('button', { name: 'Delete me?', exact: true })).toHaveCount(0);
  await expect(c.log).not.toContainText('Soon gone.');
  expect(app.pageErrors).toEqual([]);
});
