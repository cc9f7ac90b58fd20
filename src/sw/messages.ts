/** What a page may ask its service worker (postMessage), checked on arrival. */
export type PageToWorker =
  /** The user accepted the update: the waiting worker takes over now. */
  | { type: 'skip-waiting' }
  /** To the active worker, in the same moment: stop holding on to requests and cache writes. */
  | { type: 'release' }
  /** An uncontrolled page (e.g. after a hard reload) asks the active worker to control it. */
  | { type: 'claim' }
  /** Which build this worker belongs to; the answer goes to the transferred port. */
  | { type: 'version' };

export interface VersionReply {
  buildId: string;
}

const TYPES: ReadonlySet<string> = new Set(['skip-waiting', 'release', 'claim', 'version']);

export function isPageMessage(data: unknown): data is PageToWorker {
  return typeof data === 'object' && data !== null && 'type' in data && typeof data.type === 'string' && TYPES.has(data.type);
}
