/**
 * Page side of the service worker: registers `sw.js` (emitted next to index.html by swPlugin.ts)
 * and, when the page is not cross-origin isolated yet, reloads it once the worker controls it, so
 * the reloaded page gets the isolation headers. Reloads at most once per tab. Later versions of
 * the worker wait until the user accepts them on the update notice (watchForUpdates).
 */
import { nextIsolationStep, type IsolationStep } from './reloadDecision';
import { afterControllerChange, shouldOfferUpdate } from './updateDecision';
import type { PageToWorker } from './messages';
import { handOverLoads, observeResources } from './handOver';
import type { UpdateNotice } from './updates.svelte';

/** A long-lived tab looks for a new deploy this often (browsers also check on each page load). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/** Set just before the isolation reload; a tab that finds it and is still not isolated gives up. */
const RELOAD_MARK = 'dataseer:isolation-reload';

export type IsolationOutcome = Exclude<IsolationStep, 'wait-for-control'> | 'failed';

function readMark(): boolean {
  try {
    return sessionStorage.getItem(RELOAD_MARK) !== null;
  } catch {
    // Storage blocked: treat as already tried, since the loop guard cannot be kept.
    return true;
  }
}

function writeMark(on: boolean): void {
  try {
    if (on) sessionStorage.setItem(RELOAD_MARK, String(Date.now()));
    else sessionStorage.removeItem(RELOAD_MARK);
  } catch {
    // Nothing to keep; readMark already reports the guard as set.
  }
}

function send(worker: ServiceWorker | null | undefined, message: PageToWorker): void {
  worker?.postMessage(message);
}

function controlled(container: ServiceWorkerContainer, registration: ServiceWorkerRegistration): Promise<void> {
  if (container.controller) return Promise.resolve();
  const change = new Promise<void>((resolve) => container.addEventListener('controllerchange', () => resolve(), { once: true }));
  // An active worker that does not control this page (a hard reload bypasses it) will not claim
  // it by itself; a worker still installing claims every page when it activates.
  send(registration.active, { type: 'claim' });
  return change;
}

function reloadForIsolation(): IsolationOutcome {
  writeMark(true);
  location.reload();
  return 'reload';
}

/** The same-origin files this page has loaded so far, by its own resource timing. */
function loadedHere(): string[] {
  const origin = location.origin;
  return performance
    .getEntriesByType('resource')
    .map((e) => e.name)
    .filter((url) => url.startsWith(`${origin}/`));
}

async function keepWhatThisPageLoaded(container: ServiceWorkerContainer, registration: ServiceWorkerRegistration, alsoUsed: () => string[]): Promise<void> {
  try {
    await controlled(container, registration);
    // And what is reported later (a worker's script fetched before control): handOver.ts.
    handOverLoads([location.href, ...loadedHere(), ...alsoUsed()], {
      origin: location.origin,
      send: (urls) => send(container.controller ?? registration.active, { type: 'keep', urls }),
      observe: observeResources,
    });
  } catch {
    // No worker took control (private mode, storage off): nothing can be kept.
  }
}

/** What watchForUpdates does to the page and the clock; replaced in tests. */
export interface UpdateEnv {
  reload: () => void;
  every: (work: () => void, ms: number) => void;
}

const browserEnv: UpdateEnv = {
  reload: () => location.reload(),
  every: (work, ms) => void setInterval(work, ms),
};

/**
 * Shows the update notice when a new worker waits behind the one controlling this page, and
 * reloads once the new worker controls the page after the user clicked Reload. Never reloads on
 * its own: a run in progress keeps its page until the user decides.
 */
