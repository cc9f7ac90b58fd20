/**
 * One automatic retry for a reply that broke off after the stream began (an error event on HTTP
 * 200, a dropped connection): LangChain's own retries cover only the request, not the stream it
 * returned. The partial reply is dropped (nothing of it reaches the checkpoint) and the page is
 * told to discard what it showed of it. A refusal of the request itself is never retried here.
 */
import { classifyLlmError } from './chatModel';
import { isTransientStreamError } from './wire/streamError';

export async function retryBrokenStreamOnce<T>(call: () => Promise<T>, onRetry: (detail: string) => void, signal?: AbortSignal): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (signal?.aborted || !isTransientStreamError(e)) throw e;
    const { message } = classifyLlmError(e);
    onRetry(`${message.replace(/ Retry.*$/, '')} The partial reply was discarded and the request sent again.`);
    return call();
  }
}
