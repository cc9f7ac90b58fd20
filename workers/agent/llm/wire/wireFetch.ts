/**
 * The `fetch` the chat model talks through: it adapts each chat-completion request to what the
 * endpoint takes (params.ts), retries once without a parameter the endpoint refuses (and
 * remembers it, so it costs one extra request once), turns Groq's `tool_use_failed` into the call
 * the model meant, and normalises the answer (normalise.ts) before LangChain parses it. Working
 * on the wire keeps this independent of LangChain's internals and the same for every model call.
 */
import { ChunkNormaliser, normaliseCompletion, type WireObservations } from './normalise';
import { DROPPABLE_PARAMS, errorFields, refusedParam, shapeRequest } from './params';
import { readSse, sseStream, type SseEvent } from './sse';
import { isModelNotFound, openAiErrorJson, readErrorBody } from './errorBody';
import { ProviderStreamError } from './streamError';
import { ProviderFieldCollector, type ProviderFieldStore, attachProviderFields } from './roundTrip';
import { RULE_LABELS, applyMessageRules, messageRuleFor, type MessageRule } from './messageRules';

export interface WireMemory {
  /** Parameters this endpoint + model refused before (loaded before the run). */
  readonly refused: ReadonlySet<string>;
  /** Records a refusal for this and later runs. */
  remember(param: string): void;
  /** Message rules this endpoint + model asked for before (messageRules.ts). */
  readonly rules?: ReadonlySet<MessageRule>;
  /** Records a message rule for this and later runs. */
  learnRule?(rule: MessageRule): void;
}

export interface WireOptions {
  model: string;
  memory: WireMemory;
  /** Told when the request had to be adapted (shown as a status step). */
  onAdapt?: (detail: string) => void;
  /** Filled in as responses arrive (reasoning shape, recovered calls). */
  observed?: WireObservations;
  /** Provider fields of earlier replies that must go back with them (roundTrip.ts). */
  providerFields?: ProviderFieldStore;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const DROPPABLE = new Set<string>(DROPPABLE_PARAMS);

function urlOf(input: RequestInfo | URL): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

function toolNamesOf(body: Json): string[] {
  if (!Array.isArray(body.tools)) return [];
  return body.tools
    .map((t: unknown) => (isObject(t) && isObject(t.function) ? t.function.name : undefined))
    .filter((n): n is string => typeof n === 'string');
}

function merge(into: WireObservations | undefined, from: WireObservations): void {
  if (!into) return;
  if (into.reasoning === 'none') into.reasoning = from.reasoning;
  into.recoveredCalls += from.recoveredCalls;
}

async function* normaliseEvents(body: ReadableStream<Uint8Array>, toolNames: string[], observed: WireObservations | undefined, signal: AbortSignal | null | undefined): AsyncGenerator<SseEvent> {
  const n = new ChunkNormaliser(toolNames);
  const fields = new ProviderFieldCollector();
  let ended = false;
  try {
    for await (const e of droppedAsError(readSse(body), signal)) {
      if (e.data.trim() === '[DONE]') {
        for (const c of n.end()) yield { data: JSON.stringify(fields.take(c)) };
        for (const c of fields.end()) yield { data: JSON.stringify(c) };
        ended = true;
        yield e;
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(e.data);
      } catch {
        yield e;
        continue;
      }
      const err = isObject(parsed) && isObject(parsed.error) ? parsed.error : undefined;
      if (err && err.code === 'tool_use_failed' && toolNames.length) {
        for (const c of n.failedGeneration(typeof err.failed_generation === 'string' ? err.failed_generation : '')) yield { data: JSON.stringify(c) };
        ended = true;
        yield { data: '[DONE]' };
        return;
      }
      if (err || e.event === 'error') {
        // An error inside a 200 stream (OpenRouter: https://openrouter.ai/docs/api/reference/errors-and-debugging):
        // raised with the provider's words and the status its body names, marked as mid-stream
        // so the run can retry it once with the partial turn discarded.
        throw ProviderStreamError.fromEvent(readErrorBody(e.data, 'application/json'));
      }
      for (const c of n.push(parsed)) yield { data: JSON.stringify(fields.take(c)) };
    }
    if (!ended) {
      for (const c of n.end()) yield { data: JSON.stringify(fields.take(c)) };
      for (const c of fields.end()) yield { data: JSON.stringify(c) };
    }
  } finally {
    merge(observed, n.observed);
  }
}

/** A stream that breaks off (not stopped by the user) becomes a mid-stream error the run can retry. */
async function* droppedAsError(events: AsyncGenerator<SseEvent>, signal: AbortSignal | null | undefined): AsyncGenerator<SseEvent> {
  try {
    yield* events;
  } catch (e) {
    if (signal?.aborted || (e instanceof Error && e.name === 'AbortError')) throw e;
    throw ProviderStreamError.dropped(e);
  }
}

/**
 * A failed response in the one shape the SDK reads its message from, with the provider's own
 * words: the SDK shows "400 status code (no body)" for a JSON array (Google), a top-level
 * `message` (vLLM) or an HTML page.
 */
async function readableError(res: Response, text?: string): Promise<Response> {
  const body = text ?? (await res.text().catch(() => ''));
  const headers = passHeaders(res);
  headers.set('content-type', 'application/json');
  return new Response(openAiErrorJson(readErrorBody(body, res.headers.get('content-type') ?? ''), res.status), { status: res.status, statusText: res.statusText, headers });
}

function passHeaders(res: Response): Headers {
  const h = new Headers(res.headers);
  h.delete('content-length');
  h.delete('content-encoding');
  return h;
}

/** A successful response made of the call(s) recovered from a `tool_use_failed` refusal. */
function recoveredResponse(generation: string, toolNames: string[], stream: boolean, res: Response, observed: WireObservations | undefined): Response {
  const n = new ChunkNormaliser(toolNames);
  const chunks = n.failedGeneration(generation);
  merge(observed, n.observed);
  const headers = passHeaders(res);
  if (stream) {
    headers.set('content-type', 'text/event-stream');
    async function* events(): AsyncGenerator<SseEvent> {
      for (const c of chunks) yield { data: JSON.stringify(c) };
      yield { data: '[DONE]' };
    }
    return new Response(sseStream(events()), { status: 200, headers });
  }
  const first = chunks[0] as { choices: { delta: { tool_calls: Json[] } }[] } & Json;
  const calls = first.choices[0]?.delta.tool_calls.map(({ index: _i, ...tc }) => tc) ?? [];
  headers.set('content-type', 'application/json');
  const { choices: _c, ...meta } = first;
  return new Response(
    JSON.stringify({ ...meta, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: calls }, finish_reason: 'tool_calls', logprobs: null }] }),
    { status: 200, headers },
  );
}

