/**
 * The layer under the wire adapter that makes a request fit what the endpoint can do: the text
 * tool protocol (textTools.ts) once the server refused automatic tool calls, and the context
 * window (contextWindow.ts) once it is known. A refusal of either kind is learned (kept in the
 * endpoint profile), said once as a `provider_adjusted` step and the request is sent again
 * adapted — once; a second refusal goes up as it came.
 */
import type { EndpointProfile, EndpointProfileStore } from './endpointProfile';
import { estimateRequestTokens, fitToWindow, windowRefusal, type KnowledgeSection } from './contextWindow';
import { hasToolHistory, isAutoToolRequest, readTextToolCalls, refusesAutoTools, toTextProtocol } from './textTools';
import { errorFields } from './wire/params';
import { sseStream, type SseEvent } from './wire/sse';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export type ToolMode = 'native' | 'text';

export interface AdaptMemory {
  /** How this endpoint + model takes tools (undefined: not known yet, native is tried). */
  toolMode(): ToolMode | undefined;
  setToolMode(mode: ToolMode): void;
  /** The prompt size requests are fitted to, in the app's token estimate; undefined: no limit known. */
  window(): number | undefined;
  learnWindow(tokens: number): void;
}

export interface AdaptOptions {
  memory: AdaptMemory;
  onAdapt?: (detail: string) => void;
  /** (issue 32) The run's knowledge in the system prompt, refitted whole when a request must be fitted. */
  knowledge?: () => KnowledgeSection | undefined;
}

/** A memory that forgets (tests, one-off calls); `window` is a fixed limit such as Settings'. */
export function transientAdaptMemory(window?: number): AdaptMemory & { learned: { toolMode?: ToolMode; window?: number } } {
  const learned: { toolMode?: ToolMode; window?: number } = {};
  return {
    learned,
    toolMode: () => learned.toolMode,
    setToolMode: (m) => void (learned.toolMode = m),
    window: () => [learned.window, window].filter((w): w is number => w !== undefined).reduce((a, b) => Math.min(a, b), Infinity) || undefined,
    learnWindow: (t) => void (learned.window = t),
  };
}

function urlOf(input: RequestInfo | URL): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

const ID_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
function callId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => ID_CHARS[b % ID_CHARS.length]).join('');
}

function toolNamesOf(body: Json): string[] {
  return (Array.isArray(body.tools) ? body.tools : [])
    .map((t: unknown) => (isObject(t) && isObject(t.function) ? t.function.name : undefined))
    .filter((n): n is string => typeof n === 'string');
}

/** A whole completion whose written calls became tool calls. */
export function readCompletion(json: Json, toolNames: readonly string[]): Json {
  if (!Array.isArray(json.choices)) return json;
  const choices = json.choices.map((raw: unknown) => {
    if (!isObject(raw) || !isObject(raw.message) || typeof raw.message.content !== 'string') return raw;
    if (Array.isArray(raw.message.tool_calls) && raw.message.tool_calls.length) return raw;
    const { content, calls } = readTextToolCalls(raw.message.content, toolNames);
    if (!calls.length) return raw;
    const tool_calls = calls.map((c) => ({ id: callId(), type: 'function', function: { name: c.name, arguments: c.arguments } }));
    return { ...raw, message: { ...raw.message, content: content || null, tool_calls }, finish_reason: 'tool_calls' };
  });
  return { ...json, choices };
}

/** A whole completion as the stream the caller asked for. */
function completionEvents(json: Json): SseEvent[] {
  const { choices, usage, object: _o, ...meta } = json;
  const chunk = (delta: Json, finish: string | null = null): SseEvent => ({
    data: JSON.stringify({ ...meta, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] }),
  });
  const events: SseEvent[] = [];
  const choice = Array.isArray(choices) && isObject(choices[0]) ? choices[0] : {};
  const m = isObject(choice.message) ? choice.message : {};
  events.push(chunk({ role: 'assistant', content: '' }));
  if (typeof m.reasoning_content === 'string' && m.reasoning_content) events.push(chunk({ reasoning_content: m.reasoning_content }));
  if (typeof m.reasoning === 'string' && m.reasoning) events.push(chunk({ reasoning: m.reasoning }));
  if (typeof m.content === 'string' && m.content) events.push(chunk({ content: m.content }));
  const calls = Array.isArray(m.tool_calls) ? m.tool_calls.filter(isObject) : [];
  if (calls.length) events.push(chunk({ tool_calls: calls.map((c, index) => ({ index, ...c })) }));
  events.push(chunk({}, typeof choice.finish_reason === 'string' ? choice.finish_reason : calls.length ? 'tool_calls' : 'stop'));
  if (isObject(usage)) events.push({ data: JSON.stringify({ ...meta, object: 'chat.completion.chunk', choices: [], usage }) });
  events.push({ data: '[DONE]' });
  return events;
}

