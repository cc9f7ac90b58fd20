/**
 * A failure after the endpoint answered 200 and started streaming: an error event inside the
 * stream (OpenRouter, https://openrouter.ai/docs/api/reference/errors-and-debugging) or a
 * connection that broke off. Marked `midStream` so the run can tell it from a refusal of the
 * request itself: it is retried once, with the partial turn discarded.
 */
import type { ErrorBody } from './errorBody';

export class ProviderStreamError extends Error {
  override readonly name = 'ProviderStreamError';
  readonly midStream = true;
  /** The HTTP status the error event names (OpenRouter's `error.code`), if any. */
  readonly status: number | undefined;
  /** The event's body as read, in OpenAI's field names (what classification reads). */
  readonly error: { message: string; code?: string | number; type?: string } | undefined;
  /** The connection dropped (no error event). */
  readonly dropped: boolean;

  private constructor(message: string, options: { status?: number; body?: ErrorBody; dropped?: boolean; cause?: unknown }) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.status = options.status;
    this.dropped = options.dropped === true;
    const b = options.body;
    this.error = b ? { message: b.message, ...(b.code !== undefined ? { code: b.code } : {}), ...(b.type ? { type: b.type } : {}) } : undefined;
  }

  static fromEvent(body: ErrorBody): ProviderStreamError {
    return new ProviderStreamError(body.message || 'The endpoint reported an error in the middle of its reply.', { ...(body.status !== undefined ? { status: body.status } : {}), body });
  }

  static dropped(cause: unknown): ProviderStreamError {
    const why = cause instanceof Error ? cause.message : String(cause);
    return new ProviderStreamError(`The connection dropped in the middle of the reply (${why}).`, { dropped: true, cause });
  }
}

export function isMidStreamError(e: unknown): e is ProviderStreamError {
  return typeof e === 'object' && e !== null && (e as { midStream?: unknown }).midStream === true;
}

/**
 * Worth one automatic retry: the connection dropped, or the event names a transient status
 * (rate limit, timeout, a server or upstream failure) or none at all. A 4xx the event names is the
 * request's own fault and would fail the same way again.
 */
export function isTransientStreamError(e: unknown): boolean {
  if (!isMidStreamError(e)) return false;
  if (e.dropped || e.status === undefined) return true;
  return e.status === 408 || e.status === 429 || e.status >= 500;
}
