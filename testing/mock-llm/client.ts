/**
 * The scripted endpoint's control API (server.mjs: /__script, /__requests, /__reset) as tests
 * call it, for both the Playwright specs and the Vitest files; each registers its own hooks.
 */
import type { RecordedRequest, ScriptedReply } from './server.mjs';

export interface MockEndpoint {
  /** The server's origin; `${url}/v1` is the base URL the app or client is given. */
  readonly url: string;
  /** Replaces the queued replies; `extra` sets the server's other options (`require_key`, `models`…). */
  script(replies: ScriptedReply[], extra?: Record<string, unknown>): Promise<void>;
  /** Every request received since the last reset, oldest first. */
  recorded(): Promise<RecordedRequest[]>;
  /** Only the chat completion requests (no preflights, no /models). */
  chatRequests(): Promise<RecordedRequest[]>;
  /** Clears the queue, the records and the configuration. */
  reset(): Promise<void>;
}

/** The control API of the server whose origin `origin()` gives (it may start later than this is made). */
export function mockEndpointClient(origin: () => string): MockEndpoint {
  const endpoint: MockEndpoint = {
    get url() {
      return origin();
    },
    async script(replies, extra = {}) {
      const res = await fetch(`${origin()}/__script`, { method: 'POST', body: JSON.stringify({ replies, replace: true, ...extra }) });
      if (!res.ok) throw new Error(`the scripted endpoint refused the script: HTTP ${res.status}`);
    },
    async recorded() {
      return (await (await fetch(`${origin()}/__requests`)).json()) as RecordedRequest[];
    },
    async chatRequests() {
      return (await endpoint.recorded()).filter((r) => r.path === '/v1/chat/completions' && r.method === 'POST');
    },
    async reset() {
      await fetch(`${origin()}/__reset`, { method: 'POST' });
    },
  };
  return endpoint;
}

/** The origin of a server started by a hook, or a clear error when it is used too early. */
export function startedOrigin(server: () => { url: string } | undefined): () => string {
  return () => {
    const s = server();
    if (!s) throw new Error('the scripted endpoint has not started');
    return s.url;
  };
}
