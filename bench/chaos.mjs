// Chaos rows for `npm run bench` (issue 30): how seeded questions against the chaos persona of
// the scripted endpoint end — answered, failed with a message, stopped — how many broke a rule
// (did not end in budget, lost the conversation, a message naming neither status nor words,
// an uncaught error: should be 0), and the slowest run. Runs the app's TypeScript through Vite's
// SSR loader against testing/mock-llm; no browser. CHAOS_QUESTIONS sets the count (default 300).
import { createServer } from 'vite';
import { startMockLlm } from '../testing/mock-llm/server.mjs';

export async function chaosRows() {
  const questions = Number(process.env.CHAOS_QUESTIONS ?? 300);
  const mock = await startMockLlm({ port: 0 });
  const vite = await createServer({ server: { middlewareMode: true, hmr: false }, appType: 'custom', logLevel: 'error', optimizeDeps: { noDiscovery: true, include: [] } });
  try {
    const { measure } = await vite.ssrLoadModule('/bench/chaosRows.ts');
    const c = await measure(mock, questions);
    return [
      { name: `chaos endpoint: questions answered (of ${c.questions})`, value: c.answered, unit: 'runs' },
      { name: `chaos endpoint: questions ended with a failure message (of ${c.questions})`, value: c.failed, unit: 'runs' },
      { name: `chaos endpoint: runs that broke a rule (no end, lost conversation, cause not named, uncaught)`, value: c.problems, unit: 'runs' },
      { name: 'chaos endpoint: requests answered with a failure shape', value: c.requests, unit: 'requests' },
      { name: 'chaos endpoint: slowest run (150 ms stalls)', value: c.slowest_ms, unit: 'ms' },
    ];
  } finally {
    await vite.close();
    await mock.close();
  }
}
