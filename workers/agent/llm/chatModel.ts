/**
 * The chat model for a run, built from the user's endpoint settings. Pins the Chat Completions
 * API (ChatOpenAI switches to the Responses API for some model names, which compatible servers
 * lack), keeps retries few so a rate limit cannot stall the UI for a minute, reports each retry
 * so the UI can show it, and turns endpoint failures into one classified shape.
 */
import { refuseRedirects } from './redirects';
import type { BaseMessage } from '@langchain/core/messages';
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import type { ChatGenerationChunk, ChatResult } from '@langchain/core/outputs';
import { ChatOpenAICompletions } from '@langchain/openai';
import type { EndpointSettings, ErrorKind } from '../../../protocol/agent/wire';
import { providerRequest } from './providerRequest';
import type { WireObservations } from './wire/normalise';
import { createWireFetch, type WireMemory } from './wire/wireFetch';
import { ProviderFieldStore, isProviderFields } from './wire/roundTrip';
import { explainFailure } from './failureMessage';
import { createAdaptFetch, transientAdaptMemory, type AdaptMemory } from './adaptFetch';
import type { KnowledgeSection } from './contextWindow';

export interface RetryInfo {
  attempt: number;
  status?: number;
  /** The wait the endpoint asked for (Retry-After), when it said. */
  retryAfterMs?: number;
  message: string;
}

export interface ChatModelOptions {
  /** Retries after the first attempt (LangChain's default of 6 is far too many for a UI). */
  maxRetries?: number;
  /** Per-request timeout. */
  timeoutMs?: number;
  temperature?: number;
  /** Called before each retry LangChain decides to make. */
  onRetry?: (info: RetryInfo) => void;
  /** For tests and non-browser hosts (and the privacy log's recording fetch). */
  fetch?: typeof fetch;
  /**
   * Rewrites the messages of every request just before it is sent (e.g. "No raw rows" shaping
   * tool outputs stored before the setting was turned on). Applies to every call made through
   * the model, including `bindTools` and `withStructuredOutput`, which share this instance.
   */
  prepareMessages?: (messages: BaseMessage[]) => BaseMessage[];
  /** What this endpoint + model refused before, and where new refusals are recorded. */
  memory?: WireMemory;
  /** Told when a request had to be adapted to the endpoint (a status step). */
  onAdapt?: (detail: string) => void;
  /** Filled in with what the responses showed (reasoning shape, recovered tool calls). */
  observed?: WireObservations;
  /** How this endpoint takes tools and how large a prompt it takes, and where new findings go. */
  adapt?: AdaptMemory;
  /** (issue 32) The run's knowledge in the system prompt: fitted whole, never clipped (contextWindow.ts). */
  knowledge?: () => KnowledgeSection | undefined;
}

/** A memory that forgets: for one-off calls such as tests. */
export function transientMemory(): WireMemory {
  const refused = new Set<string>();
  return { refused, remember: (p) => void refused.add(p) };
}

type DeltaArgs = Parameters<ChatOpenAICompletions['_convertCompletionsDeltaToBaseMessageChunk']>;
type MessageArgs = Parameters<ChatOpenAICompletions['_convertCompletionsMessageToBaseMessage']>;

/**
 * Chat Completions with a last look at the messages before they go out, and the provider's
 * round-trip fields (wire/roundTrip.ts) kept on the messages it returns and sent back with them.
 */
class PreparedChatModel extends ChatOpenAICompletions {
  prepareMessages: ((messages: BaseMessage[]) => BaseMessage[]) | undefined;
  providerFields: ProviderFieldStore | undefined;
  endpoint: string | undefined;