export function createWireFetch(inner: typeof fetch, options: WireOptions): typeof fetch {
  return async (input, init) => {
    const url = urlOf(input);
    if (!/\/chat\/completions(?:[?#]|$)/.test(url) || typeof init?.body !== 'string') return inner(input, init);
    let original: Json;
    try {
      const parsed: unknown = JSON.parse(init.body);
      if (!isObject(parsed)) return inner(input, init);
      original = parsed;
    } catch {
      return inner(input, init);
    }
    const toolNames = toolNamesOf(original);
    const droppedHere = new Set<string>();
    const rulesHere = new Set<MessageRule>();
    const store = options.providerFields;
    for (;;) {
      const refused = new Set([...options.memory.refused, ...droppedHere]);
      const rules = new Set([...(options.memory.rules ?? []), ...rulesHere]);
      const shaped = shapeRequest(original, options.model, refused).body;
      if (store) attachProviderFields(shaped, store);
      const body = applyMessageRules(shaped, rules, store ? (field, ids, text) => store.kept(field, ids, text) : undefined);
      const res = await inner(input, { ...init, body: JSON.stringify(body) });
      if (res.status === 400 || res.status === 422) {
        const text = await res.clone().text();
        const fields = errorFields(text);
        if (fields.code === 'tool_use_failed' && toolNames.length) {
          let generation = '';
          try {
            const e = (JSON.parse(text) as { error?: { failed_generation?: unknown } }).error;
            if (typeof e?.failed_generation === 'string') generation = e.failed_generation;
          } catch {
            // No body to read: recovered as an unreadable call.
          }
          options.onAdapt?.('The endpoint could not parse the model’s tool call (tool_use_failed); it was read from the failed generation or sent back to the model to write again.');
          return recoveredResponse(generation, toolNames, body.stream === true, res, options.observed);
        }
        const refusal = refusedParam(res.status, text, body);
        // A forced call or a response format belongs to a structured call: the ladder's next rung
        // is its retry. A plain `tool_choice` ("required", "auto") can simply be left out.
        const droppable = refusal && (DROPPABLE.has(refusal.param) || (refusal.param === 'tool_choice' && typeof body.tool_choice === 'string'));
        if (refusal && droppable && !droppedHere.has(refusal.param)) {
          droppedHere.add(refusal.param);
          options.memory.remember(refusal.param);
          options.onAdapt?.(`The endpoint refused the parameter \`${refusal.param}\` (“${refusal.message.slice(0, 160)}”); sent again without it, and it will not be sent to this model again.`);
          continue;
        }
        // A refusal that names a rule about the messages (a role, a field to send back, their
        // order): learned, said once, and the request sent again following it — once per rule.
        const finding = messageRuleFor(res.status, fields.message, body);
        if (finding && !rules.has(finding.rule)) {
          rulesHere.add(finding.rule);
          options.memory.learnRule?.(finding.rule);
          options.onAdapt?.(`Adjusted to the endpoint: ${RULE_LABELS[finding.rule]} (“${finding.message.slice(0, 160)}”). Remembered for this model.`);
          continue;
        }
        return readableError(res, text);
      }
      if (!res.ok) return readableError(res);
      if (!res.body) return res;
      const type = res.headers.get('content-type') ?? '';
      if (body.stream === true && !/json/i.test(type)) {
        return new Response(sseStream(normaliseEvents(res.body, toolNames, options.observed, init?.signal)), { status: res.status, statusText: res.statusText, headers: passHeaders(res) });
      }
      const json: unknown = await res.json();
      // Some servers answer a failure with HTTP 200 and an error body: give it the status it
      // names, so it is classified like any HTTP error (rate limit, server error…).
      if (isObject(json) && json.error !== undefined && !Array.isArray(json.choices)) {
        const read = readErrorBody(JSON.stringify(json), 'application/json');
        // Errors on 200 seen in the wild are permanent (LM Studio's "Unexpected endpoint or method",
        // https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/618; TGI's validation errors,
        // https://github.com/huggingface/text-generation-inference/issues/2749; LiteLLM's unknown
        // model, https://github.com/BerriAI/litellm/issues/27030): not retried unless the body names a status.
        const status = read.status ?? (isModelNotFound(read.message) ? 404 : 400);
        const headers = passHeaders(res);
        headers.set('content-type', 'application/json');
        return new Response(openAiErrorJson(read, status), { status, headers });
      }
      return new Response(JSON.stringify(new ProviderFieldCollector().takeWhole(normaliseCompletion(json, toolNames, options.observed))), { status: res.status, statusText: res.statusText, headers: passHeaders(res) });
    }
  };
}
