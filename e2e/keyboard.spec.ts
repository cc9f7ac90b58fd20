/**
 * The main flow with the keyboard alone: every control is reached with Tab (never clicked or
 * focused by the test) and worked with Enter, Space, typing and shortcuts. The model is the
 * scripted endpoint (testing/mock-llm).
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { useMockLlm } from './support/mockLlm';

const mock = useMockLlm();

const MAX_TABS = 250;

/**
 * Presses Tab (or Shift+Tab) until `target` has focus; fails when it is never reached. In a code
 * editor Tab indents, so a keyboard user leaves it with Escape then Tab (CodeMirror's documented
 * escape hatch), as done here.
 */
async function tabTo(page: Page, target: Locator, backwards = false): Promise<void> {
  for (let i = 0; i < MAX_TABS; i++) {
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)).catch(() => false)) return;
    const inEditor = await page.evaluate(() => document.activeElement?.closest('.cm-content') != null);
    if (inEditor) await page.keyboard.press('Escape');
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`could not reach ${target.toString()} with the keyboard in ${MAX_TABS} presses`);
}

/** The focused element shows a visible focus indicator (outline or box-shadow). */
async function expectFocusVisible(target: Locator): Promise<void> {
  const ring = await target.evaluate((el) => {
    const s = getComputedStyle(el);
    return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
  });
  expect(ring, `${target.toString()} shows where focus is`).toBe(true);
}

test('keyboard only: load a sample, query it, run Python, set up the model and ask', async ({ app, page }) => {
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 'k1', name: 'run_sql', arguments: { sql: 'SELECT count(*) AS n FROM penguins' } }] },
    { type: 'text', content: 'The penguins table has 344 rows.' },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);

  // Data: the Add data menu opens with Enter; a sample, by keyboard.
  const addData = page.getByRole('button', { name: 'Add data', exact: true });
  await tabTo(page, addData);
  await expectFocusVisible(addData);
  await page.keyboard.press('Enter');
  const sample = app.sampleButton('penguins');
  await tabTo(page, sample);
  await expectFocusVisible(sample);
  await page.keyboard.press('Enter');
  await expect(app.removeButton('penguins')).toBeVisible({ timeout: 60_000 });

  // The dataset views are tabs: arrow keys move between them.
  const schemaTab = page.getByRole('tab', { name: 'Schema' });
  await tabTo(page, page.getByRole('tablist', { name: 'Views of penguins' }).getByRole('tab', { selected: true }));
  await page.keyboard.press('Home');
  await expect(schemaTab).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tab', { name: 'Preview' })).toHaveAttribute('aria-selected', 'true');

  // The work views are tabs too: from the selected one, the arrow keys reach SQL.
  await tabTo(page, page.getByRole('tablist', { name: 'Views', exact: true }).getByRole('tab', { selected: true }), true);
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(app.viewTab('SQL')).toHaveAttribute('aria-selected', 'true');
  await expect(app.viewTab('SQL')).toBeFocused();

  // SQL: type in the editor, Ctrl+Enter runs it.
  await tabTo(page, app.sqlEditor);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('SELECT count(*) AS n FROM penguins');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(app.results).toContainText('344', { timeout: 30_000 });

  // Python: its tab, then Ctrl+Enter runs.
  await tabTo(page, app.viewTab('SQL'), true);
  await page.keyboard.press('ArrowRight');
  await expect(app.viewTab('Python')).toHaveAttribute('aria-selected', 'true');
  const code = page.getByRole('textbox', { name: 'Python code' });
  await tabTo(page, code);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('result = 6 * 7');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByRole('status', { name: 'Python result' })).toContainText('42', { timeout: 120_000 });

  // Settings: open, fill, save.
  const settingsButton = page.getByRole('button', { name: 'Settings', exact: true });
  await tabTo(page, settingsButton, true);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const baseUrl = dialog.getByRole('textbox', { name: 'Base URL' });
  await tabTo(page, baseUrl);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(`${mock.url}/v1`);
  await tabTo(page, dialog.getByRole('textbox', { name: 'API key' }));
  await page.keyboard.type('sk-keyboard');
  await tabTo(page, dialog.getByRole('textbox', { name: 'Model' }));
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('mock-model');
  await tabTo(page, dialog.getByRole('button', { name: 'Save', exact: true }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  // Focus comes back to where the dialog was opened from.
  await expect(settingsButton).toBeFocused();

  // Ask: type, Enter sends; the answer arrives in the log.
  const question = page.getByRole('textbox', { name: 'Ask a question' });
  await tabTo(page, question);
  await page.keyboard.type('How many penguins are there?');
  await page.keyboard.press('Enter');
  const log = page.getByRole('log', { name: 'Conversation' });
  await expect(log.getByRole('article', { name: 'Answer' })).toContainText('344 rows', { timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeHidden({ timeout: 60_000 });

  // "How I got this" opens with the keyboard, and so does a step in it.
  const how = log.locator('details.how > summary').first();
  await tabTo(page, how, true);
  await page.keyboard.press('Enter');
  const step = log.getByRole('list', { name: 'Steps' }).locator('summary').first();
  await tabTo(page, step);
  await page.keyboard.press('Enter');
  await expect(log.getByRole('list', { name: 'Steps' }).locator('details').first()).toHaveAttribute('open', '');
  expect(app.pageErrors).toEqual([]);
});
