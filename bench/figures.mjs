// The main thread while big figures arrive (issue #31): Python's `fig` of ~35 MB (1.25M points),
// and a create_chart over a 10M-row query. Long tasks by wall time from a PerformanceObserver and
// the longest by CPU time from a Chromium trace, from Run / Send until the chart is drawn and the
// page has settled. `node bench/run.mjs --only=figures` (after a build) takes just these rows.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectLongTasks, openWithMockModel } from './app.mjs';
import { longestTaskCpu } from './render.mjs';

const FIG_POINTS = 1_250_000;
const CHART_ROWS = 10_000_000;
const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline'];

/** Long tasks recorded by collectLongTasks between two page times. */
async function tasksBetween(page, t0, t1) {
  const tasks = await page.evaluate(([a, b]) => window.__benchLongTasks.filter((t) => t.start >= a && t.start <= b), [t0, t1]);
  return { longest: tasks.length ? Math.max(...tasks.map((t) => t.duration)) : 0, count: tasks.length };
}

/** A figure dict of FIG_POINTS markers, built in the Python console; `result` is its JSON size. */
const FIG_CODE = `import json, random
random.seed(31)
n = ${FIG_POINTS}
fig = {"data": [{"type": "scatter", "mode": "markers", "x": list(range(n)), "y": [random.random() for _ in range(n)]}], "layout": {"title": {"text": "big"}}}
result = len(json.dumps(fig))`;

async function pythonFigureCost(browser, baseURL, tracePath) {
  const context = await browser.newContext();
  try {
    await context.addInitScript(collectLongTasks);
    const page = await context.newPage();
    await page.goto(baseURL);
    const tab = page.getByRole('tab', { name: /python/i });
    if (await tab.count()) await tab.first().click();
    const code = page.getByRole('textbox', { name: 'Python code' });
    await code.waitFor({ timeout: 120_000 });
    // Python started and plotly.js loaded (a first, small chart), so the row measures the big
    // figure, not Pyodide's start or Plotly's first load.
    await code.fill('fig = {"data": [{"type": "scatter", "x": [1, 2], "y": [2, 1]}]}\nresult = 1');
    await page.getByRole('button', { name: 'Run Python' }).click();
    const panel = page.getByRole('region', { name: 'Python console' });
    await panel.locator('figure .main-svg').first().waitFor({ timeout: 300_000 });
    await code.fill(FIG_CODE);
    await browser.startTracing(page, { path: tracePath, categories: TRACE_CATEGORIES });
    const t0 = await page.evaluate(() => performance.now());
    await page.getByRole('button', { name: 'Run Python' }).click();
    const big = panel.getByRole('figure', { name: /^big:/ }).locator('.main-svg').first();
    await big.waitFor({ timeout: 600_000 });
    await page.waitForTimeout(3_000);
    const t1 = await page.evaluate(() => performance.now());
    await browser.stopTracing();
    const bytes = Number((await panel.getByLabel('Python result').last().innerText()).replace(/\D/g, ''));
    const drawn = await big.evaluate((svg) => svg.querySelectorAll('.point').length);
    return { ...(await tasksBetween(page, t0, t1)), ms: t1 - t0, bytes, drawn };
  } finally {
    await context.close();
  }
}

