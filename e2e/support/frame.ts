/** The app shell as a test checks it: the window is a frame that never scrolls, its panes do. */
import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { expect } from './fixtures';

/** The window has not scrolled and has nothing to scroll to (the page is no taller or wider than it). */
export async function expectWindowStill(page: Page, when: string): Promise<void> {
  const m = await page.evaluate(() => {
    const el = document.scrollingElement ?? document.documentElement;
    return { x: window.scrollX, y: window.scrollY, h: el.scrollHeight - el.clientHeight, w: el.scrollWidth - el.clientWidth };
  });
  expect(m, `the window scrolled or can scroll ${when}`).toEqual({ x: 0, y: 0, h: 0, w: 0 });
}

/** Saves a screenshot under SCREENSHOTS_DIR when it is set (for a change's notes); a no-op otherwise. */
export async function snap(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png` });
}
