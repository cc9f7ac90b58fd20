/** The Python console by its accessible names, for specs that run code in it. */
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

const RUN_TIMEOUT = 90_000;

/** Python that runs `attempt(name, f)`: records in the dict `out` whether `f()` ran or which exception blocked it. */
export const ATTEMPT_PY = `out = {}
def attempt(name, f):
    try:
        f()
        out[name] = "ran"
    except BaseException as e:
        out[name] = "blocked: " + type(e).__name__
`;

export class PythonConsole {
  readonly code: Locator;
  readonly run: Locator;
  readonly panel: Locator;
  constructor(readonly page: Page) {
    this.code = page.getByRole('textbox', { name: 'Python code' });
    this.run = page.getByRole('button', { name: 'Run Python' });
    this.panel = page.getByRole('region', { name: 'Python console' });
  }

  async open(): Promise<void> {
    const tab = this.page.getByRole('tab', { name: /python/i });
    if (await tab.count()) await tab.first().click();
    await expect(this.code).toBeVisible({ timeout: 30_000 });
  }

  /** Runs code and waits until its outcome (result, output or error) is shown. */
  async exec(source: string, timeout = RUN_TIMEOUT): Promise<void> {
    // Another view may be up (the notebook, the data): back to the console by its tab.
    if (!(await this.code.isVisible())) await this.open();
    const before = await this.panel.locator('[data-run-id]').getAttribute('data-run-id', { timeout: 1 }).catch(() => null);
    await this.code.fill(source);
    await this.run.click();
    const newer = before ? `:not([data-run-id="${before}"])` : '';
    await expect(this.panel.locator(`[data-run-id]${newer}:not([data-outcome="pending"])`)).toBeAttached({ timeout });
  }

  result(): Locator {
    return this.panel.getByLabel('Python result');
  }

  output(): Locator {
    return this.panel.getByRole('log', { name: 'Python output' });
  }

  error(): Locator {
    return this.panel.getByRole('alert');
  }

  async expectUsable(): Promise<void> {
    const marker = Math.floor(Math.random() * 1e6);
    await this.exec(`result = ${marker} + 1`);
    await expect(this.result()).toHaveText(String(marker + 1));
  }
}

export async function pythonConsole(page: Page): Promise<PythonConsole> {
  const py = new PythonConsole(page);
  await py.open();
  return py;
}
