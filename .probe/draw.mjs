import { chromium } from '@playwright/test';
import { launchOptions } from '/work/wt/i31/scripts/browser.mjs';
const browser = await chromium.launch(launchOptions());
const page = await browser.newPage();
await page.setContent('<!doctype html><body></body>');
const t0 = Date.now();
await page.addScriptTag({ path: 'node_modules/plotly.js-dist-min/plotly.min.js' });
console.log('plotly load wall', Date.now() - t0);
for (const [n, mode, type] of [[100, 'markers', 'scatter'], [1000, 'markers', 'scatter'], [2000, 'markers', 'scatter'], [5000, 'markers', 'scatter'], [5000, 'lines+markers', 'scatter'], [5000, 'markers', 'scattergl'], [5000, null, 'bar']]) {
  const ms = await page.evaluate(async ([n, mode, type]) => {
    const d = document.createElement('div'); document.body.append(d);
    const x = Array.from({ length: n }, (_, i) => i), y = x.map((i) => (i * 7919) % 10007);
    const t = performance.now();
    await Plotly.newPlot(d, [{ type, mode: mode ?? undefined, x, y }], { width: 800, height: 420 });
    const dt = performance.now() - t;
    Plotly.purge(d); d.remove();
    return dt;
  }, [n, mode, type]);
  console.log(n, type, mode, Math.round(ms), 'ms');
}
await browser.close();
