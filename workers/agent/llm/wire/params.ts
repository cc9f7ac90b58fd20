/**
 * Which request parameters a model takes. OpenAI's reasoning families (o-series, gpt-5 except
 * the `-chat` variants) accept only the default temperature/top_p and want
 * `max_completion_tokens`; other endpoints refuse parameters in their own ways, always with an
 * HTTP 400 that names the parameter (in `error.param` or in the message). What an endpoint
 * refused once is remembered (endpointProfile.ts) and never sent to it again.
 */

/** Parameters an endpoint may refuse that the request can do without. */
export const DROPPABLE_PARAMS = [
  'temperature',
  'top_p',
  'max_tokens',
  'max_completion_tokens',
  'parallel_tool_calls',
  'stream_options',
  'seed',
  'frequency_penalty',
  'presence_penalty',
  'logprobs',
  'top_logprobs',
  'n',
  'user',
] as const;

/**
 * Parameters whose refusal means "use another way", not "leave it out": the structured-output
 * ladder moves to its next rung instead.
 */
export const STRUCTURAL_PARAMS = ['response_format', 'tool_choice'] as const;

const KNOWN = new Set<string>([...DROPPABLE_PARAMS, ...STRUCTURAL_PARAMS]);

/** The model id without a router's vendor prefix (`openai/gpt-5-mini` on OpenRouter). */
export function bareModel(model: string): string {
  const parts = model.trim().toLowerCase().split('/');
  return parts[parts.length - 1] ?? '';
}

/**
 * OpenAI reasoning models: only the default sampling parameters, `max_completion_tokens`.
 * https://platform.openai.com/docs/guides/reasoning ; the 400 users meet otherwise:
 * https://github.com/QwenLM/qwen-code/issues/921 (gpt-5-mini), https://github.com/OpenHands/OpenHands/issues/4131 (o1-mini).
 */
export function isOpenAiReasoningModel(model: string): boolean {
  const m = bareModel(model);
  if (/^o\d(?:$|[-.])/.test(m)) return true;
  return /^gpt-5(?:$|[-.])/.test(m) && !/-chat(?:$|-)/.test(m);
}

export interface ShapedRequest {
  body: Record<string, unknown>;
  /** Parameters left out or renamed, for the status step (empty when nothing changed). */
  changed: string[];
}

/**
 * The request body as this endpoint takes it: family rules, then what it refused before. Never
 * sends reasoning back: DeepSeek answers 400 when `reasoning_content` is in an input message
 * (https://api-docs.deepseek.com/guides/reasoning_model), and reasoning is not the answer.
 */
export function shapeRequest(body: Record<string, unknown>, model: string, refused: ReadonlySet<string>): ShapedRequest {
  const out: Record<string, unknown> = { ...body };
  const changed: string[] = [];
  const reasoningFamily = isOpenAiReasoningModel(model);
  if (reasoningFamily) {
    for (const p of ['temperature', 'top_p'] as const) {
      if (p in out) {
        delete out[p];
      }
    }
  }
  if ('max_tokens' in out && (reasoningFamily || refused.has('max_tokens')) && !refused.has('max_completion_tokens')) {
    out.max_completion_tokens = out.max_tokens;
    delete out.max_tokens;
  }
  for (const p of refused) {
    const plainToolChoice = p === 'tool_choice' && typeof out.tool_choice === 'string';
    if (KNOWN.has(p) && p in out && (!(STRUCTURAL_PARAMS as readonly string[]).includes(p) || plainToolChoice)) {
      delete out[p];
      changed.push(p);
    }
  }
  if (Array.isArray(out.messages)) {
    out.messages = out.messages.map((m: unknown) => {
      if (typeof m !== 'object' || m === null) return m;
      const msg = m as Record<string, unknown>;
      if (!('reasoning_content' in msg) && !('reasoning' in msg)) return m;
      const { reasoning_content: _rc, reasoning: _r, ...rest } = msg;
      return rest;
    });
  }
  return { body: out, changed };
}

export interface Refusal {
  /** The refused parameter (one of DROPPABLE_PARAMS or STRUCTURAL_PARAMS). */
  param: string;
  /** The endpoint's own words. */
  message: string;
}

interface ErrorBody {
  error?: { message?: unknown; param?: unknown; code?: unknown; type?: unknown } | string;
  message?: unknown;
  detail?: unknown;
}

/** The error message and `param` of an endpoint's error body, in the shapes providers use. */
export function errorFields(text: string): { message: string; param?: string; code?: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { message: text.slice(0, 500) };
  }
  const b = (Array.isArray(parsed) ? parsed[0] : parsed) as ErrorBody | undefined;
  const e = b?.error;
  if (typeof e === 'string') return { message: e };
  const message = [e?.message, b?.message, b?.detail].find((m): m is string => typeof m === 'string') ?? text.slice(0, 500);
  const param = typeof e?.param === 'string' && e.param ? e.param : undefined;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  return { message, ...(param ? { param } : {}), ...(code ? { code } : {}) };
}

// Gemini's compatibility layer: `Invalid JSON payload received. Unknown name "x": Cannot find field.`
const REFUSAL_WORDS = /unsupported|not supported|does not support|is not allowed|not allowed|unrecogni[sz]ed|unknown (?:parameter|field|argument|name)|cannot find field|extra (?:inputs|fields)|unavailable|invalid (?:parameter|value)|not permitted|only the default|additional properties|unexpected (?:keyword|field|property)/i;

/** The parameter a 400 refuses, when it names one this app sends; undefined otherwise. */
export function refusedParam(status: number, text: string, sent: Record<string, unknown>): Refusal | undefined {
  if (status !== 400 && status !== 422) return undefined;
  const { message, param } = errorFields(text);
  const base = param?.split(/[.[]/)[0];
  if (base && KNOWN.has(base) && base in sent) return { param: base, message };
  if (!REFUSAL_WORDS.test(message)) return undefined;
  // The first parameter the message names that the request actually carried.
  const named = [...KNOWN]
    .filter((p) => p in sent)
    .map((p) => ({ p, at: message.search(new RegExp(`(^|[^a-z_])${p}([^a-z_]|$)`, 'i')) }))
    .filter((x) => x.at >= 0)
    .sort((a, b) => a.at - b.at)[0];
  return named ? { param: named.p, message } : undefined;
}
