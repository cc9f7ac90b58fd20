/**
 * Brings a provider's chat-completion chunks (or whole completion) to the one shape the rest of
 * the app reads: reasoning only in `reasoning_content` (OpenRouter and newer Ollama send
 * `reasoning`; Ollama/llama.cpp/vLLM without a reasoning parser put `<think>` in `content`),
 * tool calls with an index, an id, a type and string arguments, and a call the model wrote as
 * text turned into a real call. Everything else passes through untouched.
 */
import { ThinkSplitter, splitThink } from './thinkSplitter';
import { mightBeToolCallText, recogniseToolCalls, type TextToolCall } from './toolCallText';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the normaliser noticed, for the capability check and the status steps. */
export interface WireObservations {
  reasoning: 'reasoning_content' | 'reasoning' | 'inline_tags' | 'none';
  /** Tool calls recovered from text or from a tool_use_failed error. */
  recoveredCalls: number;
}

const ID_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/**
 * An id for a call the provider sent without one: nine letters and digits, the strictest form a
 * provider is known to require when the id comes back (Mistral: "must be a-z, A-Z, 0-9, with a
 * length of 9").
 */
function newCallId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return Array.from(bytes, (b) => ID_CHARS[b % ID_CHARS.length]).join('');
}

interface ChoiceState {
  splitter: ThinkSplitter;
  /** 'hold' while content could still be a written tool call. */
  mode: 'hold' | 'text';
  held: string;
  /** Provider id → our index, and the last index seen (for chunks that carry neither). */
  indexById: Map<string, number>;
  nextIndex: number;
  lastIndex: number;
  seenIndexes: Set<number>;
  sawCalls: boolean;
  finished: boolean;
}

