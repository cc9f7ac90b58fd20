/** What the page does about cross-origin isolation once its service worker is registered. */
export type IsolationStep =
  /** Already isolated (headers from the host or the worker): nothing to do. */
  | 'isolated'
  /** No service worker here (old browser, insecure context, private mode): run without it. */
  | 'unsupported'
  /** The worker controls the page, but the page was loaded before it: reload once. */
  | 'reload'
  /** The worker is installing; reload when it takes control. */
  | 'wait-for-control'
  /** A reload already happened in this tab and did not help: stop, to avoid a reload loop. */
  | 'give-up';

export interface IsolationFacts {
  isolated: boolean;
  serviceWorkerAvailable: boolean;
  controlled: boolean;
  /** This tab already reloaded for isolation and the page is still not isolated. */
  alreadyReloaded: boolean;
}

export function nextIsolationStep(facts: IsolationFacts): IsolationStep {
  if (facts.isolated) return 'isolated';
  if (!facts.serviceWorkerAvailable) return 'unsupported';
  if (facts.alreadyReloaded) return 'give-up';
  return facts.controlled ? 'reload' : 'wait-for-control';
}
