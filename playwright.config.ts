import { defineConfig } from '@playwright/test';
import { launchOptions } from './scripts/browser.mjs';

const PORT = Number(process.env.E2E_PORT ?? 4199);

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  // Parallel runs by different people in one checkout must not clean each other's artifacts.
  outputDir: process.env.PW_OUTPUT_DIR ?? 'test-results',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  // Every test has its own browser context and every server a spec starts takes a free port, so
  // tests run in parallel workers; a walk that shares one page (sharedApp) keeps its tests in
  // order in one worker. E2E_WORKERS (or --workers) overrides the default.
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    launchOptions: launchOptions(),
    trace: 'retain-on-failure',
  },
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort --outDir ${process.env.DIST_DIR ?? 'dist'}`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
