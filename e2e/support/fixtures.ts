/**
 * The data workspace as a test sees it: a page object that finds everything by role and
 * accessible name (AGENT-CONTRACT.md), exposed to specs as the `app` fixture.
 */
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { parseDisplayedNumber } from './compare';

export interface GridData {
  columns: string[];
  rows: string[][];
}

export type LoadResult = { kind: 'loaded'; name: string } | { kind: 'alert'; text: string };

/** Raised by `runSql` when the console shows an error instead of rows. */
export class SqlError extends Error {
  override name = 'SqlError';
}

/** The workbench's views, by their tabs' names (`Ask` is a tab only below the wide layout). */
export type ViewName = 'Ask' | 'Data' | 'Notebook' | 'SQL' | 'Python' | 'Evaluate';

/** The sample buttons' labels (`Load sample <name>`), which are also the tables they create. */
export type SampleName = 'penguins' | 'seattle_weather' | 'cars';

/**
 * Reads a role=grid: column headers and data cells, in row order, as rendered text. A leading
 * row-number column (role=rowheader, with its own column header) is left out.
 */
export async function readGrid(grid: Locator): Promise<GridData> {
  return grid.evaluate((el) => {
    const text = (cell: Element): string => (cell.textContent ?? '').replace(/\s+/g, ' ').trim();
    // A header with a summary under its name reads as the name (the data grids mark it).
    const headText = (cell: Element): string => text(cell.querySelector('[data-column-name]') ?? cell);
    const rows = Array.from(el.querySelectorAll('[role="row"]'));
    let headers: string[] = [];
    let hasRowHeader = false;
    const data: string[][] = [];
    for (const row of rows) {
      const heads = Array.from(row.querySelectorAll('[role="columnheader"]'));
      const cells = Array.from(row.querySelectorAll('[role="gridcell"], [role="cell"]'));
      if (row.querySelector('[role="rowheader"]')) hasRowHeader = true;
      if (heads.length > 0 && cells.length === 0) {
        if (headers.length === 0) headers = heads.map(headText);
        continue;
      }
      if (cells.length > 0) data.push(cells.map(text));
    }
    const width = data[0]?.length ?? headers.length;
    const columns = hasRowHeader || headers.length === width + 1 ? headers.slice(1) : headers;
    return { columns, rows: data };
  });
}

export class DataApp {
  readonly fileInput: Locator;
  readonly datasets: Locator;
  readonly sqlEditor: Locator;
  readonly runButton: Locator;
  readonly results: Locator;
  readonly history: Locator;
  readonly alerts: Locator;
  /** Uncaught exceptions thrown in the page since this object was made. */
  readonly pageErrors: string[] = [];
  constructor(readonly page: Page) {
    page.on('pageerror', (e) => this.pageErrors.push(e.message));
    this.fileInput = page.getByLabel('Add data files');
    this.datasets = page.getByRole('list', { name: 'Datasets', exact: true });
    this.sqlEditor = page.getByRole('textbox', { name: 'SQL query', exact: true });
    this.runButton = page.getByRole('button', { name: 'Run SQL', exact: true });
    this.results = page.getByRole('grid', { name: 'Query results', exact: true });
    this.history = page.getByRole('list', { name: 'Query history', exact: true });
    this.alerts = page.getByRole('alert');
  }

  /** Opens the app and waits until the data engine accepts work. */
  async open(): Promise<void> {
    await this.page.goto('./');
    await this.waitReady();
  }

  async reload(): Promise<void> {
    await this.page.reload();
    await this.waitReady();
  }

  async waitReady(): Promise<void> {
    await expect(this.fileInput).toBeAttached({ timeout: 60_000 });
    // The sample buttons sit in the closed Add data menu: enabled once the engine takes work.
    await expect(this.page.getByRole('button', { name: 'Load sample penguins', exact: true, includeHidden: true })).toBeEnabled({ timeout: 60_000 });
    await expect(this.runButton.or(this.viewTab('SQL'))).not.toHaveCount(0);
  }

