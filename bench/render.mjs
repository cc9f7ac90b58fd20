// The main thread while answers render (issues #21 and #25): a 10,000-token answer streaming
// (the row app.mjs also takes), and a 2 MB answer. Long tasks are read with a PerformanceObserver
// in headless Chromium, from Send until the run has ended and the page has settled.
// `node bench/run.mjs --only=render` (after a build) takes just these rows.
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { longAnswer, openWithMockModel, streamingCost } from './app.mjs';

/**
 * The longest main-thread task by CPU time, from a Chromium trace: the renderer's main thread's
 * `RunTask` events carry `tdur` (thread time). Long tasks by wall time include the time the OS
 * gave other processes, which on a shared machine is most of it.
 */
export function longestTaskCpu(tracePath) {
  const events = JSON.parse(readFileSync(tracePath, 'utf8')).traceEvents;
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && main.has(`${e.pid}:${e.tid}`) && typeof e.tdur === 'number');
  const cpu = tasks.map((t) => t.tdur / 1000);
  return { longest: cpu.length ? Math.max(...cpu) : 0, over50: cpu.filter((ms) => ms > 50).length };
}

const BIG_ANSWER_BYTES = 2 * 1024 * 1024;

/** A ~2 MB answer sent as the model's final text in large chunks, then shown and reopened. */
async function bigAnswerCost(browser, baseURL, tracePath) {
  const { mock, context, page } = await openWithMockModel(browser, baseURL);
  try {

    let content = '';
    const unit = longAnswer(2_000);
    while (content.length < BIG_ANSWER_BYTES) content += `${unit}\n`;
    const replies = [
      { type: 'text', content, chunk_size: 16_384, chunk_delay_ms: 1 },
      { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
    ];
    const res = await fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify({ replies, replace: true }) });
    if (!res.ok) throw new Error(`mock script: ${res.status}`);
    await page.getByRole('textbox', { name: 'Ask a question' }).fill('Everything, please.');
    await browser.startTracing(page, { path: tracePath, categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    const t0 = await page.evaluate(() => performance.now());
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.waitForFunction(() => [...document.querySelectorAll('button')].some((b) => b.textContent?.trim() === 'Stop'), undefined, { polling: 250, timeout: 60_000 });
    await page.waitForFunction(() => ![...document.querySelectorAll('button')].some((b) => b.textContent?.trim() === 'Stop'), undefined, { polling: 1000, timeout: 600_000 });
    // What is still queued after the run (the final answer's render) counts too.
    await page.waitForTimeout(3_000);
    const t1 = await page.evaluate(() => performance.now());
    await browser.stopTracing();
    const tasks = await page.evaluate(([a, b]) => window.__benchLongTasks.filter((t) => t.start >= a && t.start <= b), [t0, t1]);
    return { bytes: content.length, ms: t1 - t0, longest: tasks.length ? Math.max(...tasks.map((t) => t.duration)) : 0, count: tasks.length };
  } finally {
    await context.close();
    await mock.close();
  }
}

export async function renderRows(browser, baseURL) {
  const rows = [];
  const tracePath = join(tmpdir(), `dataseer-bench-render-${process.pid}.json`);
  const s = await streamingCost(browser, baseURL, { tracePath });
  const sCpu = longestTaskCpu(tracePath);
  console.log(`  streamed ${s.tokens} tokens in ${s.ms.toFixed(0)} ms: ${s.count} long tasks, longest ${s.longest.toFixed(0)} ms, ${s.blocked.toFixed(0)} ms blocked; by CPU time longest ${sCpu.longest.toFixed(0)} ms, ${sCpu.over50} over 50 ms`);
  rows.push({ name: `streaming a ${s.tokens}-token answer: longest main-thread task (goal ≤ 50)`, value: Math.round(s.longest), unit: 'ms' });
  rows.push({ name: 'streaming that answer: long tasks (> 50 ms)', value: s.count, unit: 'count' });
  rows.push({ name: 'streaming that answer: main thread blocked in long tasks', value: Math.round(s.blocked), unit: 'ms' });
  rows.push({ name: 'streaming that answer: longest main-thread task, CPU time (trace; goal ≤ 50)', value: Math.round(sCpu.longest), unit: 'ms' });
  const b = await bigAnswerCost(browser, baseURL, tracePath);
  const bCpu = longestTaskCpu(tracePath);
  rmSync(tracePath, { force: true });
  console.log(`  a ${(b.bytes / 1048576).toFixed(1)} MB answer: ${b.count} long tasks, longest ${b.longest.toFixed(0)} ms, ${b.ms.toFixed(0)} ms send → settled; by CPU time longest ${bCpu.longest.toFixed(0)} ms, ${bCpu.over50} over 50 ms`);
  rows.push({ name: `a ${(b.bytes / 1048576).toFixed(1)} MB answer: longest main-thread task (goal ≤ 200)`, value: Math.round(b.longest), unit: 'ms' });
  rows.push({ name: 'that answer: long tasks (> 50 ms)', value: b.count, unit: 'count' });
  rows.push({ name: 'that answer: longest main-thread task, CPU time (trace; goal ≤ 200)', value: Math.round(bCpu.longest), unit: 'ms' });
  return rows;
}
