/**
 * A `fetch` that records what it sends, for the privacy log: the URL, the method and the body
 * text exactly as handed to the network (the SDK's JSON string), then the status and the token
 * usage the endpoint reported. Headers are never read, so the key in `Authorization` cannot end
 * up in the log. The response goes back to the caller untouched; usage is read from a clone, so
 * the SDK still gets the whole (streamed) body.
 */
import type { TokenUsage } from '../../../protocol/agent/wire';
import { splitThink } from '../llm/wire/thinkSplitter';

export interface SentRequest {
  /** ISO 8601 time the request was handed to fetch. */
  at: string;
  url: string;
  method: string;
  body: string;
}

export interface RequestOutcome {
  status: number | null;
  usage: TokenUsage | null;
  error?: string;
  /** Reasoning text the response carried (received text the privacy log lists). */
  reasoning?: string;
}

/** Told about each request as it is sent; returns where to report how it ended. */
export type RequestSink = (request: SentRequest) => (outcome: RequestOutcome) => void;

export interface RecordingFetchOptions {
  now?: () => Date;
}

function urlOf(input: RequestInfo | URL): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

/** The body as text, without consuming anything the real request still needs. */
async function bodyText(input: RequestInfo | URL, init: RequestInit | undefined): Promise<string> {
  const body = init?.body;
  if (body === undefined || body === null) {
    // A Request carries its own body; a clone can be read without disturbing it.
    if (typeof input === 'object' && !(input instanceof URL) && input.body) return input.clone().text();
    return '';
  }
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return new TextDecoder().decode(body);
  if (ArrayBuffer.isView(body)) return new TextDecoder().decode(body);
  if (typeof Blob !== 'undefined' && body instanceof Blob) return body.text();
  // FormData gets its boundary from fetch itself, and a stream can be read only once.
  return `[a ${body.constructor?.name ?? 'streamed'} body that cannot be recorded without consuming it]`;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function toUsage(v: unknown): TokenUsage | null {
  if (typeof v !== 'object' || v === null) return null;
  const u = v as Record<string, unknown>;
  const usage = { prompt_tokens: num(u.prompt_tokens), completion_tokens: num(u.completion_tokens), total_tokens: num(u.total_tokens) };
  return usage.prompt_tokens === null && usage.completion_tokens === null && usage.total_tokens === null ? null : usage;
}

/**
 * The usage in a response body: the `usage` of a JSON body, or of the last server-sent event
 * that has one (the final chunk when `stream_options.include_usage` is on). Null when absent.
 */
export function usageFromBody(text: string, contentType: string): TokenUsage | null {
  if (/text\/event-stream/i.test(contentType) || /^\s*data:/.test(text)) {
    let found: TokenUsage | null = null;
    for (const line of text.split(/\r?\n/)) {
      const m = /^data:\s?(.*)$/.exec(line);
      const data = m?.[1]?.trim();
      if (!data || data === '[DONE]') continue;
      try {
        const u = toUsage((JSON.parse(data) as { usage?: unknown }).usage);
        if (u) found = u;
      } catch {
        // Not JSON (a comment or a provider's keep-alive): no usage in it.
      }
    }
    return found;
  }
  try {
    return toUsage((JSON.parse(text) as { usage?: unknown }).usage);
  } catch {
    return null;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text a response delivered: answer, reasoning (any shape) and tool-call arguments. */
export function receivedText(text: string, contentType: string): { content: string; reasoning: string } {
  const objects: unknown[] = [];
  if (/text\/event-stream/i.test(contentType) || /^\s*data:/.test(text)) {
    for (const line of text.split(/\r?\n/)) {
      const m = /^data:\s?(.*)$/.exec(line);
      const data = m?.[1]?.trim();
      if (!data || data === '[DONE]') continue;
      try {
        objects.push(JSON.parse(data));
      } catch {
        // A keep-alive or other non-JSON line.
      }
    }
  } else {
    try {
      objects.push(JSON.parse(text));
    } catch {
      return { content: '', reasoning: '' };
    }
  }
  let content = '';
  let reasoning = '';
  for (const o of objects) {
    if (!isObject(o) || !Array.isArray(o.choices)) continue;
    for (const ch of o.choices) {
      if (!isObject(ch)) continue;
      const d = isObject(ch.delta) ? ch.delta : isObject(ch.message) ? ch.message : {};
      if (typeof d.content === 'string') content += d.content;
      for (const k of ['reasoning_content', 'reasoning'] as const) if (typeof d[k] === 'string') reasoning += d[k];
      if (Array.isArray(d.tool_calls)) {
        for (const tc of d.tool_calls) {
          const args = isObject(tc) && isObject(tc.function) ? tc.function.arguments : undefined;
          content += typeof args === 'string' ? args : args === undefined ? '' : JSON.stringify(args);
        }
      }
    }
  }
  const split = splitThink(content);
  return { content: split.content, reasoning: reasoning + split.reasoning };
}

/** About four characters a token: enough to show an order of magnitude, never 0 for real text. */
const estimateTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

/** The endpoint reported no usage: estimate it from what was sent and received, and say so. */
export function estimatedUsage(sentBody: string, received: { content: string; reasoning: string }): TokenUsage {
  const prompt = estimateTokens(sentBody);
  const completion = estimateTokens(received.content + received.reasoning);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, estimated: true };
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message || e.name : String(e));

export function createRecordingFetch(inner: typeof fetch, sink: RequestSink, options: RecordingFetchOptions = {}): typeof fetch {
  const now = options.now ?? (() => new Date());
  const recording = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const at = now().toISOString();
    const method = (init?.method ?? (typeof input === 'object' && !(input instanceof URL) ? input.method : undefined) ?? 'GET').toUpperCase();
    const body = await bodyText(input, init);
    const finish = sink({ at, url: urlOf(input), method, body });
    let res: Response;
    try {
      res = await inner(input, init);
    } catch (e) {
      finish({ status: null, usage: null, error: messageOf(e) });
      throw e;
    }
    if (!res.ok || !res.body) {
      finish({ status: res.status, usage: null });
      return res;
    }
    // Read a tee of the body in the background: the caller gets the response at once.
    const copy = res.clone();
    void copy.text().then(
      (text) => {
        const type = res.headers.get('content-type') ?? '';
        const received = receivedText(text, type);
        const reported = usageFromBody(text, type);
        const usage = reported ?? (/\/chat\/completions/.test(urlOf(input)) ? estimatedUsage(body, received) : null);
        finish({ status: res.status, usage, ...(received.reasoning ? { reasoning: received.reasoning } : {}) });
      },
      (e: unknown) => finish({ status: res.status, usage: null, error: `the response was cut off (${messageOf(e)})` }),
    );
    return res;
  };
  return recording as typeof fetch;
}
