// Finds a Chromium for Playwright: Playwright's own when installed, else the system's.
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

const SYSTEM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/** @returns {string | undefined} an executable path, or undefined when Playwright's bundled one is present */
export function systemBrowser() {
  if (process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
  return SYSTEM_CANDIDATES.find((p) => existsSync(p));
}

export function playwrightBrowserInstalled() {
  try {
    return existsSync(chromium.executablePath());
  } catch {
    return false;
  }
}

/** Launch options shared by the e2e suite and the benchmark. */
export function launchOptions() {
  const args = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
  if (playwrightBrowserInstalled() && !process.env.CHROMIUM_PATH) return { args };
  const executablePath = systemBrowser();
  return executablePath ? { executablePath, args } : { args };
}
