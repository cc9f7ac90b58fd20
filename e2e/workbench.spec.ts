/**
 * The workbench layout and the place in the URL (issue 14, items 1 and 2): at 1280 px the rail,
 * the conversation and the data views sit side by side with the question box in reach; at 375 px
 * one column with a bottom tab bar whose links never land under a header; a reload, back/forward
 * and a copied link return to the conversation and view the user was in.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ask, chat, configureEndpoint, useMockLlm } from './support/mockLlm';

const mock = useMockLlm();

async function askAndWait(page: Page, question: string, answer: string): Promise<void> {
  await mock.script([{ type: 'text', content: answer }]);
  await ask(page, question);
  await expect(chat(page).answers.filter({ hasText: answer })).toBeVisible({ timeout: 60_000 });
  await expect(chat(page).stop).toBeHidden({ timeout: 60_000 });
}

const sections = (page: Page) => page.getByRole('navigation', { name: 'Sections' });

test('at 1280 px the conversation and the data views are side by side, and the split resizes', async ({ app, page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await app.loadSample('penguins');
  const question = chat(page).question;
  const sql = app.sqlEditor;
  const [q, s] = [await question.boundingBox(), await page.locator('#data').boundingBox()];
  if (!q || !s) throw new Error('the question box or the data view has no box');
  // The question box is within the first screen, and the data view is to its right.
  expect(q.y + q.height).toBeLessThanOrEqual(800);
  expect(s.x).toBeGreaterThan(q.x + q.width);
  await expect(sql).toBeAttached();

  const splitter = page.getByRole('separator', { name: 'Conversation width' });
  const before = Number(await splitter.getAttribute('aria-valuenow'));
  const wide = (await page.locator('#ask').boundingBox())?.width ?? 0;
  await splitter.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(splitter).toHaveAttribute('aria-valuenow', String(before + 10));
  expect((await page.locator('#ask').boundingBox())?.width ?? 0).toBeGreaterThan(wide);
  // The width is the user's: it survives a reload.
  await app.reload();
  await expect(page.getByRole('separator', { name: 'Conversation width' })).toHaveAttribute('aria-valuenow', String(before + 10));
  expect(app.pageErrors).toEqual([]);
});

test('reload, back/forward and a copied link return to the conversation, view and dataset', async ({ app, page, context }) => {
  await configureEndpoint(page, mock, { key: 'sk-e2e-workbench' });
  await app.loadSample('penguins');
  await app.loadSample('cars');
  await askAndWait(page, 'First conversation?', 'ANSWER-ONE');
  await expect(page).toHaveURL(/#view=ask&c=[^&]+/);
  const first = new URL(page.url()).hash;

  await page.getByRole('button', { name: 'New conversation', exact: true }).click();
  await askAndWait(page, 'Second conversation?', 'ANSWER-TWO');
  await sections(page).getByRole('link', { name: 'SQL', exact: true }).click();
  await app.datasets.getByRole('button', { name: /^penguins\b/ }).first().click();
  await expect(page).toHaveURL(/view=sql/);
  await expect(page).toHaveURL(/d=penguins/);
  const second = page.url();

  await app.reload();
  await expect(chat(page).log).toContainText('ANSWER-TWO');
  await expect(chat(page).log).not.toContainText('ANSWER-ONE');
  await expect(page.getByRole('heading', { name: 'penguins', exact: true })).toBeVisible();
  await expect(sections(page).getByRole('link', { name: 'SQL', exact: true })).toHaveAttribute('aria-current', 'location');

  // Back through the steps: the dataset, the view, then the first conversation (a new
  // conversation getting its id replaces its entry, it does not add one).
  await page.goBack();
  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`${first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  await expect(chat(page).log).toContainText('ANSWER-ONE');
  await expect(chat(page).log).not.toContainText('ANSWER-TWO');
  await page.goForward();
  await page.goForward();
  await page.goForward();
  await expect(chat(page).log).toContainText('ANSWER-TWO');

  // A copied link opens the same place in another tab.
  const other = await context.newPage();
  await other.goto(second);
  await expect(chat(other).log).toContainText('ANSWER-TWO', { timeout: 60_000 });
  await expect(sections(other).getByRole('link', { name: 'SQL', exact: true })).toHaveAttribute('aria-current', 'location');
  await other.close();
  expect(app.pageErrors).toEqual([]);
});

test('a link to a conversation this browser does not have says so and opens a new one', async ({ app, page }) => {
  await page.goto('./#view=ask&c=not-a-saved-conversation');
  await app.waitReady();
  await expect(page.getByRole('status').filter({ hasText: 'That conversation is not saved in this browser' })).toBeVisible({ timeout: 30_000 });
  await expect(page).not.toHaveURL(/c=not-a-saved-conversation/);
});

test('at 375 px: one column, a bottom tab bar, and a section a link opens is not under a header', async ({ app, page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await app.loadSample('penguins');
  const bar = sections(page);
  const box = await bar.boundingBox();
  if (!box) throw new Error('no tab bar');
  expect(box.y + box.height).toBeGreaterThanOrEqual(739);
  for (const [link, heading] of [['Python', 'Python'], ['SQL', 'SQL'], ['Evaluate', 'Evaluate'], ['Ask', 'Ask']] as const) {
    await bar.getByRole('link', { name: link, exact: true }).click();
    const h = page.getByRole('heading', { name: heading, exact: true });
    await expect(h).toBeInViewport();
    const top = await h.boundingBox();
    if (!top) throw new Error(`no ${heading} heading`);
    // What is at the heading's spot is the heading itself: no header or bar over it.
    const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('h2')?.textContent ?? null, [top.x + 4, top.y + top.height / 2] as const);
    expect(hit).toBe(heading);
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(app.pageErrors).toEqual([]);
});
