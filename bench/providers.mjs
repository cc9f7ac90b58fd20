// Provider rows for `npm run bench` (issue #10): extra requests each provider persona of the
// scripted endpoint costs per question, first and second question of a thread (goal: at most
// one per learned refusal on the first, zero after). Runs the app's TypeScript through Vite's
// SSR loader against testing/mock-llm; no browser.
import { createServer } from 'vite';
import { startMockLlm } from '../testing/mock-llm/server.mjs';

export async function providerRows() {
  const mock = await startMockLlm({ port: 0 });
  const vite = await createServer({ server: { middlewareMode: true, hmr: false }, appType: 'custom', logLevel: 'error', optimizeDeps: { noDiscovery: true, include: [] } });
  try {
    const { measure } = await vite.ssrLoadModule('/bench/providerRequests.ts');
    const control = {
      url: mock.url,
      script: async (replies, extra) => {
        await fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify({ replies, replace: true, ...extra }) });
      },
      chatRequests: async () => mock.state.requests.filter((r) => r.path === '/v1/chat/completions' && r.method === 'POST').length,
      reset: async () => {
        await fetch(`${mock.url}/__reset`, { method: 'POST' });
      },
    };
    const results = await measure(control);
    return results.flatMap((r) => [
      { name: `provider ${r.persona} (${r.model}): extra requests, 1st question`, value: r.first, unit: 'requests' },
      { name: `provider ${r.persona} (${r.model}): extra requests, 2nd question`, value: r.second, unit: 'requests' },
    ]);
  } finally {
    await vite.close();
    await mock.close();
  }
}
