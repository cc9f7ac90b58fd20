/**
 * Rendering caps (issue #21, item 5): a very long answer is formatted up to 200,000 characters
 * and the rest waits for "Show more" — nothing is lost, the page just does not format 2 MB at
 * once. (How long the main thread is held is measured by `node bench/run.mjs --only=render`.)
 */
import { expect, test } from './support/fixtures';
import { ask, configureEndpoint, expectIdle, useMockLlm } from './support/mockLlm';

const mock = useMockLlm();

test('a long answer is formatted in parts, and Show more brings the rest', async ({ app }) => {
  const page = app.page;
  await configureEndpoint(page, mock, { key: 'sk-render-caps-12345' });
  const paragraph = (i: number) => `Paragraph ${i}: the mean of group ${i} is **${(40 + i / 100).toFixed(2)}**, ${'with more words about it '.repeat(6)}`;
  const parts: string[] = [];
  for (let i = 0, n = 0; n < 260_000; i++) {
    parts.push(paragraph(i));
    n += paragraph(i).length + 2;
  }
  const answer = `# Long report\n\n${parts.join('\n\n')}\n\nThe last line of the report.`;
  await mock.script([
    { type: 'text', content: answer, chunk_size: 20_000 },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);
  await ask(page, 'Write the long report');
  const card = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Answer' });
  await expect(card.getByRole('heading', { name: 'Long report' })).toBeVisible({ timeout: 120_000 });
  await expectIdle(page);
  // Formatted up to the cap: the heading and the first paragraphs, bold and all.
  await expect(card.locator('strong').first()).toHaveText('40.00');
  const more = card.getByRole('button', { name: 'Show more' });
  await expect(more).toBeVisible();
  await expect(card.getByRole('note').filter({ hasText: 'more characters not shown' })).toBeVisible();
  await expect(card).not.toContainText('The last line of the report.');
  await more.click();
  await expect(card.getByText('The last line of the report.')).toBeAttached({ timeout: 60_000 });
  await expect(more).toBeHidden();
});
