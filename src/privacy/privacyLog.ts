/**
 * The privacy log on the main thread: fetched from the agent worker per thread, and the pure
 * helpers the dialog shows it with (totals, pretty body, labels).
 */
import type { AgentEvent, AgentRequests, PrivacyLogEntry } from '../../protocol/agent/wire';
import type { RpcClient } from '../../protocol/rpcClient';

/** What the log needs of the agent client: its started worker. */
export interface PrivacyLogSource {
  start(): Promise<Pick<RpcClient<AgentRequests, AgentEvent>, 'call'>>;
}

export async function loadPrivacyLog(source: PrivacyLogSource, threadId: string): Promise<PrivacyLogEntry[]> {
  const rpc = await source.start();
  return rpc.call('privacyLog', { thread_id: threadId });
}

export interface TokenTotals {
  /** Tokens sent (prompt), summed over the requests that reported them. */
  input: number;
  /** Tokens received (completion). */
  output: number;
  /** Requests whose usage the endpoint did not report. */
  unreported: number;
  /** Requests whose usage is estimated (the endpoint sent a response but no token counts). */
  estimated: number;
}

export function tokenTotals(entries: readonly PrivacyLogEntry[]): TokenTotals {
  const t: TokenTotals = { input: 0, output: 0, unreported: 0, estimated: 0 };
  for (const e of entries) {
    if (!e.usage) {
      t.unreported++;
      continue;
    }
    if (e.usage.estimated) t.estimated++;
    t.input += e.usage.prompt_tokens ?? 0;
    t.output += e.usage.completion_tokens ?? 0;
  }
  return t;
}

/** The body indented for reading (JSON), or as sent when it is not JSON. */
export function prettyBody(body: string): string {
  if (body === '') return '(no body)';
  try {
    return JSON.stringify(JSON.parse(body) as unknown, null, 2);
  } catch {
    return body;
  }
}

export function statusLabel(e: PrivacyLogEntry): string {
  if (e.status !== null) return `HTTP ${e.status}`;
  return e.error ? 'no response' : 'in flight';
}

export function tokensLabel(e: PrivacyLogEntry): string {
  if (!e.usage) return 'tokens not reported';
  const approx = e.usage.estimated ? '~' : '';
  const n = (v: number | null) => (v === null ? '?' : `${approx}${v.toLocaleString('en-US')}`);
  return `${n(e.usage.prompt_tokens)} in / ${n(e.usage.completion_tokens)} out${e.usage.estimated ? ' (estimated)' : ''}`;
}

export function sizeLabel(body: string): string {
  const bytes = new TextEncoder().encode(body).length;
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** What kind of request it was, from the URL and body, for the list. */
export function requestKind(e: PrivacyLogEntry): string {
  const path = (() => {
    try {
      return new URL(e.url).pathname;
    } catch {
      return e.url;
    }
  })();
  if (/\/embeddings$/.test(path)) return 'embeddings';
  if (/\/models$/.test(path)) return 'models';
  if (/\/chat\/completions$/.test(path)) {
    try {
      const b = JSON.parse(e.body) as { response_format?: { json_schema?: { name?: unknown } }; tool_choice?: { function?: { name?: unknown } } };
      const name = b.response_format?.json_schema?.name ?? b.tool_choice?.function?.name;
      if (typeof name === 'string') return `chat (${name})`;
    } catch {
      // not JSON: a plain chat request as far as the list is concerned
    }
    return 'chat';
  }
  return 'request';
}
