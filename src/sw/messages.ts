/** What a page may ask its service worker (postMessage), checked on arrival. */
export type PageToWorker =
  /** The user accepted the update: the waiting worker takes over now. */
  | { type: 'skip-waiting' }
  /** To the active worker, in the same moment: stop holding on to requests and cache writes. */
  | { type: 'release' }
  /** An uncontrolled page (e.g. after a hard reload) asks the active worker to control it. */
  | { type: 'claim' }
  /** Which build this worker belongs to; the answer goes to the transferred port. */
  | { type: 'version' }
  /**
   * Build files this page loaded before the worker controlled it (the first visit): kept as if
   * they had been used through the worker, so the next load works offline.
   */
  | { type: 'keep'; urls: string[] };

export interface VersionReply {
  buildId: string;
}

const TYPES: ReadonlySet<string> = new Set(['skip-waiting', 'release', 'claim', 'version', 'keep']);

/** At most this many URLs in one `keep` (a page loads a few dozen build files). */
export const KEEP_MAX = 500;

export function isPageMessage(data: unknown): data is PageToWorker {
  if (typeof data !== 'object' || data === null || !('type' in data) || typeof data.type !== 'string' || !TYPES.has(data.type)) return false;
  if (data.type !== 'keep') return true;
  const urls = (data as { urls?: unknown }).urls;
  return Array.isArray(urls) && urls.length <= KEEP_MAX && urls.every((u) => typeof u === 'string');
}
