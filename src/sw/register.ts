/**
 * Page side of the service worker: registers `sw.js` (emitted next to index.html by swPlugin.ts)
 * and, when the page is not cross-origin isolated yet, reloads it once the worker controls it, so
 * the reloaded page gets the isolation headers. Reloads at most once per tab.
 */
import { nextIsolationStep, type IsolationStep } from './reloadDecision';

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

function controlled(container: ServiceWorkerContainer): Promise<void> {
  if (container.controller) return Promise.resolve();
  return new Promise((resolve) => container.addEventListener('controllerchange', () => resolve(), { once: true }));
}

function reload(): IsolationOutcome {
  writeMark(true);
  location.reload();
  return 'reload';
}

/**
 * Registers the service worker in production builds (the dev server sends the headers itself and
 * has no `sw.js`). Resolves with what happened; `reload` means the page is about to be replaced.
 */
export async function registerIsolationWorker(): Promise<IsolationOutcome> {
  const serviceWorkerAvailable = 'serviceWorker' in navigator && window.isSecureContext;
  const facts = () => ({
    isolated: window.crossOriginIsolated,
    serviceWorkerAvailable,
    controlled: serviceWorkerAvailable && navigator.serviceWorker.controller !== null,
    alreadyReloaded: readMark(),
  });
  if (!import.meta.env.PROD) return window.crossOriginIsolated ? 'isolated' : 'unsupported';
  if (serviceWorkerAvailable) {
    try {
      // Relative to the page, not the origin root, so the app works from any sub-path.
      await navigator.serviceWorker.register(new URL('sw.js', document.baseURI));
    } catch (error) {
      console.warn('Dataseer: the service worker could not be registered; offline use and isolation are unavailable.', error);
      return window.crossOriginIsolated ? 'isolated' : 'failed';
    }
  }
  const step = nextIsolationStep(facts());
  switch (step) {
    case 'isolated':
      writeMark(false);
      return 'isolated';
    case 'unsupported':
      return 'unsupported';
    case 'give-up':
      console.warn('Dataseer: the page is not cross-origin isolated even with the service worker; Python runs cannot be interrupted, only restarted.');
      return 'give-up';
    case 'reload':
      return reload();
    case 'wait-for-control':
      await controlled(navigator.serviceWorker);
      return reload();
  }
}
