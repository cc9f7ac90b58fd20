import { describe, expect, it } from 'vitest';
import { handOverLoads, type LoadedEntry } from './handOver';
import { KEEP_MAX } from './messages';

const origin = 'https://app.example';

function harness(first: string[]) {
  const sent: string[][] = [];
  let report: (entries: readonly LoadedEntry[]) => void = () => {};
  let stopped = false;
  const stop = handOverLoads(first, {
    origin,
    send: (urls) => sent.push(urls),
    observe: (r) => {
      report = r;
      return () => (stopped = true);
    },
  });
  return { sent, report: (entries: LoadedEntry[]) => report(entries), stop, stopped: () => stopped };
}

describe('handing the first visit’s files to the service worker', () => {
  it('hands over what was loaded at control, then a worker script reported later (the flaky offline reload)', () => {
    const h = harness([`${origin}/`, `${origin}/assets/index.js`, `${origin}/assets/duckdb-eh.wasm`]);
    expect(h.sent).toEqual([[`${origin}/`, `${origin}/assets/index.js`, `${origin}/assets/duckdb-eh.wasm`]]);
    // Buffered entries repeat the first list; the agent's worker script was fetched before
    // control but reported only now: it alone is handed over.
    h.report([
      { name: `${origin}/assets/index.js`, workerStart: 0 },
      { name: `${origin}/assets/agent.worker.js`, workerStart: 0 },
    ]);
    expect(h.sent).toEqual([[`${origin}/`, `${origin}/assets/index.js`, `${origin}/assets/duckdb-eh.wasm`], [`${origin}/assets/agent.worker.js`]]);
  });

  it('leaves out what the worker answered itself (it caches those) and other origins', () => {
    const h = harness([]);
    h.report([
      { name: `${origin}/assets/python.worker.js`, workerStart: 812.5 },
      { name: 'https://cdn.example/pyodide/numpy.whl', workerStart: 0 },
      { name: `${origin}.evil.example/x.js`, workerStart: 0 },
    ]);
    expect(h.sent).toEqual([]);
  });

  it('splits a long list into messages the worker accepts, and stops when asked', () => {
    const many = Array.from({ length: KEEP_MAX + 3 }, (_, i) => `${origin}/assets/f${i}.js`);
    const h = harness(many);
    expect(h.sent.map((m) => m.length)).toEqual([KEEP_MAX, 3]);
    h.stop();
    expect(h.stopped()).toBe(true);
  });
});