  /**
   * Resizes the window and waits until the layout has followed: below the wide layout (1200 px,
   * App.svelte) `Ask` is a tab, above it the conversation sits beside the views. Acting before
   * that lands on the old layout, which a busy machine keeps on screen for a while.
   */
  async resize(width: number, height: number): Promise<void> {
    await this.page.setViewportSize({ width, height });
    await expect(this.viewTab('Ask')).toHaveCount(width < 1200 ? 1 : 0);
  }

  /** A view's tab in the `Views` tab list. */
  viewTab(name: ViewName): Locator {
    return this.page.getByRole('tablist', { name: 'Views', exact: true }).getByRole('tab', { name, exact: true });
  }

  /**
   * Brings a view up the way a user does, by its tab. `Ask` has no tab on a wide screen, where
   * the conversation is always in view, so there it does nothing.
   */
  async openView(name: ViewName): Promise<void> {
    const tab = this.viewTab(name);
    if (name === 'Ask' && (await tab.count()) === 0) return;
    if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
  }

  /** The rail (Add data, Datasets, Conversations): beside every view, or in the Data view on a phone. */
  async showRail(): Promise<void> {
    // The datasets' heading, not Add data: on a phone Ask keeps Add data but not the lists.
    const datasets = this.page.getByRole('heading', { name: 'Datasets', exact: true });
    if (!(await datasets.isVisible())) await this.openView('Data');
    await expect(datasets).toBeVisible();
    await expect(this.page.getByRole('button', { name: 'Add data', exact: true })).toBeVisible();
  }

  /** Opens the Add data menu (files, paste, URL, samples). */
  async openAddData(): Promise<void> {
    await this.showRail();
    const add = this.page.getByRole('button', { name: 'Add data', exact: true });
    if ((await add.getAttribute('aria-expanded')) !== 'true') await add.click();
    await expect(this.page.getByRole('dialog', { name: 'Add data', exact: true })).toBeVisible();
  }

  sampleButton(name: SampleName): Locator {
    return this.page.getByRole('button', { name: `Load sample ${name}`, exact: true });
  }

  async loadSample(name: SampleName): Promise<void> {
    await this.openAddData();
    await this.sampleButton(name).click();
    await expect(this.removeButton(name)).toBeVisible({ timeout: 60_000 });
  }

  async addFiles(paths: string | string[]): Promise<void> {
    await this.fileInput.setInputFiles(paths);
  }

  removeButton(name: string): Locator {
    return this.datasets.getByRole('button', { name: `Remove ${name}`, exact: true });
  }

  renameButton(name: string): Locator {
    return this.datasets.getByRole('button', { name: `Rename ${name}`, exact: true });
  }

  /** The list item of one dataset (found through its Remove button, whose name is exact). */
  datasetItem(name: string): Locator {
    const remove = this.page.getByRole('button', { name: `Remove ${name}`, exact: true });
    return this.datasets.getByRole('listitem').filter({ has: remove });
  }

  async datasetNames(): Promise<string[]> {
    if ((await this.datasets.count()) === 0) return [];
    const snapshot = await this.datasets.ariaSnapshot();
    return Array.from(snapshot.matchAll(/button "Remove ([^"]+)"/g), (m) => m[1] ?? '').filter(Boolean);
  }

  async expectDataset(name: string, timeout = 60_000): Promise<void> {
    await expect(this.removeButton(name)).toBeVisible({ timeout });
  }

  /** The load-error alert that names `fileName`. */
  loadError(fileName: string): Locator {
    return this.alerts.filter({ hasText: fileName });
  }

  progress(fileName: string): Locator {
    return this.page.getByRole('progressbar', { name: `Loading ${fileName}`, exact: true });
  }