export function watchForUpdates(container: ServiceWorkerContainer, registration: ServiceWorkerRegistration, notice: UpdateNotice, env: UpdateEnv = browserEnv): void {
  let accepted = false;
  let reloading = false;
  let wasControlled = container.controller !== null;

  const reloadNow = () => {
    if (reloading) return;
    reloading = true;
    env.reload();
  };
  const offerIfWaiting = () => {
    if (!shouldOfferUpdate({ waiting: registration.waiting !== null, controlled: container.controller !== null })) return;
    notice.offer(() => {
      accepted = true;
      // Another tab may have activated it already; then this page only needs the reload.
      if (registration.waiting) {
        // The old worker would otherwise keep the new one waiting while any request of its own
        // hangs on the network (retirement.ts); this page reloads once the new one controls it.
        send(registration.active, { type: 'release' });
        send(registration.waiting, { type: 'skip-waiting' });
      } else reloadNow();
    });
  };

  container.addEventListener('controllerchange', () => {
    const action = afterControllerChange({ accepted, wasControlled });
    wasControlled = true;
    if (action === 'reload') reloadNow();
    else if (action === 'offer') notice.offer(reloadNow);
  });
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed') offerIfWaiting();
    });
  });
  offerIfWaiting();
  env.every(() => {
    // Offline or the host is down: the next check will do.
    registration.update().catch(() => undefined);
  }, UPDATE_CHECK_MS);
}

/**
 * Registers the service worker in production builds (the dev server sends the headers itself and
 * has no `sw.js`). Resolves with what happened; `reload` means the page is about to be replaced.
 */
/**
 * `alsoUsed`: build files the page's workers fetched for themselves (not in the page's resource
 * timing), kept with the page's own after a first visit the worker did not control.
 */
export async function registerIsolationWorker(notice: UpdateNotice, alsoUsed: () => string[] = () => []): Promise<IsolationOutcome> {
  const serviceWorkerAvailable = 'serviceWorker' in navigator && window.isSecureContext;
  const facts = () => ({
    isolated: window.crossOriginIsolated,
    serviceWorkerAvailable,
    controlled: serviceWorkerAvailable && navigator.serviceWorker.controller !== null,
    alreadyReloaded: readMark(),
  });
  if (!import.meta.env.PROD) return window.crossOriginIsolated ? 'isolated' : 'unsupported';
  // Read before registering: the worker (its own thread) can install, activate and claim this
  // page before `register` resolves on a busy main thread, and the page would then look
  // controlled though everything it loaded so far bypassed the worker (e2e/offline-first-visit
  // .spec.ts:53 failed so: nothing was handed over, the offline reload missed DuckDB's files).
  const controlledAtLoad = serviceWorkerAvailable && navigator.serviceWorker.controller !== null;
  let registration: ServiceWorkerRegistration | undefined;
  if (serviceWorkerAvailable) {
    try {
      // Relative to the page, not the origin root, so the app works from any sub-path.
      registration = await navigator.serviceWorker.register(new URL('sw.js', document.baseURI));
      watchForUpdates(navigator.serviceWorker, registration, notice);
    } catch (error) {
      console.warn('Dataseer: the service worker could not be registered; offline use and isolation are unavailable.', error);
      return window.crossOriginIsolated ? 'isolated' : 'failed';
    }
  }
  const step = nextIsolationStep(facts());
  switch (step) {
    case 'isolated':
      writeMark(false);
      // Isolated by the host's own headers, the first visit is not reloaded: what it loaded
      // before the worker took control is handed to the worker, or the next load offline
      // would miss it (the main bundle, the engines' worker scripts).
      if (registration && !controlledAtLoad) void keepWhatThisPageLoaded(navigator.serviceWorker, registration, alsoUsed);
      return 'isolated';
    case 'unsupported':
      return 'unsupported';
    case 'give-up':
      console.warn('Dataseer: the page is not cross-origin isolated even with the service worker; Python runs cannot be interrupted, only restarted.');
      return 'give-up';
    case 'reload':
      return reloadForIsolation();
    case 'wait-for-control':
      if (!registration) return 'failed';
      await controlled(navigator.serviceWorker, registration);
      return reloadForIsolation();
  }
}
