/**
 * Fields a provider attaches to a reply and requires back, exactly, with that reply in the next
 * request — kept on the message (`additional_kwargs.provider_fields`, so they live in the
 * checkpoints and survive a reload, Edit and Regenerate) and put back on the wire:
 *
 * - Gemini 3 through Google's OpenAI-compatible endpoint: `extra_content.google.thought_signature`
 *   on each tool call; without it the next request is refused ("Function call is missing a
 *   thought_signature in functionCall parts", https://ai.google.dev/gemini-api/docs/thought-signatures).
 * - OpenRouter: `reasoning_details` on the assistant message, to be passed back unmodified
 *   (https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks); streamed
 *   as fragments per `index`, put together here.
 *
 * LangChain keeps neither (its delta converter reads only content, tool calls and
 * `reasoning_content`, and it rebuilds tool calls from their parsed form when sending), so the
 * wire moves them into one `provider_fields` delta at the end of the reply, the chat model puts
 * that on the message, and the request side puts them back where the provider expects them.
 */
import type { BaseMessage } from '@langchain/core/messages';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Fields kept per tool call (by call id). */
const CALL_FIELDS = ['extra_content'] as const;
/** Fields kept per assistant message. */
const MESSAGE_FIELDS = ['reasoning_details'] as const;
/** In streamed `reasoning_details`, the fragments of these are concatenated; other keys keep their last value. */
const CONCATENATED = new Set(['text', 'summary', 'data']);

export interface ProviderFields {
  reasoning_details?: unknown[];
  /** Call id → the fields that came on that call, e.g. `{ extra_content: { google: { thought_signature } } }`. */
  tool_calls?: Record<string, Json>;
  /** The endpoint the reply came from: fields go back only to it. */
  endpoint?: string;
}

export function isProviderFields(v: unknown): v is ProviderFields {
  return isObject(v) && (v.reasoning_details === undefined || Array.isArray(v.reasoning_details)) && (v.tool_calls === undefined || isObject(v.tool_calls));
}

function mergeDetail(into: Json, piece: Json): void {
  for (const [k, v] of Object.entries(piece)) {
    if (CONCATENATED.has(k) && typeof v === 'string' && typeof into[k] === 'string') into[k] = `${into[k] as string}${v}`;
    else if (v !== null && v !== undefined) into[k] = v;
    else if (!(k in into)) into[k] = v;
  }
}

/** Takes the provider fields out of one reply's chunks (after normalisation) and gives them back as one. */
export class ProviderFieldCollector {
  #details = new Map<string, Json>();
  #calls: Record<string, Json> = {};
  #idByIndex = new Map<number, string>();
  #template: Json | undefined;