  /**
   * Waits for a load of `fileName` to end: either `tableName` is listed, or an alert names the file.
   * Fails when neither happens (the page hung or dropped the file silently).
   */
  async waitForLoad(fileName: string, tableName: string, timeout = 90_000): Promise<LoadResult> {
    let result: LoadResult | null = null;
    await expect
      .poll(
        async () => {
          if ((await this.removeButton(tableName).count()) > 0) {
            result = { kind: 'loaded', name: tableName };
            return true;
          }
          const alert = this.loadError(fileName);
          if ((await alert.count()) > 0) {
            result = { kind: 'alert', text: (await alert.first().innerText()).trim() };
            return true;
          }
          return false;
        },
        { timeout, intervals: [250], message: `neither a dataset "${tableName}" nor an alert naming ${fileName} appeared` },
      )
      .toBe(true);
    if (!result) throw new Error('unreachable: poll ended without a result');
    // The dataset is listed just before its load answers; the answer then shows it in the Data
    // view. Acting before that (say, bringing up the SQL view) would be undone under the test.
    await expect(this.page.getByRole('progressbar', { name: `Loading ${fileName}`, exact: true })).toHaveCount(0, { timeout });
    return result;
  }

  async dismissLoadError(fileName: string): Promise<void> {
    const alert = this.loadError(fileName).first();
    await alert.getByRole('button', { name: 'Dismiss', exact: true }).click();
    await expect(this.loadError(fileName)).toHaveCount(0);
  }

  /** Clicks the dataset so the Schema / Preview / Profile tabs show it. */
  async selectDataset(name: string): Promise<void> {
    await this.showRail();
    const item = this.datasetItem(name);
    await item.getByText(name, { exact: true }).first().click();
  }

  async openTab(tab: 'Schema' | 'Preview' | 'Profile'): Promise<Locator> {
    await this.openView('Data');
    const t = this.page.getByRole('tab', { name: tab, exact: true });
    await t.click();
    await expect(t).toHaveAttribute('aria-selected', 'true');
    return this.page.getByRole('tabpanel').filter({ visible: true }).first();
  }

  /** Opens the SQL console's query history (collapsed at first, so results get the full width). */
  async openHistory(): Promise<void> {
    await this.openView('SQL');
    const toggle = this.page.getByRole('button', { name: /^Query history/ });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await expect(this.history).toBeVisible();
  }

  async rename(from: string, to: string): Promise<void> {
    await this.showRail();
    await this.renameButton(from).click();
    const box = this.page.getByRole('textbox', { name: `New name for ${from}`, exact: true });
    await box.fill(to);
    await box.press('Enter');
  }

  /** Removes a dataset, accepting whichever confirmation the UI asks for. */
  async remove(name: string): Promise<void> {
    await this.showRail();
    const acceptNative = (d: { accept: () => Promise<void> }): void => void d.accept();
    this.page.once('dialog', acceptNative);
    await this.removeButton(name).click();
    const confirm = this.page
      .getByRole('alertdialog')
      .or(this.page.getByRole('dialog'))
      .getByRole('button', { name: /^(remove|delete|confirm|yes)/i });
    await expect
      .poll(
        async () => {
          if ((await this.removeButton(name).count()) === 0) return true;
          if ((await confirm.count()) > 0 && (await confirm.first().isVisible())) await confirm.first().click();
          return false;
        },
        { timeout: 30_000, intervals: [200], message: `dataset ${name} was not removed` },
      )
      .toBe(true);
    this.page.off('dialog', acceptNative);
  }

