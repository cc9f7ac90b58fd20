/**
 * The words a failed run shows: what happened, the HTTP status, the provider's own words (read by
 * wire/errorBody.ts from whatever shape the body had) and the one next step that helps — never
 * "400 status code (no body)". Also tells "model not found" (a permanent failure, fixed by
 * picking a model) from other refusals, whatever status the server used for it.
 */
import type { ErrorKind } from '../../../protocol/agent/wire';
import { isModelNotFound } from './wire/errorBody';
import { isMidStreamError } from './wire/streamError';

export { isModelNotFound };

export interface Failure {
  kind: ErrorKind;
  message: string;
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
}

interface Details {
  status?: number;
  /** The provider's own words. */
  words?: string;
  html?: boolean;
  empty?: boolean;
  provider?: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null;

/** Status and words from the SDK's error (its `error` is the body wireFetch rewrote), or from its cause. */
export function failureDetails(e: unknown): Details {
  if (!isObject(e)) return {};
  const cause = isObject(e.cause) && !(e as { midStream?: unknown }).midStream ? failureDetails(e.cause) : {};
  const body = isObject(e.error) ? e.error : undefined;
  const status = typeof e.status === 'number' ? e.status : typeof body?.http_status === 'number' ? body.http_status : cause.status;
  let words = typeof body?.message === 'string' ? body.message : undefined;
  if (!words && typeof e.message === 'string') {
    // The SDK's "<status> <message>", or a message of our own.
    words = e.message.replace(/^\d{3}\s+/, '').trim();
    if (/status code \(no body\)$/.test(words)) words = undefined;
  }
  const out: Details = { ...cause };
  if (status !== undefined) out.status = status;
  if (words) out.words = words;
  else if (cause.words) out.words = cause.words;
  if (body?.html === true) out.html = true;
  if (body?.empty === true) out.empty = true;
  if (typeof body?.provider === 'string') out.provider = body.provider;
  return out;
}

function quoted(d: Details): string {
  const parts: string[] = [];
  if (d.status !== undefined) parts.push(`HTTP ${d.status}`);
  if (d.words && !d.html) parts.push(`“${d.words.length > 300 ? `${d.words.slice(0, 299)}…` : d.words}”${d.provider ? ` (from ${d.provider})` : ''}`);
  else if (d.empty) parts.push('no explanation given');
  return parts.length ? ` (${parts.join(': ')})` : '';
}

/** The base classification, re-worded with the details and the next step. */
export function explainFailure(base: Failure, error: unknown): Failure {
  if (base.kind === 'aborted' || base.kind === 'timeout') return base;
  const d = failureDetails(error);
  const q = quoted(d);
  if (isMidStreamError(error)) {
    const dropped = (error as { dropped?: boolean }).dropped === true;
    return {
      ...base,
      retryable: true,
      message: dropped
        ? 'The connection dropped in the middle of the reply. Retry; if it keeps happening, check the network and that the server is running.'
        : `The endpoint reported an error in the middle of its reply${q}. Retry in a moment.`,
    };
  }
  if (d.html) {
    return {
      ...base,
      retryable: base.kind === 'server',
      message: `The endpoint answered${d.status !== undefined ? ` HTTP ${d.status}` : ''} with a web page (“${d.words ?? 'HTML'}”), not an API reply: a proxy or gateway in between failed, or the base URL points at a website. Check the base URL in Settings and that the model server is running.`,
    };
  }
  if (base.kind === 'auth') {
    return { ...base, message: `The key was refused by the endpoint${q}. Change the API key in Settings.` };
  }
  if (base.kind === 'not_found' || ((base.kind === 'bad_request' || base.kind === 'unknown') && isModelNotFound(d.words))) {
    return {
      ...base,
      kind: 'not_found',
      retryable: false,
      message: `The endpoint does not serve this model${q}. Pick a model from the list in Settings (Test connection lists what this endpoint serves), or check the base URL.`,
    };
  }
  switch (base.kind) {
    case 'rate_limit':
      return { ...base, message: `The endpoint is rate limiting requests${q}. Wait a moment and retry.` };
    case 'server':
      return { ...base, message: `The endpoint failed${q}. Retry in a moment.` };
    case 'bad_request':
      return { ...base, message: `The endpoint refused the request${q}. Retry; if it fails the same way, choose another model in Settings.` };
    case 'no_tools':
    case 'no_images':
      return d.words ? { ...base, message: `${base.message}${q}` } : base;
    default:
      return base;
  }
}