async function* listed(events: SseEvent[]): AsyncGenerator<SseEvent> {
  for (const e of events) yield e;
}

function headersOf(res: Response, type: string): Headers {
  const h = new Headers(res.headers);
  h.delete('content-length');
  h.delete('content-encoding');
  h.set('content-type', type);
  return h;
}

export function createAdaptFetch(inner: typeof fetch, options: AdaptOptions): typeof fetch {
  const { memory } = options;
  return async (input, init) => {
    if (!/\/chat\/completions(?:[?#]|$)/.test(urlOf(input)) || typeof init?.body !== 'string') return inner(input, init);
    let original: Json;
    try {
      const parsed: unknown = JSON.parse(init.body);
      if (!isObject(parsed) || !Array.isArray(parsed.messages)) return inner(input, init);
      original = parsed;
    } catch {
      return inner(input, init);
    }
    const autoTools = isAutoToolRequest(original);
    const toolNames = toolNamesOf(original);
    const wantsStream = original.stream === true;
    let switched = false;
    let refitted = false;
    let windowNote: ((changes: string[]) => string) | undefined;
    for (;;) {
      const textMode = memory.toolMode() === 'text' && (autoTools || hasToolHistory(original));
      let body = textMode ? toTextProtocol(original) : original;
      if (textMode && autoTools && wantsStream) {
        // The calls are read from the whole reply, so it is asked for whole and streamed on.
        const { stream_options: _so, ...rest } = body;
        body = { ...rest, stream: false };
      }
      const window = memory.window();
      if (window !== undefined) {
        const fitted = fitToWindow(body, window, options.knowledge?.());
        body = fitted.body;
        if (windowNote) {
          options.onAdapt?.(windowNote(fitted.changes));
          windowNote = undefined;
        }
      }
      const res = await inner(input, { ...init, body: JSON.stringify(body) });
      if (!res.ok && [400, 413, 422, 500].includes(res.status)) {
        const text = await res.clone().text();
        if (autoTools && !textMode && !switched && refusesAutoTools(res.status, text)) {
          switched = true;
          memory.setToolMode('text');
          options.onAdapt?.(
            `The endpoint does not take automatic tool calls (“${errorFields(text).message.slice(0, 160)}”): the tools are described in the prompt and the calls the model writes are read from its reply. Remembered for this model.`,
          );
          continue;
        }
        const over = windowRefusal(res.status, text);
        if (over && !refitted) {
          refitted = true;
          const sent = estimateRequestTokens(body);
          // In the app's own estimate, so a server that counts more tokens than we do still fits.
          const scale = over.promptTokens ? Math.min(1, sent / over.promptTokens) : 1;
          const learned = over.window ? Math.floor(over.window * scale) : Math.floor(Math.min(window ?? sent, sent) * 0.7);
          memory.learnWindow(learned);
          windowNote = (changes) =>
            `The endpoint refused a prompt longer than its context window${over.window ? ` of ${over.window} tokens` : ''}: requests are now fitted to it${changes.length ? ` (${changes.join(', ')})` : ''}. Remembered for this model.`;
          continue;
        }
        return res;
      }
      if (!res.ok || !(textMode && autoTools)) return res;
      const json: unknown = await res.json();
      const read = isObject(json) ? readCompletion(json, toolNames) : json;
      if (wantsStream && isObject(read) && Array.isArray(read.choices)) {
        return new Response(sseStream(listed(completionEvents(read))), { status: 200, headers: headersOf(res, 'text/event-stream') });
      }
      return new Response(JSON.stringify(read), { status: res.status, statusText: res.statusText, headers: headersOf(res, 'application/json') });
    }
  };
}

/**
 * The memory for one endpoint + model, read from its stored profile and written back to it:
 * the tool mode and the learned window survive the run, so each is learned (and said) once.
 * A context budget set in Settings caps the window too.
 */
export function profileAdaptMemory(
  store: Pick<EndpointProfileStore, 'update'>,
  settings: { baseUrl: string; model: string; contextTokens?: number | undefined },
  profile: Pick<EndpointProfile, 'toolMode' | 'contextWindow'> | undefined,
): AdaptMemory {
  let toolMode = profile?.toolMode;
  let learned = profile?.contextWindow;
  const save = (patch: Partial<Pick<EndpointProfile, 'toolMode' | 'contextWindow'>>) => void store.update(settings.baseUrl, settings.model, patch).catch(() => undefined);
  return {
    toolMode: () => toolMode,
    setToolMode: (m) => {
      toolMode = m;
      save({ toolMode: m });
    },
    window: () => {
      const known = [learned, settings.contextTokens].filter((w): w is number => typeof w === 'number' && w > 0);
      return known.length ? Math.min(...known) : undefined;
    },
    learnWindow: (t) => {
      learned = t;
      save({ contextWindow: t });
    },
  };
}