  #call(raw: Json): Json {
    const index = typeof raw.index === 'number' ? raw.index : undefined;
    const id = typeof raw.id === 'string' && raw.id ? raw.id : index !== undefined ? this.#idByIndex.get(index) : undefined;
    if (id && index !== undefined) this.#idByIndex.set(index, id);
    const out: Json = { ...raw };
    for (const f of CALL_FIELDS) {
      if (!(f in out)) continue;
      if (id && out[f] !== undefined && out[f] !== null) this.#calls[id] = { ...this.#calls[id], [f]: out[f] };
      delete out[f];
    }
    return out;
  }

  #details_(list: unknown[]): void {
    list.forEach((d, i) => {
      if (!isObject(d)) return;
      const key = typeof d.index === 'number' ? `i${d.index}` : typeof d.id === 'string' ? `id${d.id}` : `n${this.#details.size + i}`;
      const into = this.#details.get(key);
      if (into) mergeDetail(into, d);
      else this.#details.set(key, { ...d });
    });
  }

  /** One streamed chunk in, the same chunk without the fields out. */
  take(chunk: unknown): unknown {
    if (!isObject(chunk) || !Array.isArray(chunk.choices)) return chunk;
    this.#template ??= chunk;
    const choices = chunk.choices.map((c: unknown) => {
      if (!isObject(c) || !isObject(c.delta)) return c;
      const delta: Json = { ...c.delta };
      for (const f of MESSAGE_FIELDS) {
        if (Array.isArray(delta[f])) this.#details_(delta[f] as unknown[]);
        delete delta[f];
      }
      if (Array.isArray(delta.tool_calls)) delta.tool_calls = delta.tool_calls.map((tc: unknown) => (isObject(tc) ? this.#call(tc) : tc));
      return { ...c, delta };
    });
    return { ...chunk, choices };
  }

  #fields(): ProviderFields | undefined {
    const out: ProviderFields = {};
    if (this.#details.size) out.reasoning_details = [...this.#details.values()];
    if (Object.keys(this.#calls).length) out.tool_calls = this.#calls;
    return Object.keys(out).length ? out : undefined;
  }

  /** The one chunk that carries the reply's fields (none when there were none). */
  end(): unknown[] {
    const fields = this.#fields();
    if (!fields) return [];
    const t = this.#template ?? { id: 'chatcmpl-fields', object: 'chat.completion.chunk', created: 0, model: '' };
    const { choices: _c, usage: _u, ...rest } = t;
    return [{ ...rest, choices: [{ index: 0, delta: { provider_fields: fields }, finish_reason: null, logprobs: null }] }];
  }

  /** A whole completion: the fields move onto `message.provider_fields`. */
  takeWhole(body: unknown): unknown {
    if (!isObject(body) || !Array.isArray(body.choices)) return body;
    const choices = body.choices.map((c: unknown) => {
      if (!isObject(c) || !isObject(c.message)) return c;
      const collector = new ProviderFieldCollector();
      const m: Json = { ...c.message };
      for (const f of MESSAGE_FIELDS) {
        if (Array.isArray(m[f])) collector.#details_(m[f] as unknown[]);
        delete m[f];
      }
      if (Array.isArray(m.tool_calls)) m.tool_calls = m.tool_calls.map((tc: unknown) => (isObject(tc) ? collector.#call(tc) : tc));
      const fields = collector.#fields();
      if (fields) m.provider_fields = fields;
      return { ...c, message: m };
    });
    return { ...body, choices };
  }
}

function callIdsOf(calls: unknown): string[] {
  if (!Array.isArray(calls)) return [];
  return calls.map((c: unknown) => (isObject(c) && typeof c.id === 'string' ? c.id : '')).filter(Boolean);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p: unknown) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join('');
}

/** The key an assistant message is found under on both sides: its call ids, else its text. */
function messageKey(callIds: readonly string[], text: string): string {
  return callIds.length ? `calls:${[...callIds].sort().join(',')}` : `text:${text}`;
}

/**
 * What the messages of a conversation carry, looked up when a request is sent. Keys are call ids
 * and message texts, which do not change between requests, so one store serves concurrent calls.
 */
export class ProviderFieldStore {
  #calls = new Map<string, Json>();
  #messages = new Map<string, unknown[]>();
  /** Each assistant message's reasoning, sent back only to an endpoint that asked (messageRules.ts). */
  #reasoning = new Map<string, string>();

  constructor(private readonly endpoint?: string) {}

  /** Records the fields of the AI messages about to be sent (from this endpoint only). */
  learn(messages: readonly BaseMessage[]): void {
    for (const m of messages) {
      if (m.getType() !== 'ai') continue;
      const reasoning: unknown = m.additional_kwargs?.reasoning_content;
      if (typeof reasoning === 'string' && reasoning) {
        const ids = ((m as { tool_calls?: { id?: string }[] }).tool_calls ?? []).map((c) => c.id ?? '').filter(Boolean);
        this.#reasoning.set(messageKey(ids, textOf(m.content)), reasoning);
      }
      const f: unknown = m.additional_kwargs?.provider_fields;
      if (!isProviderFields(f)) continue;
      if (f.endpoint !== undefined && this.endpoint !== undefined && f.endpoint !== this.endpoint) continue;
      for (const [id, fields] of Object.entries(f.tool_calls ?? {})) this.#calls.set(id, fields);
      if (f.reasoning_details?.length) {
        const ids = ((m as { tool_calls?: { id?: string }[] }).tool_calls ?? []).map((c) => c.id ?? '').filter(Boolean);
        this.#messages.set(messageKey(ids, textOf(m.content)), f.reasoning_details);
      }
    }
  }

  /** A kept field of the assistant message with these call ids (or this text). */
  kept(field: 'reasoning_content', callIds: readonly string[], text: string): string | undefined {
    return field === 'reasoning_content' ? this.#reasoning.get(messageKey(callIds, text)) : undefined;
  }

  call(id: string): Json | undefined {
    return this.#calls.get(id);
  }

  message(callIds: readonly string[], text: string): unknown[] | undefined {
    return this.#messages.get(messageKey(callIds, text));
  }
}

/** Puts the stored fields back on the request's assistant messages, in the provider's places. */
export function attachProviderFields(body: Json, store: ProviderFieldStore): void {
  if (!Array.isArray(body.messages)) return;
  body.messages = body.messages.map((m: unknown) => {
    if (!isObject(m) || m.role !== 'assistant') return m;
    const out: Json = { ...m };
    const ids = callIdsOf(m.tool_calls);
    if (Array.isArray(m.tool_calls)) {
      out.tool_calls = m.tool_calls.map((tc: unknown) => {
        if (!isObject(tc) || typeof tc.id !== 'string') return tc;
        const kept = store.call(tc.id);
        return kept ? { ...tc, ...kept } : tc;
      });
    }
    const details = store.message(ids, textOf(m.content));
    if (details && out.reasoning_details === undefined) out.reasoning_details = details;
    return out;
  });
}
