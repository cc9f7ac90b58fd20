/**
 * An endpoint's error body, whatever shape it comes in, read into one record with the provider's
 * own words. The shapes (each pinned by a test citing where it is documented or reported):
 * OpenAI's `{"error":{"message","type","param","code"}}`; OpenRouter's generic "Provider returned
 * error" with the upstream text in `error.metadata.raw`; Google's OpenAI-compatible endpoint, a
 * JSON *array* of such objects; vLLM / SGLang's top-level `{"object":"error","message",…}`;
 * Ollama, TGI and LM Studio's `{"error":"…"}` string; llama.cpp's `exceed_context_size_error`
 * with `n_ctx`; LiteLLM's `code` as a string; FastAPI's `detail`; plain text; and an HTML page
 * from a proxy or gateway in between.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

export interface ErrorBody {
  /** The provider's own words (the upstream provider's, when a router wrapped them). */
  message: string;
  /** `type` / `error_type` / `status` as the provider names the kind of error. */
  type?: string;
  /** `code` as the provider sends it (string or number). */
  code?: string | number;
  param?: string;
  /** The HTTP status the body itself names (`error.code: 429` inside a 200 stream, Google's `code`). */
  status?: number;
  /** The router's upstream provider, when it says (OpenRouter's `metadata.provider_name`). */
  provider?: string;
  /** The context window a refusal names (llama.cpp's `n_ctx`). */
  contextTokens?: number;
  promptTokens?: number;
  /** The body was an HTML page: a proxy, gateway or web server answered, not the model server. */
  html?: boolean;
  /** Nothing at all came back. */
  empty?: boolean;
}

const MAX = 600;

function clip(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > MAX ? `${one.slice(0, MAX - 1)}…` : one;
}

function statusOf(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{3}$/.test(v.trim()) ? Number(v) : undefined;
  return n !== undefined && n >= 400 && n < 600 ? n : undefined;
}

/** The words of an HTML page: its title and first heading, without markup. */
function htmlWords(text: string): string {
  const pick = (re: RegExp) => re.exec(text)?.[1]?.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
  const title = pick(/<title[^>]*>([\s\S]*?)<\/title>/i);
  const h1 = pick(/<h1[^>]*>([\s\S]*?)<\/h1>/i);
  const words = [title, h1 && h1 !== title ? h1 : undefined].filter(Boolean).join(' — ');
  return words || 'an HTML page';
}

/** OpenRouter's `metadata.raw`: the upstream provider's body, itself JSON or text. */
function upstream(raw: unknown): string | undefined {
  if (isObject(raw)) return fromJson(raw)?.message;
  const s = str(raw);
  if (!s) return undefined;
  try {
    const parsed: unknown = JSON.parse(s);
    return fromJson(parsed)?.message ?? s;
  } catch {
    return s;
  }
}

function fromJson(parsed: unknown): ErrorBody | undefined {
  // Google's OpenAI-compatible endpoint answers with an array of error objects.
  if (Array.isArray(parsed)) {
    for (const item of parsed) {
      const found = fromJson(item);
      if (found) return found;
    }
    return undefined;
  }
  if (!isObject(parsed)) return typeof parsed === 'string' && parsed.trim() ? { message: clip(parsed) } : undefined;
  const e = parsed.error;
  if (typeof e === 'string' && e.trim()) {
    // Ollama / TGI / LM Studio: `{"error":"…"}`, TGI with `error_type`.
    const type = str(parsed.error_type) ?? str(parsed.type);
    return { message: clip(e), ...(type ? { type } : {}), ...(statusOf(parsed.code) ? { status: statusOf(parsed.code) } : {}) };
  }
  if (isObject(e)) {
    const meta = isObject(e.metadata) ? e.metadata : undefined;
    const own = str(e.message) ?? (isObject(e.message) ? JSON.stringify(e.message) : undefined);
    const raw = meta ? upstream(meta.raw) : undefined;
    const provider = meta ? str(meta.provider_name) : undefined;
    // A router's generic words ("Provider returned error") say less than the upstream's own.
    const message = raw && (!own || /provider returned error/i.test(own)) ? raw : own && raw && !own.includes(raw) ? `${own}: ${raw}` : (own ?? raw);
    const type = str(e.type) ?? str(e.status);
    const code = typeof e.code === 'number' || typeof e.code === 'string' ? e.code : undefined;
    const param = str(e.param);
    const status = statusOf(e.code) ?? statusOf(e.status_code) ?? statusOf(parsed.code);
    const out: ErrorBody = { message: clip(message ?? JSON.stringify(e)) };
    if (type) out.type = type;
    if (code !== undefined && code !== '') out.code = code;
    if (param) out.param = param;
    if (status) out.status = status;
    if (provider) out.provider = provider;
    if (typeof e.n_ctx === 'number') out.contextTokens = e.n_ctx;
    if (typeof e.n_prompt_tokens === 'number') out.promptTokens = e.n_prompt_tokens;
    return out;
  }
  // vLLM / SGLang: `{"object":"error","message","type","param","code"}`; FastAPI: `{"detail":…}`.
  const message = str(parsed.message) ?? str(parsed.detail) ?? (Array.isArray(parsed.detail) ? JSON.stringify(parsed.detail) : undefined);
  if (!message) return undefined;
  const out: ErrorBody = { message: clip(message) };
  const type = str(parsed.type);
  if (type) out.type = type;
  if (typeof parsed.code === 'number' || typeof parsed.code === 'string') out.code = parsed.code;
  const param = str(parsed.param);
  if (param) out.param = param;
  const status = statusOf(parsed.code);
  if (status) out.status = status;
  return out;
}

// "model 'x' not found, try pulling it first" (Ollama), "The model `x` does not exist" (OpenAI,
// vLLM), "Invalid model identifier" / "No models loaded" (LM Studio), "model_not_found" (OpenAI's code).
const MODEL_MISSING = /model[^.]{0,80}\b(?:not found|does not exist|is not (?:available|found|loaded|served))|no such model|unknown model|invalid model (?:identifier|name|id)|model_not_found|no models loaded|not a valid model/i;

/** The words say the model is not served here (a permanent failure, fixed by picking another model). */
export function isModelNotFound(words: string | undefined): boolean {
  return words !== undefined && MODEL_MISSING.test(words);
}

/** Reads an error body (`contentType` tells an HTML page from text that merely contains a tag). */
export function readErrorBody(text: string, contentType = ''): ErrorBody {
  const trimmed = text.trim();
  if (!trimmed) return { message: '', empty: true };
  if (/html/i.test(contentType) || /^<!doctype html|^<html[\s>]/i.test(trimmed)) return { message: clip(htmlWords(trimmed)), html: true };
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return fromJson(parsed) ?? { message: clip(trimmed) };
  } catch {
    return { message: clip(trimmed) };
  }
}

/** The body rewritten in OpenAI's shape, so the SDK builds its error from the provider's words. */
export function openAiErrorJson(body: ErrorBody, httpStatus: number): string {
  const error: Json = { message: body.message || `HTTP ${httpStatus} with no body` };
  for (const k of ['type', 'code', 'param', 'provider'] as const) if (body[k] !== undefined) error[k] = body[k];
  if (body.contextTokens !== undefined) error.n_ctx = body.contextTokens;
  if (body.promptTokens !== undefined) error.n_prompt_tokens = body.promptTokens;
  if (body.html) error.html = true;
  if (body.empty) error.empty = true;
  error.http_status = httpStatus;
  return JSON.stringify({ error });
}