  #outgoing(messages: BaseMessage[]): BaseMessage[] {
    const out = this.prepareMessages ? this.prepareMessages(messages) : messages;
    this.providerFields?.learn(out);
    return out;
  }

  #keep<T extends { additional_kwargs: Record<string, unknown> }>(message: T, fields: unknown): T {
    if (isProviderFields(fields)) message.additional_kwargs = { ...message.additional_kwargs, provider_fields: { ...fields, ...(this.endpoint ? { endpoint: this.endpoint } : {}) } };
    return message;
  }

  override _generate(messages: BaseMessage[], options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    return super._generate(this.#outgoing(messages), options, runManager);
  }

  override _streamResponseChunks(messages: BaseMessage[], options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun): AsyncGenerator<ChatGenerationChunk> {
    return super._streamResponseChunks(this.#outgoing(messages), options, runManager);
  }

  override _convertCompletionsDeltaToBaseMessageChunk(...[delta, raw, role]: DeltaArgs) {
    return this.#keep(super._convertCompletionsDeltaToBaseMessageChunk(delta, raw, role), (delta as { provider_fields?: unknown }).provider_fields);
  }

  override _convertCompletionsMessageToBaseMessage(...[message, raw]: MessageArgs) {
    return this.#keep(super._convertCompletionsMessageToBaseMessage(message, raw), (message as { provider_fields?: unknown }).provider_fields);
  }
}

export { ENDPOINT_PRESETS } from '../../../shared/endpointPresets';

/** The base URL the SDK appends paths to: no query (Azure's api-version is added per request), no trailing slash. */
export function normaliseBaseUrl(url: string): string {
  return url.trim().replace(/[?#].*$/, '').replace(/\/+$/, '');
}

/** A fetch that sends the key the way the provider of `baseUrl` expects it (providerRequest.ts). */
export function providerFetch(inner: typeof fetch, baseUrl: string): typeof fetch {
  // Redirects are refused here, under every other layer: the request never leaves for an address the user did not enter.
  const send = refuseRedirects(inner);
  return (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    const url = providerRequest(input instanceof Request ? input.url : String(input), headers, baseUrl);
    return send(url, { ...init, headers });
  };
}

/** Why a base URL will not work, or undefined. Every preset ends in a version segment. */
export function baseUrlProblem(url: string): string | undefined {
  const u = normaliseBaseUrl(url);
  let parsed: URL;
  try {
    parsed = new URL(u);
  } catch {
    return 'The base URL is not a valid URL (expected e.g. https://api.openai.com/v1).';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'The base URL must start with http:// or https://.';
  if (/\/chat\/completions$/.test(parsed.pathname)) return 'Give the base URL without /chat/completions (e.g. …/v1).';
  if (!/\/v\d+[a-z]*$/.test(parsed.pathname) && !/\/openai$/.test(parsed.pathname) && !/\/openai\/deployments\/[^/]+$/.test(parsed.pathname)) {
    return 'The base URL usually ends with the API version, e.g. /v1.';
  }
  return undefined;
}

interface ErrorLike {
  status?: unknown;
  name?: unknown;
  message?: unknown;
  retryAfterMs?: unknown;
  headers?: unknown;
  code?: unknown;
  lc_error_code?: unknown;
  error?: unknown;
}

/**
 * The HTTP status, or for an error that arrived inside a 200 stream (OpenRouter sends
 * `{"error":{"code":429,…}}` as an SSE event: https://openrouter.ai/docs/api/reference/errors-and-debugging;
 * Groq adds `status_code`) the status its body carries.
 */
function statusOf(e: ErrorLike): number | undefined {
  if (typeof e.status === 'number') return e.status;
  const body = (typeof e.error === 'object' && e.error !== null ? e.error : {}) as Record<string, unknown>;
  for (const v of [body.code, body.status_code, body.status, e.code]) {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{3}$/.test(v) ? Number(v) : undefined;
    if (n !== undefined && n >= 400 && n < 600) return n;
  }
  return undefined;
}

function retryAfterOf(e: ErrorLike): number | undefined {
  if (typeof e.retryAfterMs === 'number') return e.retryAfterMs;
  const h = e.headers;
  let v: unknown;
  if (h && typeof (h as Headers).get === 'function') v = (h as Headers).get('retry-after');
  else if (h && typeof h === 'object') v = (h as Record<string, unknown>)['retry-after'];
  if (typeof v !== 'string') return undefined;
  const s = Number(v);
  return Number.isFinite(s) && s >= 0 ? s * 1000 : undefined;
}

/** Builds the model for one run. */
export function createChatModel(settings: EndpointSettings, options: ChatModelOptions = {}): ChatOpenAICompletions {
  const endpoint = normaliseBaseUrl(settings.baseUrl);
  const providerFields = new ProviderFieldStore(endpoint);
  const model = new PreparedChatModel({
    model: settings.model,
    apiKey: settings.apiKey || 'not-needed',
    // `streaming` stays unset. `true` makes a plain invoke() estimate tokens with tiktoken, which
    // fetches its encoding from tiktoken.pages.dev (a third-party request that hangs offline);
    // `false` sets disableStreaming and nothing streams at all. Unset: invoke() sends one
    // non-streamed request, while .stream() and a LangGraph stream handler (streamMode
    // "messages" / streamEvents, with the node passing its config) stream.
    temperature: options.temperature ?? 0,
    maxRetries: options.maxRetries ?? 2,
    timeout: options.timeoutMs ?? 120_000,
    configuration: {
      baseURL: normaliseBaseUrl(settings.baseUrl),
      dangerouslyAllowBrowser: true,
      // Every request goes through the wire adapter: parameters the endpoint takes, refusals
      // retried once and remembered, reasoning and tool calls brought to one shape.
      // Under it, the request is fitted to what the endpoint can do (text tools, context window).
      fetch: createWireFetch(createAdaptFetch(providerFetch(options.fetch ?? ((input, init) => fetch(input, init)), settings.baseUrl), { memory: options.adapt ?? transientAdaptMemory(), ...(options.onAdapt ? { onAdapt: options.onAdapt } : {}), ...(options.knowledge ? { knowledge: options.knowledge } : {}) }), {
        model: settings.model,
        memory: options.memory ?? transientMemory(),
        ...(options.onAdapt ? { onAdapt: options.onAdapt } : {}),
        ...(options.observed ? { observed: options.observed } : {}),
        providerFields,
      }),
    },
  });
  model.prepareMessages = options.prepareMessages;
  model.providerFields = providerFields;
  model.endpoint = endpoint;
  const onRetry = options.onRetry;
  if (onRetry) {
    // LangChain decides per failed attempt whether to retry (its handler throws to stop), but
    // the handler is not told how many retries remain. Counting attempts per request (requests
    // of one run are sequential) reports exactly the retries that will happen, before the wait.
    const caller = model.caller as unknown as {
      maxRetries?: number;
      onFailedAttempt?: (e: unknown) => unknown;
      callWithOptions: (opts: { maxRetries?: number }, ...rest: unknown[]) => Promise<unknown>;
    };
    const decide = caller.onFailedAttempt;
    const callWithOptions = caller.callWithOptions.bind(caller);
    let failures = 0;
    let allowed = 0;
    caller.callWithOptions = (opts, ...rest) => {
      failures = 0;
      allowed = opts.maxRetries ?? caller.maxRetries ?? 0;
      return callWithOptions(opts, ...rest);
    };
    caller.onFailedAttempt = (error: unknown) => {
      const verdict = decide?.(error);
      failures += 1;
      if (failures > allowed) return verdict;
      const e = (error ?? {}) as ErrorLike;
      onRetry({
        attempt: failures,
        status: statusOf(e),
        retryAfterMs: retryAfterOf(e),
        message: typeof e.message === 'string' ? e.message : String(error),
      });
      return verdict;
    };
  }
  return model;
}

export type LlmErrorKind = ErrorKind;

export interface LlmFailure {
  kind: LlmErrorKind;
  /** What to tell the user. */
  message: string;
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
}

/**
 * One shape for every way the endpoint can fail, with a message a person can act on: the HTTP
 * status, the provider's own words and the next step (failureMessage.ts).
 */
export function classifyLlmError(error: unknown): LlmFailure {
  // LangChain wraps some errors (a context overflow) with the SDK's error as the cause.
  const e = (error ?? {}) as ErrorLike & { cause?: unknown };
  const source = statusOf(e) === undefined && typeof e.cause === 'object' && e.cause !== null && statusOf(e.cause as ErrorLike) !== undefined ? e.cause : error;
  return explainFailure(classifyKind(source), source);
}

function classifyKind(error: unknown): LlmFailure {
  const e = (error ?? {}) as ErrorLike;
  const status = statusOf(e);
  const name = typeof e.name === 'string' ? e.name : '';
  const raw = typeof e.message === 'string' ? e.message : String(error);
  if (name === 'AbortError' || /abort/i.test(raw)) return { kind: 'aborted', message: 'The run was stopped.', retryable: true };
  if (status === 401 || status === 403) {
    return { kind: 'auth', status, retryable: false, message: 'The key was refused by the endpoint. Check the API key in Settings.' };
  }
  if (status === 429) {
    return {
      kind: 'rate_limit',
      status,
      retryable: true,
      retryAfterMs: retryAfterOf(e),
      message: 'The endpoint is rate limiting requests. Wait a moment and retry.',
    };
  }
  if (status === 404) {
    return { kind: 'not_found', status, retryable: false, message: 'The endpoint does not know this model or URL. Check the base URL and model in Settings.' };
  }
  // Checked before tools: a vision refusal can mention "function" too, never the other way round.
  if ((status === 400 || status === 415 || status === 422) && /image|vision|multi-?modal|image_url/i.test(raw)) {
    return {
      kind: 'no_images',
      status,
      retryable: false,
      message: 'This model does not accept images. Remove the attachments or choose a model with vision in Settings; your question is kept.',
    };
  }
  // Only when the endpoint says so: Ollama's "registry.ollama.ai/library/gemma:2b does not support
  // tools" (https://github.com/ollama/ollama/issues/5793, /14795), vLLM's "auto" tool choice requires
  // --enable-auto-tool-choice…; other 400s that mention a function (a malformed call, Groq's
  // tool_use_failed) are failed attempts, not a missing capability.
  if ((status === 400 || status === 404 || status === 422) && /(does not|doesn't|do not) support (?:tools|tool|function)|tools? (?:use |calling )?(?:is |are )?not supported|function calling is not (?:supported|enabled)|enable-auto-tool-choice/i.test(raw)) {
    return { kind: 'no_tools', status, retryable: false, message: 'This model does not seem to support tool calling, which the agent needs. Choose another model.' };
  }
  // A redirect refused by redirects.ts: retrying would meet the same redirect.
  if (status !== undefined && status >= 300 && status < 400) {
    return { kind: 'bad_request', status, retryable: false, message: 'The endpoint redirected the request to another address, which model requests do not follow.' };
  }
  if (status !== undefined && status >= 500) {
    return { kind: 'server', status, retryable: true, message: `The endpoint failed (HTTP ${status}). Retry in a moment.` };
  }
  if (status !== undefined && status >= 400) return { kind: 'bad_request', status, retryable: false, message: `The endpoint rejected the request: ${raw}` };
  if (name === 'TimeoutError' || /timed? ?out/i.test(raw)) return { kind: 'timeout', retryable: true, message: 'The endpoint did not answer in time. Retry.' };
  if (/fetch failed|network|ECONNREFUSED|ECONNRESET|terminated|socket|connection/i.test(raw)) {
    return { kind: 'network', retryable: true, message: 'The connection to the endpoint failed or dropped. Check the base URL (and CORS for local servers) and retry.' };
  }
  return { kind: 'unknown', retryable: true, message: raw };
}
