/** Files the page hands to the user (exports, reports), read back as text for assertions. */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

export interface Downloaded {
  /** The file name the page suggests. */
  name: string;
  /** Where Playwright saved it (for bytes that are not text). */
  path: string;
  /** The file's content as UTF-8. */
  text: string;
}

/** The items of the conversation's Export menu. */
export type ExportItem = 'Notebook (.ipynb)' | 'HTML report' | 'Markdown report';

/** Clicks whatever `trigger` clicks and reads the file that click makes the page download. */
export async function download(page: Page, trigger: () => Promise<void>): Promise<Downloaded> {
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), trigger()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), path, text: await readFile(path, 'utf8') };
}

/** Exports the open conversation through the Export menu, as a user does. */
export async function exportAs(page: Page, item: ExportItem): Promise<Downloaded> {
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  return download(page, () => menu.getByRole('menuitem', { name: item }).click());
}