  async #alertTexts(): Promise<string[]> {
    return (await this.alerts.allTextContents()).map((t) => t.trim());
  }

  /** Types SQL into the console and runs it (button click or Ctrl+Enter). */
  async submitSql(sql: string, via: 'button' | 'keyboard' = 'button'): Promise<void> {
    await this.openView('SQL');
    await this.sqlEditor.click();
    await this.sqlEditor.fill(sql);
    if (via === 'keyboard') await this.sqlEditor.press('Control+Enter');
    else {
      // The completion list the last word opens (a moment after typing) can lie over the button:
      // Escape closes it, as a user would, until the button itself takes the click.
      const completions = this.page.getByRole('listbox', { name: 'Completions' });
      // A click the list blocked did not happen, so it is tried again; one that lands ends the loop.
      await expect(async () => {
        if ((await completions.count()) > 0) await this.sqlEditor.press('Escape');
        await this.runButton.click({ timeout: 1_000 });
      }).toPass({ timeout: 30_000 });
    }
  }

  /**
   * Runs one statement and waits for its outcome: rows in `Query results` or an error alert.
   * Completion is the `Run SQL` button coming back (it is disabled while a statement runs).
   * Resolves with the grid; rejects with SqlError carrying the alert text.
   */
  async runSql(sql: string, via: 'button' | 'keyboard' = 'button'): Promise<GridData> {
    const beforeAlerts = await this.#alertTexts();
    await this.submitSql(sql, via);
    let outcome: 'rows' | 'error' | null = null;
    let errorText = '';
    await expect
      .poll(
        async () => {
          if (!(await this.runButton.isEnabled()) || (await this.runButton.getAttribute('aria-busy')) === 'true') return false;
          const alerts = await this.#alertTexts();
          const fresh = alerts.find((a) => /query failed/i.test(a)) ?? alerts.find((a) => !beforeAlerts.includes(a));
          if (fresh) {
            outcome = 'error';
            errorText = fresh;
            return true;
          }
          if ((await this.results.count()) > 0) {
            outcome = 'rows';
            return true;
          }
          return false;
        },
        { timeout: 120_000, intervals: [100, 200, 250], message: `no result for SQL: ${sql}` },
      )
      .toBe(true);
    if (outcome === 'error') throw new SqlError(errorText);
    return readGrid(this.results.first());
  }

  /** Runs SQL that must fail; returns the alert's text. */
  async sqlError(sql: string): Promise<string> {
    try {
      const grid = await this.runSql(sql);
      throw new Error(`expected an error, got rows ${JSON.stringify(grid.rows.slice(0, 3))}`);
    } catch (e) {
      if (e instanceof SqlError) return e.message;
      throw e;
    }
  }

  /** Convenience: the single value of a one-cell result. */
  async scalar(sql: string): Promise<string> {
    const { rows } = await this.runSql(sql);
    expect(rows, `one row for ${sql}`).toHaveLength(1);
    return rows[0]?.[0] ?? '';
  }

  /** The page still answers: a trivial query round-trips through the worker. */
  async expectResponsive(): Promise<void> {
    const marker = Math.floor(Math.random() * 1e6);
    expect(parseDisplayedNumber(await this.scalar(`SELECT ${marker} + 1 AS alive`))).toBe(marker + 1);
  }
}

/**
 * One page for every test of the calling describe block (a walk), opened once in beforeAll.
 * DuckDB start-up dominates a test's cost on a busy machine, so specs whose tests do not need
 * isolation share it. A walk's tests build on each other's page, so they run in order in one
 * worker while other files run in parallel ('default' mode, not 'serial': after a failure
 * Playwright starts a new worker, which re-runs beforeAll, so later tests still get a working
 * page and still run).
 */
export function sharedApp(setup?: (app: DataApp) => Promise<void>): () => DataApp {
  test.describe.configure({ mode: 'default' });
  let app: DataApp | undefined;
  test.beforeAll(async ({ browser }, testInfo) => {
    const page = await browser.newPage({ baseURL: testInfo.project.use.baseURL });
    app = new DataApp(page);
    await app.open();
    await setup?.(app);
  });
  test.afterAll(async () => {
    await app?.page.close();
  });
  return () => {
    if (!app) throw new Error('sharedApp: beforeAll has not run');
    return app;
  };
}

interface Fixtures {
  app: DataApp;
}

export const test = base.extend<Fixtures>({
  app: async ({ page }, use) => {
    const app = new DataApp(page);
    await app.open();
    await use(app);
  },
});

export { expect };