async function createChartCost(browser, baseURL, tracePath) {
  const { mock, context, page } = await openWithMockModel(browser, baseURL);
  try {
    // A first, small chart loads plotly.js, so the row measures the big one.
    const warm = [
      { type: 'tool_calls', calls: [{ name: 'create_chart', arguments: { sql: 'SELECT 1 AS x, 2 AS y', chart: { type: 'scatter', x: 'x', y: 'y' } } }] },
      { type: 'text', content: 'A small chart.' },
      { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
    ];
    const warmRes = await fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify({ replies: warm, replace: true }) });
    if (!warmRes.ok) throw new Error(`mock script: ${warmRes.status}`);
    await page.getByRole('textbox', { name: 'Ask a question' }).fill('A small chart first.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('article', { name: 'Answer' }).locator('figure .main-svg').first().waitFor({ timeout: 300_000 });
    await page.waitForFunction(() => ![...document.querySelectorAll('button')].some((b) => b.textContent?.trim() === 'Stop'), undefined, { polling: 1000, timeout: 300_000 });
    const sql = `SELECT range AS x, (range * 7919) % 10007 AS y FROM range(${CHART_ROWS})`;
    const replies = [
      { type: 'tool_calls', calls: [{ name: 'create_chart', arguments: { sql, chart: { type: 'scatter', x: 'x', y: 'y', title: 'ten million' } } }] },
      { type: 'text', content: 'Here is the chart.' },
      { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
    ];
    const res = await fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify({ replies, replace: true }) });
    if (!res.ok) throw new Error(`mock script: ${res.status}`);
    await page.getByRole('textbox', { name: 'Ask a question' }).fill('Plot ten million points.');
    await browser.startTracing(page, { path: tracePath, categories: TRACE_CATEGORIES });
    const t0 = await page.evaluate(() => performance.now());
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('article', { name: 'Answer' }).nth(1).locator('figure .main-svg').first().waitFor({ timeout: 600_000 });
    await page.waitForFunction(() => ![...document.querySelectorAll('button')].some((b) => b.textContent?.trim() === 'Stop'), undefined, { polling: 1000, timeout: 600_000 });
    await page.waitForTimeout(3_000);
    const t1 = await page.evaluate(() => performance.now());
    await browser.stopTracing();
    const drawn = await page.getByRole('article', { name: 'Answer' }).nth(1).locator('figure .main-svg').first().evaluate((svg) => svg.querySelectorAll('.point').length);
    return { ...(await tasksBetween(page, t0, t1)), ms: t1 - t0, drawn };
  } finally {
    await context.close();
    await mock.close();
  }
}

export async function figureRows(browser, baseURL) {
  const rows = [];
  const tracePath = join(tmpdir(), `dataseer-bench-figures-${process.pid}.json`);
  try {
    const f = await pythonFigureCost(browser, baseURL, tracePath);
    const fCpu = longestTaskCpu(tracePath);
    const mb = (f.bytes / 1e6).toFixed(0);
    console.log(`  a ${mb} MB fig (${FIG_POINTS.toLocaleString('en-US')} points, ${f.drawn} drawn): ${f.count} long tasks, longest ${f.longest.toFixed(0)} ms, ${f.ms.toFixed(0)} ms run → settled; by CPU time longest ${fCpu.longest.toFixed(0)} ms`);
    rows.push({ name: `a ${mb} MB Python fig (${FIG_POINTS.toLocaleString('en-US')} points): longest main-thread task (goal ≤ 200)`, value: Math.round(f.longest), unit: 'ms' });
    rows.push({ name: 'that fig: longest main-thread task, CPU time (trace; goal ≤ 200)', value: Math.round(fCpu.longest), unit: 'ms' });
    rows.push({ name: 'that fig: points drawn', value: f.drawn, unit: 'count' });
    const c = await createChartCost(browser, baseURL, tracePath);
    const cCpu = longestTaskCpu(tracePath);
    console.log(`  create_chart over ${CHART_ROWS.toLocaleString('en-US')} rows (${c.drawn} drawn): ${c.count} long tasks, longest ${c.longest.toFixed(0)} ms, ${c.ms.toFixed(0)} ms send → settled; by CPU time longest ${cCpu.longest.toFixed(0)} ms`);
    rows.push({ name: `create_chart over a ${CHART_ROWS.toLocaleString('en-US')}-row query: longest main-thread task (goal ≤ 200)`, value: Math.round(c.longest), unit: 'ms' });
    rows.push({ name: 'that chart: longest main-thread task, CPU time (trace; goal ≤ 200)', value: Math.round(cCpu.longest), unit: 'ms' });
    rows.push({ name: 'that chart: send → drawn and settled', value: Math.round(c.ms), unit: 'ms' });
  } finally {
    rmSync(tracePath, { force: true });
  }
  return rows;
}
