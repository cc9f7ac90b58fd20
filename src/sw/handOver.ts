/**
 * A first visit the service worker did not control (the host sends the isolation headers itself,
 * so the page is never reloaded): the build files the page loaded before the worker took control
 * are handed to it, or the next load offline misses them. A one-time list at the moment of control
 * is not enough: a worker's script is reported in the page's resource timing only once it has been
 * fetched, seconds after `new Worker` on a busy machine, and a fetch begun before control never
 * passes through the worker (the agent's and DuckDB's worker scripts were lost so, and the offline
 * reload of e2e/offline-first-visit.spec.ts failed now and then). So the page keeps handing over
 * what it is reported to have loaded outside the worker, as it is reported.
 */
import { KEEP_MAX } from './messages';

/** What the page's resource timing says of one file. */
export interface LoadedEntry {
  name: string;
  /** 0 when no service worker answered the request (its file is not cached by the worker). */
  workerStart: number;
}

export interface HandOverDeps {
  /** The page's origin: only its files are build files. */
  origin: string;
  /** Posts one `keep` message. */
  send(urls: string[]): void;
  /** Reports resource entries as they come (the ones before included); returns the stop. */
  observe(report: (entries: readonly LoadedEntry[]) => void): () => void;
}

/** Hands over `first` at once, then every same-origin file reported as loaded outside the worker; each URL once. */
export function handOverLoads(first: readonly string[], deps: HandOverDeps): () => void {
  const sent = new Set<string>();
  const keep = (urls: readonly string[]) => {
    const fresh = [...new Set(urls)].filter((u) => !sent.has(u));
    for (const u of fresh) sent.add(u);
    for (let i = 0; i < fresh.length; i += KEEP_MAX) deps.send(fresh.slice(i, i + KEEP_MAX));
  };
  keep(first);
  const ours = `${deps.origin}/`;
  return deps.observe((entries) => keep(entries.filter((e) => e.workerStart === 0 && e.name.startsWith(ours)).map((e) => e.name)));
}

/** The browser's resource timing as `observe` (buffered: what was reported before comes first). */
export function observeResources(report: (entries: readonly LoadedEntry[]) => void): () => void {
  const observer = new PerformanceObserver((list) => report(list.getEntriesByType('resource') as PerformanceResourceTiming[]));
  observer.observe({ type: 'resource', buffered: true });
  return () => observer.disconnect();
}
