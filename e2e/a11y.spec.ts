/**
 * axe-core on every view of the app, in light and dark, at desktop width and at 375 px: no
 * serious or critical violation (WCAG 2.x A/AA rules). The views are reached the way a user
 * reaches them; the conversation is played by the scripted endpoint (e2e/mock-llm).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test, type DataApp } from './fixtures';
import { ask, configureEndpoint, useMockLlm } from './support/mockLlm';

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

/** Walks every view once and audits each; returns all findings. */
async function walk(app: DataApp, page: Page): Promise<Finding[]> {
  const findings: Finding[] = [];
  findings.push(...(await audit(page, 'empty workspace')));

  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  findings.push(...(await audit(page, 'settings dialog')));
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  await app.loadSample('penguins');
  for (const tab of ['Schema', 'Preview', 'Profile'] as const) {
    await app.openTab(tab);
    findings.push(...(await audit(page, `dataset ${tab}`)));
  }

  await app.runSql('SELECT "Species", count(*) AS n FROM penguins GROUP BY 1 ORDER BY 1');
  findings.push(...(await audit(page, 'SQL result')));

  const code = page.getByRole('textbox', { name: 'Python code' });
  await code.fill('print("hello")\nresult = 6 * 7');
  await page.getByRole('button', { name: 'Run Python' }).click();
  await expect(page.getByRole('status', { name: 'Python result' })).toContainText('42', { timeout: 120_000 });
  findings.push(...(await audit(page, 'Python result')));

  // The notebook with a cell of each kind, run, and the rail's column list open.
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
  await app.datasetItem('penguins').getByRole('button', { name: 'Columns of penguins', exact: true }).click();
  await notebook.getByRole('grid', { name: 'Result of SQL cell 1' }).getByRole('gridcell').first().click();
  findings.push(...(await audit(page, 'notebook, column list and cell detail')));

  await configure(page);
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 'q1', name: 'run_sql', arguments: { sql: 'SELECT count(*) AS n FROM penguins' } }] },
    { type: 'text', content: 'There are **344** penguins.\n\n- one\n- two\n\n```sql\nSELECT count(*) FROM penguins;\n```' },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);
  await ask(page, 'How many penguins are there?');
  const log = page.getByRole('log', { name: 'Conversation' });
  await expect(log.getByRole('article', { name: 'Answer' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeHidden({ timeout: 60_000 });
  // Open every step so their bodies are audited too.
  for (const summary of await log.getByRole('list', { name: 'Steps' }).locator('summary').all()) await summary.click();
  findings.push(...(await audit(page, 'conversation')));
  return findings;
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe: no serious or critical violations, ${scheme} theme`, async ({ app, page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const findings = await walk(app, page);
    expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
  });
}

test('axe at 375 px wide: no serious or critical violations, and nothing scrolls sideways', async ({ app, page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const findings = await walk(app, page);
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