function argsString(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** Tool calls as chunk deltas with every field a parser needs. */
export function callDeltas(calls: readonly TextToolCall[], firstIndex: number): Json[] {
  return calls.map((c, i) => ({ index: firstIndex + i, id: newCallId(), type: 'function', function: { name: c.name, arguments: c.arguments } }));
}

export class ChunkNormaliser {
  readonly observed: WireObservations = { reasoning: 'none', recoveredCalls: 0 };
  #choices = new Map<number, ChoiceState>();
  #template: Json | undefined;

  constructor(private readonly toolNames: readonly string[]) {}

  #state(index: number): ChoiceState {
    let s = this.#choices.get(index);
    if (!s) {
      s = {
        splitter: new ThinkSplitter(),
        mode: this.toolNames.length ? 'hold' : 'text',
        held: '',
        indexById: new Map(),
        nextIndex: 0,
        lastIndex: 0,
        seenIndexes: new Set(),
        sawCalls: false,
        finished: false,
      };
      this.#choices.set(index, s);
    }
    return s;
  }

  #note(shape: WireObservations['reasoning']): void {
    if (this.observed.reasoning === 'none') this.observed.reasoning = shape;
  }

  #chunk(choiceIndex: number, delta: Json, finish: string | null = null): Json {
    const t = this.#template ?? { id: 'chatcmpl-normalised', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: '' };
    const { choices: _c, usage: _u, ...rest } = t;
    return { ...rest, choices: [{ index: choiceIndex, delta, finish_reason: finish, logprobs: null }] };
  }

  #toolCall(s: ChoiceState, raw: unknown): Json | undefined {
    if (!isObject(raw)) return undefined;
    const tc: Json = { ...raw };
    const id = typeof tc.id === 'string' && tc.id ? tc.id : undefined;
    let index = typeof tc.index === 'number' ? tc.index : undefined;
    if (index === undefined) {
      if (id && s.indexById.has(id)) index = s.indexById.get(id);
      else if (id || isObject(tc.function) && typeof (tc.function as Json).name === 'string') index = s.seenIndexes.size ? Math.max(...s.seenIndexes) + 1 : 0;
      else index = s.lastIndex;
    }
    const idx = index ?? 0;
    const first = !s.seenIndexes.has(idx);
    s.seenIndexes.add(idx);
    s.lastIndex = idx;
    tc.index = idx;
    if (id) s.indexById.set(id, idx);
    if (first) {
      if (!id) tc.id = newCallId();
      tc.type = 'function';
    } else if (!id) {
      delete tc.id;
    }
    if (isObject(tc.function)) {
      const fn = { ...(tc.function as Json) };
      const args = argsString(fn.arguments);
      if (args !== undefined) fn.arguments = args;
      else if (first) fn.arguments = '';
      tc.function = fn;
    }
    s.sawCalls = true;
    return tc;
  }

  /** Content after the think splitter: held while it could be a written call. */
  #content(s: ChoiceState, text: string): string {
    if (!text) return '';
    if (s.mode === 'text' || s.sawCalls) return text;
    s.held += text;
    if (mightBeToolCallText(s.held, this.toolNames)) return '';
    s.mode = 'text';
    const out = s.held;
    s.held = '';
    return out;
  }

  /** Releases what a choice still holds; returns the extra chunks and whether calls were made of it. */
  #flush(choiceIndex: number, s: ChoiceState): { chunks: Json[]; madeCalls: boolean } {
    const chunks: Json[] = [];
    const rest = s.splitter.end();
    if (rest.reasoning) chunks.push(this.#chunk(choiceIndex, { reasoning_content: rest.reasoning }));
    let text = rest.content;
    if (s.mode === 'hold') {
      text = s.held + text;
      s.held = '';
      const calls = s.sawCalls ? [] : recogniseToolCalls(text, this.toolNames);
      if (calls.length) {
        this.observed.recoveredCalls += calls.length;
        s.sawCalls = true;
        chunks.push(this.#chunk(choiceIndex, { tool_calls: callDeltas(calls, s.seenIndexes.size) }));
        return { chunks, madeCalls: true };
      }
    }
    if (text) chunks.push(this.#chunk(choiceIndex, { content: text }));
    return { chunks, madeCalls: false };
  }

  /** One parsed SSE `data` object in, the objects to send on out. */
  push(data: unknown): unknown[] {
    if (!isObject(data) || !Array.isArray(data.choices)) return [data];
    if (!this.#template) this.#template = data;
    const before: Json[] = [];
    const choices = data.choices.map((raw: unknown) => {
      if (!isObject(raw)) return raw;
      const ch: Json = { ...raw };
      const ci = typeof ch.index === 'number' ? ch.index : 0;
      const s = this.#state(ci);
      const d: Json = isObject(ch.delta) ? { ...ch.delta } : {};
      if (typeof d.reasoning === 'string') {
        this.#note('reasoning');
        if (typeof d.reasoning_content !== 'string') d.reasoning_content = d.reasoning;
        delete d.reasoning;
      } else if (typeof d.reasoning_content === 'string' && d.reasoning_content) {
        this.#note('reasoning_content');
      }
      if (typeof d.refusal === 'string' && d.refusal) {
        // OpenAI's `refusal` (the model declined): shown as the answer, not dropped silently.
        d.content = `${typeof d.content === 'string' ? d.content : ''}${d.refusal}`;
        delete d.refusal;
      }
      if (typeof d.content === 'string' && d.content) {
        const piece = s.splitter.push(d.content);
        if (piece.reasoning) {
          this.#note('inline_tags');
          d.reasoning_content = `${typeof d.reasoning_content === 'string' ? d.reasoning_content : ''}${piece.reasoning}`;
        }
        d.content = this.#content(s, piece.content);
      }
      if (Array.isArray(d.tool_calls)) {
        // Calls arriving after held text: the text was prose, let it out first.
        if (s.mode === 'hold' && s.held) {
          before.push(this.#chunk(ci, { content: s.held }));
          s.held = '';
        }
        s.mode = 'text';
        d.tool_calls = d.tool_calls.map((tc: unknown) => this.#toolCall(s, tc)).filter((tc): tc is Json => tc !== undefined);
      }
      let finish = typeof ch.finish_reason === 'string' ? ch.finish_reason : null;
      if (finish && !s.finished) {
        s.finished = true;
        const { chunks, madeCalls } = this.#flush(ci, s);
        before.push(...chunks);
        if ((madeCalls || s.sawCalls) && finish === 'stop') finish = 'tool_calls';
      }
      ch.delta = d;
      ch.finish_reason = finish;
      return ch;
    });
    return [...before, { ...data, choices }];
  }

  /** The stream ended (`[DONE]` or closed): whatever is still held, with a finish chunk if none came. */
  end(): unknown[] {
    const out: Json[] = [];
    for (const [ci, s] of this.#choices) {
      if (s.finished) continue;
      s.finished = true;
      const { chunks, madeCalls } = this.#flush(ci, s);
      out.push(...chunks);
      if (madeCalls) out.push(this.#chunk(ci, {}, 'tool_calls'));
    }
    return out;
  }

  /**
   * Groq's `tool_use_failed` (https://github.com/groq/groq-typescript/issues/103,
   * https://github.com/huggingface/smolagents/issues/1119; mid-stream as `event: error`:
   * https://github.com/anomalyco/opencode/issues/1018): the call it could not parse becomes
   * the call it meant when it is recognisable, else a call with unreadable arguments, which the
   * agent answers with an error so the model writes it again (a failed attempt, not "no tools").
   */
  failedGeneration(generation: string): unknown[] {
    const s = this.#state(0);
    const calls = recogniseToolCalls(generation, this.toolNames);
    const deltas = calls.length
      ? callDeltas(calls, s.seenIndexes.size)
      : [{ index: s.seenIndexes.size, id: newCallId(), type: 'function', function: { name: this.toolNames.find((n) => generation.includes(n)) ?? this.toolNames[0] ?? 'unknown', arguments: `(unreadable tool call: ${generation.slice(0, 400) || 'empty'})` } }];
    this.observed.recoveredCalls += calls.length;
    s.sawCalls = true;
    s.finished = true;
    return [this.#chunk(0, { role: 'assistant', content: '', tool_calls: deltas }), this.#chunk(0, {}, 'tool_calls')];
  }
}

/** The same for a whole (non-streamed) completion body. */
export function normaliseCompletion(body: unknown, toolNames: readonly string[], observed?: WireObservations): unknown {
  if (!isObject(body) || !Array.isArray(body.choices)) return body;
  const choices = body.choices.map((raw: unknown) => {
    if (!isObject(raw) || !isObject(raw.message)) return raw;
    const m: Json = { ...raw.message };
    if (typeof m.refusal === 'string' && m.refusal && !m.content) {
      m.content = m.refusal;
      delete m.refusal;
    }
    if (typeof m.reasoning === 'string') {
      if (observed && observed.reasoning === 'none') observed.reasoning = 'reasoning';
      if (typeof m.reasoning_content !== 'string') m.reasoning_content = m.reasoning;
      delete m.reasoning;
    } else if (observed && observed.reasoning === 'none' && typeof m.reasoning_content === 'string' && m.reasoning_content) {
      observed.reasoning = 'reasoning_content';
    }
    if (typeof m.content === 'string') {
      const split = splitThink(m.content);
      if (split.sawTags) {
        if (observed && observed.reasoning === 'none') observed.reasoning = 'inline_tags';
        m.reasoning_content = `${typeof m.reasoning_content === 'string' ? m.reasoning_content : ''}${split.reasoning}`;
        m.content = split.content;
      }
    }
    let finish = raw.finish_reason;
    if (Array.isArray(m.tool_calls) && m.tool_calls.length) {
      m.tool_calls = m.tool_calls.map((tc: unknown) => {
        if (!isObject(tc)) return tc;
        const fn = isObject(tc.function) ? { ...tc.function, arguments: argsString(tc.function.arguments) ?? '{}' } : tc.function;
        return { ...tc, id: typeof tc.id === 'string' && tc.id ? tc.id : newCallId(), type: 'function', function: fn };
      });
      if (finish === 'stop') finish = 'tool_calls';
    } else if (typeof m.content === 'string' && toolNames.length) {
      const calls = recogniseToolCalls(m.content, toolNames);
      if (calls.length) {
        if (observed) observed.recoveredCalls += calls.length;
        m.tool_calls = callDeltas(calls, 0).map(({ index: _i, ...tc }) => tc);
        m.content = '';
        finish = 'tool_calls';
      }
    }
    return { ...raw, message: m, finish_reason: finish };
  });
  return { ...body, choices };
}
