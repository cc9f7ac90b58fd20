/**
 * axe-core on every view of the app, in light and dark, at desktop width and at 375 px: no
 * serious or critical violation (WCAG 2.x A/AA rules). The views are reached the way a user
 * reaches them; the conversation is played by the scripted endpoint (testing/mock-llm).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test, type DataApp } from './support/fixtures';
import { ask, configureEndpoint, openSteps, useMockLlm } from './support/mockLlm';

const mock = useMockLlm();

interface Finding {
  view: string;
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Runs axe on the page as it is now; returns the serious and critical findings, labelled. */
async function audit(page: Page, view: string): Promise<Finding[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ view, id: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
}

const configure = (page: Page) => configureEndpoint(page, mock, { key: 'sk-a11y' });

/** Walks every view once, reaching each by its tab, and audits each; returns all findings. */
async function walk(app: DataApp, page: Page): Promise<Finding[]> {
  const findings: Finding[] = [];
  findings.push(...(await audit(page, 'empty workspace with the setup card')));

  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  findings.push(...(await audit(page, 'settings dialog')));
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  await app.openAddData();
  findings.push(...(await audit(page, 'Add data menu')));
  await app.sampleButton('penguins').click();
  await app.expectDataset('penguins');
  for (const tab of ['Schema', 'Preview', 'Profile'] as const) {
    await app.openTab(tab);
    findings.push(...(await audit(page, `dataset ${tab}`)));
  }

  await app.runSql('SELECT "Species", count(*) AS n FROM penguins GROUP BY 1 ORDER BY 1');
  await app.openHistory();
  findings.push(...(await audit(page, 'SQL result and history')));

  await app.openView('Python');
  const code = page.getByRole('textbox', { name: 'Python code' });
  await code.fill('print("hello")\nresult = 6 * 7');
  await page.getByRole('button', { name: 'Run Python' }).click();
  await expect(page.getByRole('status', { name: 'Python result' })).toContainText('42', { timeout: 120_000 });
  findings.push(...(await audit(page, 'Python result')));

  // The notebook with a cell of each kind, run.
  await app.openView('Notebook');
  const notebook = page.getByRole('region', { name: 'Notebook', exact: true });
  await notebook.getByRole('button', { name: 'Add Markdown cell', exact: true }).click();
  await notebook.getByRole('textbox', { name: 'Markdown cell 1', exact: true }).fill('## Notes\n\n- a *point*');
  await notebook.getByRole('button', { name: 'Add SQL cell', exact: true }).click();
  await notebook.getByRole('textbox', { name: 'SQL cell 1', exact: true }).fill('SELECT "Island", count(*) AS n FROM penguins GROUP BY 1');
  await notebook.getByRole('button', { name: 'Run SQL cell 1', exact: true }).click();
  await expect(notebook.getByRole('grid', { name: 'Result of SQL cell 1' })).toBeVisible({ timeout: 60_000 });
  await notebook.getByRole('button', { name: 'Add Python cell', exact: true }).click();
  await notebook.getByRole('textbox', { name: 'Python cell 1', exact: true }).fill('result = [{"k": 1}]');
  await notebook.getByRole('button', { name: 'Run Python cell 1', exact: true }).click();
  await expect(notebook.getByLabel('Result of Python cell 1')).toBeVisible({ timeout: 60_000 });
  await notebook.getByRole('grid', { name: 'Result of SQL cell 1' }).getByRole('gridcell').first().click();
  findings.push(...(await audit(page, 'notebook and cell detail')));

  await app.openView('Evaluate');
  findings.push(...(await audit(page, 'Evaluate')));

  // The rail's column list (on a phone the rail is in the Data view).
  await app.showRail();
  await app.datasetItem('penguins').getByRole('button', { name: 'Columns of penguins', exact: true }).click();
  findings.push(...(await audit(page, 'rail with a column list')));

  await configure(page);
  await app.openView('Ask');
  const log = page.getByRole('log', { name: 'Conversation' });
  await expect(log.getByRole('group', { name: 'Starter questions' })).toBeVisible();
  findings.push(...(await audit(page, 'starter questions')));
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 'q1', name: 'run_sql', arguments: { sql: 'SELECT count(*) AS n FROM penguins' } }] },
    { type: 'text', content: 'There are **344** penguins.\n\n- one\n- two\n\n```sql\nSELECT count(*) FROM penguins;\n```\n\nNext you could ask:\n- Which island has most?' },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);
  await ask(page, 'How many penguins are there?');
  await expect(log.getByRole('article', { name: 'Answer' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeHidden({ timeout: 60_000 });
  findings.push(...(await audit(page, 'answer, steps collapsed')));
  // Open How I got this and every step so their bodies are audited too.
  for (const summary of await (await openSteps(page)).locator('summary').all()) await summary.click();
  findings.push(...(await audit(page, 'conversation with its steps')));
  return findings;
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe: no serious or critical violations, ${scheme} theme`, async ({ app, page }) => {
    test.setTimeout(240_000);
    await page.emulateMedia({ colorScheme: scheme });
    const findings = await walk(app, page);
    expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
  });
}

test('axe with the dark theme chosen in the switch on a light system: no serious or critical violations', async ({ app, page }) => {
  test.setTimeout(240_000);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg).toBe('rgb(18, 22, 28)');
  const findings = await walk(app, page);
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
  // The choice is kept.
  await app.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});

test('axe at 375 px wide: no serious or critical violations, and nothing scrolls sideways', async ({ app, page }) => {
  test.setTimeout(240_000);
  await app.resize(375, 800);
  const findings = await walk(app, page);
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
