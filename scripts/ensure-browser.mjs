// Makes sure a Chromium exists before the e2e suite or the benchmark runs.
import { execSync } from 'node:child_process';
import { playwrightBrowserInstalled, systemBrowser } from './browser.mjs';

if (playwrightBrowserInstalled()) {
  console.log('browser: Playwright Chromium');
} else if (systemBrowser()) {
  console.log(`browser: ${systemBrowser()}`);
} else if (process.platform === 'linux' && process.getuid?.() === 0) {
  console.log('browser: none found, installing Debian chromium with apt-get');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit' });
  if (!systemBrowser()) {
    console.error('chromium was installed but not found at /usr/bin/chromium');
    process.exit(1);
  }
} else {
  console.error('No Chromium found. Run `npx playwright install chromium`, or install a system Chromium and set CHROMIUM_PATH.');
  process.exit(1);
}
