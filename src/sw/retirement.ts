/**
 * What an old service worker lets go of once the user has accepted the next version. Chromium
 * activates a waiting worker (skipWaiting or not) only when the active one has no event in
 * flight, and a fetch event stays in flight for as long as its network request does: a CDN
 * behind a firewall that drops packets, or a cache write of a body whose page went away, holds
 * the accepted update back for minutes. The page that accepted is about to reload, so the old
 * worker aborts its network requests, stops keeping itself alive for cache writes, and gives any
 * request it is still handed a short time limit.
 */

/** How long a request started after the release may wait on the network. */
export const RETIRING_FETCH_MS = 3_000;

const updating = () => new DOMException('The app is updating', 'AbortError');

export class Retirement {
  private readonly inFlight = new Set<AbortController>();
  private letGo: () => void = () => undefined;
  /** Settles on release; a cache write's time budget races it. */
  readonly released: Promise<void> = new Promise((resolve) => (this.letGo = resolve));
  private retiring = false;

  get isRetiring(): boolean {
    return this.retiring;
  }

  /**
   * `fetch`, abortable by the release. The request's own signal (the page gave up on it) still
   * aborts it too. Navigations are passed unchanged: a navigation request cannot be re-made with
   * an init without losing its mode, and the page that accepted reloads through the new worker.
   */
  fetch(fetchImpl: (request: Request, init?: RequestInit) => Promise<Response>, request: Request): Promise<Response> {
    if (request.mode === 'navigate') return fetchImpl(request);
    const controller = new AbortController();
    const timer = this.retiring ? setTimeout(() => controller.abort(updating()), RETIRING_FETCH_MS) : undefined;
    this.inFlight.add(controller);
    // Held until the answer's headers come: that is what keeps the fetch event in flight. A body
    // still streaming after that holds nothing but a cache write, which `released` ends.
    return fetchImpl(request, { signal: AbortSignal.any([request.signal, controller.signal]) }).finally(() => {
      this.inFlight.delete(controller);
      clearTimeout(timer);
    });
  }

  /** Aborts every request in flight and ends every wait on a cache write; returns how many were aborted. */
  release(): number {
    this.retiring = true;
    this.letGo();
    const aborted = this.inFlight.size;
    for (const controller of this.inFlight) controller.abort(updating());
    this.inFlight.clear();
    return aborted;
  }
}
